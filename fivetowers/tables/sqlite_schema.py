"""The SQLite store's schema, its versions, and the writes shared with migrations.

``PRAGMA application_id`` marks a file as a fivetowers store and
``PRAGMA user_version`` is its schema version. Each entry of
:data:`MIGRATIONS` takes a store from version n - 1 to n; a store opens by
running the missing ones in one transaction, so a crash mid-migration leaves
the old version intact.

- Version 1: games (a live table's code, name, variant, deck, reshuffle),
  seats and actions.
- Version 2: final scores and winners of finished games, and ratings; a
  version-1 store gets them by replaying its finished games.
- Version 3: the store knows games, not 5 Towers. A game has a ``kind`` (the
  registry's name) and its ``setup`` as JSON (the record without players and
  actions) instead of the 5 Towers columns ``variant``, ``seed``, ``deck``
  and ``reshuffle``; the games table is rebuilt, old rows becoming
  ``fivetowers`` games whose setup is what ``Game.setup_json()`` writes.
- Version 4: each game is rated on its own (issue 14): a rating belongs to
  a game's ``kind`` and an identity. The ratings of a version-3 store were
  all won at 5 Towers (the only game a server offered), so they become its.

Versions 1 and 2 held 5 Towers games only: their migrations write 5 Towers'
JSON as it was then, literally, and ask the registry (never the rules) to
replay a game.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Callable, Mapping, Sequence

from fivetowers.games import UnknownGame, game_kind
from fivetowers.tables.ratings import rated_game

APPLICATION_ID = 0x46355457  # "F5TW"
SCHEMA_VERSION = 5
LEGACY_KIND = "fivetowers"
"""The game every row of a version 1 or 2 store holds."""
LEGACY_FORMAT = "fivetowers-record/1"

_V1 = """
CREATE TABLE games (
    id        INTEGER PRIMARY KEY,
    code      TEXT NOT NULL,
    name      TEXT NOT NULL,
    variant   TEXT NOT NULL,
    private   INTEGER NOT NULL DEFAULT 0,
    seed      INTEGER,
    deck      TEXT NOT NULL,   -- JSON list of cards, first revealed first
    reshuffle TEXT,            -- JSON list of cards, once the deck first ran out
    created   REAL NOT NULL,
    finished  REAL             -- NULL while the game goes on
);
-- A join code names one live table; finished games give their code back.
CREATE UNIQUE INDEX games_live_code ON games(code) WHERE finished IS NULL;
CREATE TABLE seats (
    game        INTEGER NOT NULL REFERENCES games(id),
    seat        INTEGER NOT NULL,
    name        TEXT NOT NULL,
    fingerprint TEXT,
    bot         TEXT,
    PRIMARY KEY (game, seat)
) WITHOUT ROWID;
CREATE INDEX seats_by_key ON seats(fingerprint) WHERE fingerprint IS NOT NULL;
CREATE TABLE actions (
    game  INTEGER NOT NULL REFERENCES games(id),
    idx   INTEGER NOT NULL,
    body  TEXT NOT NULL,       -- the FORMATS.md action object
    PRIMARY KEY (game, idx)
) WITHOUT ROWID;
"""

_V2 = """
ALTER TABLE games ADD COLUMN scores TEXT;   -- JSON list by seat, once finished
ALTER TABLE games ADD COLUMN winners TEXT;  -- JSON list of seats, once finished
CREATE TABLE ratings (
    identity TEXT PRIMARY KEY,  -- key:<fingerprint> or bot:<kind>
    name     TEXT NOT NULL,
    rating   REAL NOT NULL,
    games    INTEGER NOT NULL,
    wins     INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX ratings_best ON ratings(rating DESC);
"""


_V3 = """
CREATE TABLE games_v3 (
    id        INTEGER PRIMARY KEY,
    code      TEXT NOT NULL,
    name      TEXT NOT NULL,
    kind      TEXT NOT NULL,   -- the game: its registry name (fivetowers, ...)
    private   INTEGER NOT NULL DEFAULT 0,
    setup     TEXT NOT NULL,   -- JSON: the game's record without players and actions
    created   REAL NOT NULL,
    finished  REAL,            -- NULL while the game goes on
    scores    TEXT,            -- JSON list by seat, once finished
    winners   TEXT             -- JSON list of seats, once finished
)
"""

_V3_INDEX = "CREATE UNIQUE INDEX games_live_code ON games(code) WHERE finished IS NULL"

_V4 = """
CREATE TABLE ratings_v4 (
    kind     TEXT NOT NULL,     -- the game rated (its registry name)
    identity TEXT NOT NULL,     -- key:<fingerprint> or bot:<kind>
    name     TEXT NOT NULL,
    rating   REAL NOT NULL,
    games    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    PRIMARY KEY (kind, identity)
) WITHOUT ROWID
"""

_V4_INDEX = "CREATE INDEX ratings_best ON ratings(kind, rating DESC)"

_V5 = """
CREATE TABLE preferences (
    identity TEXT NOT NULL,  -- an SSH key's fingerprint (SHA256:...)
    name     TEXT NOT NULL,  -- what is chosen: language, ...
    value    TEXT NOT NULL,
    PRIMARY KEY (identity, name)
) WITHOUT ROWID;
"""


def compact(data: object) -> str:
    """JSON as the store keeps it: no spaces."""
    return json.dumps(data, separators=(",", ":"))


def record_of(setup: Mapping[str, Any], players: Sequence[str],
              actions: Sequence[object]) -> dict[str, Any]:
    """A game's record from its setup, its players and its actions.

    Only a game knows where it writes each key (``fivetowers export`` asks it,
    see :func:`fivetowers.tables.history.record_text_of`): here the setup's
    ``format`` comes first, then the rest of the setup, players, actions."""
    record: dict[str, Any] = {}
    if "format" in setup:
        record["format"] = setup["format"]
    record.update(setup)
    record["players"] = list(players)
    record["actions"] = list(actions)
    return record


def legacy_setup(variant: str, seed: int | None, deck: str,
                 reshuffle: str | None) -> dict[str, Any]:
    """A version-2 row's 5 Towers columns as ``Game.setup_json()`` writes them."""
    setup: dict[str, Any] = {"format": LEGACY_FORMAT, "variant": variant}
    if seed is not None:
        setup["seed"] = seed
    setup["deck"] = json.loads(deck)
    if reshuffle is not None:
        setup["reshuffle"] = json.loads(reshuffle)
    return setup


def result_of(kind: str, record: Mapping[str, Any]) -> tuple[list[int], list[int]] | None:
    """Scores and winners of a kept game by replaying it; None if it does not
    replay or is not over."""
    try:
        result = game_kind(kind).match_from_record(record).result()
    except (UnknownGame, ValueError):  # RecordError and the rules' errors among them
        return None
    if result is None:
        return None
    return list(result.scores), list(result.winners)


def write_result(conn: sqlite3.Connection, game_id: int, scores: Sequence[int],
                 winners: Sequence[int], when: float) -> None:
    """Mark a game finished and move its rated seats' ratings at its game."""
    (kind,) = conn.execute("SELECT kind FROM games WHERE id = ?", (game_id,)).fetchone()
    conn.execute("UPDATE games SET finished = ?, scores = ?, winners = ? WHERE id = ?",
                 (when, json.dumps(list(scores)), json.dumps(list(winners)), game_id))
    _rate(conn, game_id, scores, winners, kind)


def _rate(conn: sqlite3.Connection, game_id: int, scores: Sequence[int],
          winners: Sequence[int], kind: str | None) -> None:
    """Move the ratings of a game's rated seats: at game ``kind`` (version 4),
    or in the one rating of a version-2 store (``kind`` None)."""
    seats = conn.execute("SELECT seat, name, fingerprint, bot FROM seats WHERE game = ? "
                         "ORDER BY seat", (game_id,)).fetchall()
    game = rated_game(seats, scores, winners)
    if not game.results:
        return
    # The game's own ratings only: a 5 Towers rating says nothing of GoTown.
    of_game, key_columns, key = ("kind = ? AND ", "kind, ", [kind]) if kind is not None \
        else ("", "", [])
    before = {identity: rating for identity, rating in conn.execute(
        f"SELECT identity, rating FROM ratings WHERE {of_game}identity IN "
        f"({','.join('?' * len(game.names))})", [*key, *game.names])}
    conn.executemany(
        f"INSERT INTO ratings ({key_columns}identity, name, rating, games, wins) "
        f"VALUES ({'?, ' * len(key)}?, ?, ?, 1, ?) "
        f"ON CONFLICT ({key_columns}identity) DO UPDATE SET name = excluded.name, "
        "rating = rating + ?, games = games + 1, wins = wins + excluded.wins",
        [(*key, *row) for row in game.rating_rows(before)])


def _to_v1(conn: sqlite3.Connection) -> None:
    _run(conn, _V1)


def _to_v2(conn: sqlite3.Connection) -> None:
    _run(conn, _V2)
    # Version 1 kept no results: replay each finished game to score it, and
    # rate the games in the order they ended, as if rated live.
    done = conn.execute("SELECT id, finished, variant, seed, deck, reshuffle FROM games "
                        "WHERE finished IS NOT NULL ORDER BY finished, id").fetchall()
    for game_id, when, variant, seed, deck, reshuffle in done:
        try:
            setup = legacy_setup(variant, seed, deck, reshuffle)
        except ValueError:
            continue  # unreadable record: keep it, unscored
        names = [n for (n,) in conn.execute(
            "SELECT name FROM seats WHERE game = ? ORDER BY seat", (game_id,))]
        actions = [json.loads(b) for (b,) in conn.execute(
            "SELECT body FROM actions WHERE game = ? ORDER BY idx", (game_id,))]
        outcome = result_of(LEGACY_KIND, record_of(setup, names, actions))
        if outcome is not None:  # else unreadable or illegal: kept, unscored
            conn.execute("UPDATE games SET scores = ?, winners = ? WHERE id = ?",
                         (json.dumps(outcome[0]), json.dumps(outcome[1]), game_id))
            _rate(conn, game_id, outcome[0], outcome[1], None)


def _to_v3(conn: sqlite3.Connection) -> None:
    # SQLite cannot drop or retype columns in place: build the new games
    # table, copy every row over (its setup from the 5 Towers columns), drop
    # the old one and take its name (SQLite's "making other kinds of table
    # schema changes"). Seats and actions refer to games by name, so they
    # refer to the new table once it has it. Foreign keys are off during a
    # migration (see SqliteStore._open) and checked at its end.
    _run(conn, _V3)
    rows = conn.execute("SELECT id, code, name, variant, private, seed, deck, reshuffle, "
                        "created, finished, scores, winners FROM games ORDER BY id").fetchall()
    for (game_id, code, name, variant, private, seed, deck, reshuffle, created, finished,
         scores, winners) in rows:
        try:
            setup = compact(legacy_setup(variant, seed, deck, reshuffle))
        except ValueError:  # a damaged row: kept as it was, for the record's reader to refuse
            setup = compact({"format": LEGACY_FORMAT, "variant": variant, "deck": deck})
        conn.execute("INSERT INTO games_v3 (id, code, name, kind, private, setup, created, "
                     "finished, scores, winners) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (game_id, code, name, LEGACY_KIND, private, setup, created, finished,
                      scores, winners))
    conn.execute("DROP TABLE games")
    conn.execute("ALTER TABLE games_v3 RENAME TO games")
    conn.execute(_V3_INDEX)
    broken = conn.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise sqlite3.IntegrityError(f"the migration to version 3 broke {len(broken)} "
                                     "references to games")


def _to_v4(conn: sqlite3.Connection) -> None:
    # Until version 4 a server offered 5 Towers alone (GoTown was not
    # registered), so every rating kept was won at 5 Towers.
    _run(conn, _V4)
    conn.execute("INSERT INTO ratings_v4 (kind, identity, name, rating, games, wins) "
                 "SELECT ?, identity, name, rating, games, wins FROM ratings", (LEGACY_KIND,))
    conn.execute("DROP TABLE ratings")
    conn.execute("ALTER TABLE ratings_v4 RENAME TO ratings")
    conn.execute(_V4_INDEX)


def _to_v5(conn: sqlite3.Connection) -> None:
    _run(conn, _V5)  # a new table only: every older row stays as it was


def _run(conn: sqlite3.Connection, script: str) -> None:
    # executescript() would COMMIT the open migration transaction first, so
    # run the statements one by one inside it.
    code = "\n".join(line.split("--")[0] for line in script.splitlines())
    for statement in code.split(";"):
        if statement.strip():
            conn.execute(statement)


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_to_v1, _to_v2, _to_v3, _to_v4, _to_v5]


def migrate(conn: sqlite3.Connection, start: int, target: int = SCHEMA_VERSION) -> None:
    """Run migrations ``start + 1 .. target`` in the caller's open transaction."""
    for version in range(start + 1, target + 1):
        MIGRATIONS[version - 1](conn)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {target}")
