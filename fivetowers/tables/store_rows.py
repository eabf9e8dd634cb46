"""What every SQL store does alike: reading its rows back into tables, and
checking a setup only grows. SQLite and PostgreSQL keep the same columns."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any, Iterable, Mapping, Protocol, Sequence

from fivetowers.games import UnknownGame, game_kind
from fivetowers.tables.sqlite_schema import compact, record_of
from fivetowers.tables.store import (
    Rating, StoreConflict, StoredSeat, StoredTable, StoreUnreadable, TableInfo, UnknownTable,
)

GAME_COLUMNS = "id, code, name, kind, private, setup, created, finished, scores, winners"
"""A game row's columns, in the order :func:`info_of` reads them."""


class Sql(Protocol):
    """Either store's connection (sqlite3's or psycopg's): the queries below
    are written once with SQLite's ``?`` and run with the store's own mark."""

    def execute(self, query: Any, params: Any = ..., /) -> Any: ...


def _marked(query: str, mark: str) -> str:
    """``query`` with the store's placeholder (``?``, or psycopg's ``%s``) for ``?``."""
    return query.replace("?", mark)


def seats_by_game(rows: Iterable[tuple[Any, ...]]) -> dict[int, list[StoredSeat]]:
    """Seat rows (game, seat, name, fingerprint, bot), in seat order, by game."""
    out: dict[int, list[StoredSeat]] = defaultdict(list)
    for game_id, _seat, name, fingerprint, bot in rows:
        out[game_id].append(StoredSeat(name, fingerprint, bot))
    return out


def setup_of(row: tuple[Any, ...]) -> dict[str, Any] | None:
    """A game row's setup, or None if it is not a JSON object."""
    try:
        setup = json.loads(row[5])
    except ValueError:
        return None
    return setup if isinstance(setup, dict) else None


def info_of(row: tuple[Any, ...], seats: list[StoredSeat], actions: int,
            setup: dict[str, Any] | None = None) -> TableInfo:
    """A game row as a "my games" list shows it."""
    (table_id, code, name, kind, private, _setup_text, created, finished, scores,
     winners) = row
    if setup is None:
        setup = setup_of(row)
    try:
        options = game_kind(kind).options_of(setup) if setup is not None else {}
    except (UnknownGame, ValueError):  # a game this server does not know: listed all the same
        options = {}
    return TableInfo(table_id, code, name, kind, options, tuple(seats),
                     bool(private), created, finished, actions,
                     tuple(json.loads(scores)) if scores else None,
                     tuple(json.loads(winners)) if winners else None)


def actions_of(table_id: int, bodies: list[str], where: object) -> list[object]:
    """A table's stored action bodies, parsed; :class:`StoreUnreadable` names
    the store ``where`` if one is not a JSON object."""
    # One parse per table, not per action: restoring 1000 tables spent
    # most of its reading time in json.loads calls.
    try:
        actions = json.loads("[" + ",".join(bodies) + "]")
    except ValueError:
        actions = None
    if not isinstance(actions, list) or len(actions) != len(bodies) or not all(
            isinstance(a, dict) for a in actions):
        raise StoreUnreadable(f"table {table_id} in {where} is damaged: "
                              "an action is not JSON")
    return actions


def stored_of(row: tuple[Any, ...], seats: list[StoredSeat], actions: list[object],
              where: object) -> StoredTable:
    """A game row, its seats and actions as a record ready to replay."""
    setup = setup_of(row)
    if setup is None:
        raise StoreUnreadable(f"table {row[0]} in {where} is damaged: "
                              "its setup is not a JSON object")
    record = record_of(setup, [s.name for s in seats], actions)
    return StoredTable(info_of(row, seats, len(actions), setup), record)


def grown_setup(table_id: int, kept_text: str, setup: Mapping[str, Any]) -> str | None:
    """The setup text to keep when an action brings ``setup``: None if it is
    what the store holds; :class:`StoreConflict` if it would change a key
    the store holds (a setup only grows: a reshuffle revealed)."""
    new = dict(setup)
    text = compact(new)
    if text == kept_text:
        return None
    try:
        kept = json.loads(kept_text)
    except ValueError:
        kept = None
    changed = [k for k, v in kept.items() if k not in new or not _grown(v, new[k])] \
        if isinstance(kept, dict) else ["setup"]
    if changed:
        raise StoreConflict(f"table {table_id} already has another {', '.join(changed)}")
    return text


def _grown(kept: object, new: object) -> bool:
    """Whether a setup value ``new`` keeps ``kept``: the same, or a list with
    more entries after the same ones (GoTown's ``reshuffles`` gains one each
    time its draw pile is rebuilt)."""
    if isinstance(kept, list) and isinstance(new, list):
        return new[:len(kept)] == kept
    return new == kept


# -- the queries both stores run alike -------------------------------------------
def check_new_table(kind: str, seats: Sequence[StoredSeat]) -> None:
    """StoreConflict unless a table to keep names its game and has seats."""
    if not kind:
        raise StoreConflict("a kept table needs the kind of its game")
    if not seats:
        raise StoreConflict("a kept table needs its seats")


def may_finish(row: tuple[Any, ...] | None, table_id: int, scores: Sequence[int]) -> bool:
    """Whether a game, read as (finished, seat count), is to be finished now:
    False if it already is; :class:`UnknownTable` without a row, and
    :class:`StoreConflict` for scores that do not fit its seats."""
    if row is None:
        raise UnknownTable(f"no table {table_id} in the store")
    if row[0] is not None:
        return False
    if len(scores) != row[1]:
        raise StoreConflict(f"{len(scores)} scores for a table of {row[1]} seats")
    return True


def read_table(conn: Sql, mark: str, table_id: int,
               where: object) -> tuple[tuple[Any, ...], list[StoredSeat], list[str]]:
    """One game's row, seats and action bodies (parsed after the read, by
    :func:`actions_of` and :func:`stored_of`); :class:`UnknownTable`."""
    row = conn.execute(_marked(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", mark),
                       (table_id,)).fetchone()
    if row is None:
        raise UnknownTable(f"no game {table_id} in the store {where}")
    seats = seats_by_game(conn.execute(_marked(
        "SELECT game, seat, name, fingerprint, bot FROM seats WHERE game = ? ORDER BY seat",
        mark), (table_id,)))
    bodies = [b for (b,) in conn.execute(
        _marked("SELECT body FROM actions WHERE game = ? ORDER BY idx", mark), (table_id,))]
    return row, seats[table_id], bodies


def abandon(conn: Sql, mark: str, table_id: int, now: float) -> bool:
    """Mark an unfinished game finished without a result; False if it was
    finished already, :class:`UnknownTable` if there is none."""
    if conn.execute(_marked("SELECT 1 FROM games WHERE id = ?", mark),
                    (table_id,)).fetchone() is None:
        raise UnknownTable(f"no table {table_id} in the store")
    done = conn.execute(_marked("UPDATE games SET finished = ? WHERE id = ? "
                                "AND finished IS NULL", mark), (now, table_id))
    return bool(done.rowcount == 1)


def leaderboard(conn: Sql, mark: str, limit: int, kind: str | None) -> list[Rating]:
    """The best ratings, of game ``kind`` or of every game."""
    of_game, params = ("WHERE kind = ? ", [kind]) if kind is not None else ("", [])
    rows = conn.execute(_marked("SELECT identity, name, rating, games, wins, kind FROM ratings "
                                f"{of_game}ORDER BY rating DESC, games DESC, identity, kind "
                                "LIMIT ?", mark), [*params, limit]).fetchall()
    return [Rating(*row) for row in rows]


def preference(conn: Sql, mark: str, identity: str, name: str) -> str | None:
    row = conn.execute(_marked("SELECT value FROM preferences WHERE identity = ? AND name = ?",
                               mark), (identity, name)).fetchone()
    return None if row is None else str(row[0])


def set_preference(conn: Sql, mark: str, identity: str, name: str, value: str) -> None:
    conn.execute(_marked("INSERT INTO preferences (identity, name, value) VALUES (?, ?, ?) "
                         "ON CONFLICT (identity, name) DO UPDATE SET value = excluded.value",
                         mark), (identity, name, value))
