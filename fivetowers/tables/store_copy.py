"""``fivetowers migrate``: a SQLite store's games, players and ratings copied
into a new PostgreSQL store, whole or not at all.

Games keep their numbers (a player's "my games" and ``export`` numbers stay
true), ratings are copied as they stand (not replayed: a game's rating moved
with the ratings of its day). The SQLite store is held exclusively while it
is read, so no server adds a game halfway, and the copy is one PostgreSQL
transaction: a failure leaves the target as empty as it was.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from fivetowers.tables.pg_store import PgStore
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import STORE_FILE, StoreBusy, StoreConflict, StoreError
from fivetowers.tables.store_rows import GAME_COLUMNS


@dataclass(frozen=True, slots=True)
class Copied:
    """What a migration copied."""

    games: int
    players: int  # distinct keys that sat at a copied game
    ratings: int


def copy_store(data_dir: Path, target: PgStore) -> Copied:
    """Copy the SQLite store of ``data_dir`` into ``target``, which must hold
    no game yet. :class:`StoreError` with one line otherwise."""
    path = data_dir / STORE_FILE
    try:
        source = SqliteStore(path, create=False, exclusive=True)  # checked, upgraded, held
    except StoreBusy:
        raise StoreBusy(f"a fivetowers server is using the store {path}: stop it before "
                        "migrating, or games it keeps meanwhile would be left behind") from None
    try:
        conn = sqlite3.connect(path)
        try:
            games = conn.execute(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id").fetchall()
            seats = conn.execute("SELECT game, seat, name, fingerprint, bot FROM seats "
                                 "ORDER BY game, seat").fetchall()
            actions = conn.execute("SELECT game, idx, body FROM actions "
                                   "ORDER BY game, idx").fetchall()
            ratings = conn.execute("SELECT kind, identity, name, rating, games, wins "
                                   "FROM ratings").fetchall()
            preferences = conn.execute("SELECT identity, name, value "
                                       "FROM preferences").fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the store {path}: {exc}") from None
        finally:
            conn.close()
    finally:
        source.close()
    with target.transaction() as pg:
        held = pg.execute("SELECT (SELECT count(*) FROM games) + "
                          "(SELECT count(*) FROM ratings)").fetchone()
        if held and held[0]:
            raise StoreConflict(f"the store {target.where} already holds games or ratings: "
                                "migrate into a new, empty database")
        with pg.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO games ({GAME_COLUMNS}) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [(*g[:4], bool(g[4]), *g[5:]) for g in games])
            cursor.executemany("INSERT INTO seats (game, seat, name, fingerprint, bot) "
                               "VALUES (%s, %s, %s, %s, %s)", seats)
            cursor.executemany("INSERT INTO actions (game, idx, body) VALUES (%s, %s, %s)",
                               actions)
            cursor.executemany("INSERT INTO ratings (kind, identity, name, rating, games, wins) "
                               "VALUES (%s, %s, %s, %s, %s, %s)", ratings)
            cursor.executemany("INSERT INTO preferences (identity, name, value) "
                               "VALUES (%s, %s, %s)", preferences)
        pg.execute("UPDATE games SET kept = (SELECT count(*) FROM actions "
                   "WHERE actions.game = games.id)")
        # New games are numbered after the copied ones.
        pg.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), "
                   "(SELECT COALESCE(MAX(id), 0) + 1 FROM games), false)")
    players = {s[3] for s in seats if s[3] is not None}
    return Copied(len(games), len(players), len(ratings))
