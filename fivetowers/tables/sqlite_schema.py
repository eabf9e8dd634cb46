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
"""

from __future__ import annotations

import json
import sqlite3
from typing import Callable, Sequence

from fivetowers.games.five_towers.rules.cards import Card
from fivetowers.games.five_towers.rules.errors import FormatError
from fivetowers.games.five_towers.rules.record import Record, replay
from fivetowers.games.five_towers.rules.variant import Variant
from fivetowers.tables.ratings import INITIAL_RATING, Result, rating_changes

APPLICATION_ID = 0x46355457  # "F5TW"
SCHEMA_VERSION = 2

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


def cards_json(cards: Sequence[Card]) -> str:
    return json.dumps([str(c) for c in cards])


def read_record(conn: sqlite3.Connection, game_id: int) -> Record | None:
    """A game's record from the store, or None if there is no such game."""
    row = conn.execute("SELECT variant, seed, deck, reshuffle FROM games WHERE id = ?",
                       (game_id,)).fetchone()
    if row is None:
        return None
    variant, seed, deck, reshuffle = row
    names = [n for (n,) in conn.execute(
        "SELECT name FROM seats WHERE game = ? ORDER BY seat", (game_id,))]
    actions = [json.loads(b) for (b,) in conn.execute(
        "SELECT body FROM actions WHERE game = ? ORDER BY idx", (game_id,))]
    return record_of(variant, names, seed, deck, reshuffle, actions)


def record_of(variant: str, names: list[str], seed: int | None, deck: str,
              reshuffle: str | None, actions: list[object]) -> Record:
    return Record(Variant.from_str(variant), names,
                  [Card.from_str(c) for c in json.loads(deck)],
                  [Card.from_str(c) for c in json.loads(reshuffle)] if reshuffle else None,
                  seed, actions)


def write_result(conn: sqlite3.Connection, game_id: int, scores: Sequence[int],
                 winners: Sequence[int], when: float) -> None:
    """Mark a game finished and move the ratings of its rated seats."""
    conn.execute("UPDATE games SET finished = ?, scores = ?, winners = ? WHERE id = ?",
                 (when, json.dumps(list(scores)), json.dumps(list(winners)), game_id))
    seats = conn.execute("SELECT seat, name, fingerprint, bot FROM seats WHERE game = ? "
                         "ORDER BY seat", (game_id,)).fetchall()
    results: list[Result] = []
    names: dict[str, str] = {}
    won: set[str] = set()
    for seat, name, fingerprint, bot in seats:
        identity = f"bot:{bot}" if bot is not None else (
            f"key:{fingerprint}" if fingerprint is not None else None)
        if identity is None or seat >= len(scores):
            continue  # a guest: kept in the record, not rated
        results.append(Result(identity, scores[seat]))
        names[identity] = bot if bot is not None else name
        if seat in winners:
            won.add(identity)
    if not results:
        return
    before = {identity: rating for identity, rating in conn.execute(
        f"SELECT identity, rating FROM ratings WHERE identity IN "
        f"({','.join('?' * len(names))})", list(names))}
    for identity, delta in rating_changes(before, results).items():
        conn.execute(
            "INSERT INTO ratings (identity, name, rating, games, wins) VALUES (?, ?, ?, 1, ?) "
            "ON CONFLICT (identity) DO UPDATE SET name = excluded.name, "
            "rating = rating + ?, games = games + 1, wins = wins + excluded.wins",
            (identity, names[identity], INITIAL_RATING + delta, int(identity in won), delta))


def _to_v1(conn: sqlite3.Connection) -> None:
    _run(conn, _V1)


def _to_v2(conn: sqlite3.Connection) -> None:
    _run(conn, _V2)
    # Version 1 kept no results: replay each finished game to score it, and
    # rate the games in the order they ended, as if rated live.
    done = conn.execute("SELECT id, finished FROM games WHERE finished IS NOT NULL "
                        "ORDER BY finished, id").fetchall()
    for game_id, when in done:
        record = read_record(conn, game_id)
        assert record is not None
        try:
            game, error = replay(record)
        except FormatError:
            continue  # unreadable record: keep it, unscored
        if error is not None:
            continue
        outcome = game.outcome()
        write_result(conn, game_id, [s.total for s in outcome.scores], outcome.winners, when)


def _run(conn: sqlite3.Connection, script: str) -> None:
    # executescript() would COMMIT the open migration transaction first, so
    # run the statements one by one inside it.
    code = "\n".join(line.split("--")[0] for line in script.splitlines())
    for statement in code.split(";"):
        if statement.strip():
            conn.execute(statement)


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_to_v1, _to_v2]


def migrate(conn: sqlite3.Connection, start: int, target: int = SCHEMA_VERSION) -> None:
    """Run migrations ``start + 1 .. target`` in the caller's open transaction."""
    for version in range(start + 1, target + 1):
        MIGRATIONS[version - 1](conn)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {target}")
