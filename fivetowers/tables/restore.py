"""Rebuilding the live games at start, from the store (DESIGN.md "the log is the truth").

Each table's game comes from the registry by the kind the store keeps, and
is replayed through the game's protocol (:func:`~fivetowers.tables.history.replay`):
nothing here knows one game from another.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fivetowers.games import UnknownGame, game_kind
from fivetowers.games.protocol import GameKind, Match
from fivetowers.tables.history import replay
from fivetowers.tables.store import Store, TableInfo, is_local


@dataclass(frozen=True, slots=True)
class Restored:
    """An unfinished table and its game, exactly as its players last saw it."""

    info: TableInfo
    game: Match
    kind: GameKind


@dataclass
class RestoreReport:
    live: list[Restored] = field(default_factory=list)
    # Games that were over but not yet marked finished (the process died
    # between the last action's commit and finish_table): finished now.
    finished: list[int] = field(default_factory=list)
    # Tables whose record does not replay (a rules change, a damaged row, a
    # game this server does not know): left untouched in the store and not
    # served, with the reason.
    broken: list[tuple[int, str]] = field(default_factory=list)


def restore(store: Store) -> RestoreReport:
    """Replay every unfinished table; finish the ones whose game is over."""
    report = RestoreReport()
    for stored in store.unfinished_tables():
        if is_local(stored.info.code):
            continue  # a game of `fivetowers play`: its own terminal resumes it
        table_id = stored.info.id
        try:
            kind = game_kind(stored.info.kind)
            match, error = replay(kind, stored.record)
        except (UnknownGame, ValueError) as exc:  # RecordError and a game's errors
            report.broken.append((table_id, " ".join(str(exc).split())))
            continue
        if error is not None:
            report.broken.append((table_id, f"action {error.action}: {error.message}"))
            continue
        if match.is_terminal():
            result = match.result()
            assert result is not None  # a game over has its result
            store.finish_table(table_id, list(result.scores), list(result.winners))
            report.finished.append(table_id)
            continue
        report.live.append(Restored(stored.info, match, kind))
    return report
