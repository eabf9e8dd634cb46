"""Rebuilding the live games at start, from the store (DESIGN.md "the log is the truth")."""

from __future__ import annotations

from dataclasses import dataclass, field

from fivetowers.games.five_towers.rules.errors import FormatError
from fivetowers.games.five_towers.rules.game import Game
from fivetowers.games.five_towers.rules.record import replay
from fivetowers.tables.store import Store, TableInfo


@dataclass(frozen=True, slots=True)
class Restored:
    """An unfinished table and its game, exactly as its players last saw it."""

    info: TableInfo
    game: Game


@dataclass
class RestoreReport:
    live: list[Restored] = field(default_factory=list)
    # Games that were over but not yet marked finished (the process died
    # between the last action's commit and finish_table): finished now.
    finished: list[int] = field(default_factory=list)
    # Tables whose record does not replay (a rules change, a damaged row):
    # left untouched in the store and not served, with the reason.
    broken: list[tuple[int, str]] = field(default_factory=list)


def restore(store: Store) -> RestoreReport:
    """Replay every unfinished table; finish the ones whose game is over."""
    report = RestoreReport()
    for stored in store.unfinished_tables():
        table_id = stored.info.id
        try:
            game, error = replay(stored.record)
        except FormatError as exc:
            report.broken.append((table_id, str(exc)))
            continue
        if error is not None:
            report.broken.append((table_id, f"action {error.action}: {error.message}"))
            continue
        if game.is_terminal():
            outcome = game.outcome()
            store.finish_table(table_id, [s.total for s in outcome.scores], outcome.winners)
            report.finished.append(table_id)
            continue
        report.live.append(Restored(stored.info, game))
    return report
