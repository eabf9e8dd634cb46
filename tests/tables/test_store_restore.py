"""restore(): live games rebuilt, over games finished, broken records set aside."""

from __future__ import annotations

from fivetowers.games.five_towers.rules.game import Game
from fivetowers.games.five_towers.rules.record import Record, result_json
from fivetowers.tables.restore import restore
from fivetowers.tables.store import Store, StoredSeat
from tests.tables.backends import Backend
from tests.tables.random_play import play_to_end
from tests.tables.kept import kept

SEATS = [StoredSeat("A", "SHA256:a"), StoredSeat("B", bot="random")]


def keep(store: Store, code: str, seed: int, limit: int | None) -> tuple[int, Game]:
    game = Game(["A", "B"], seed=seed)
    play_to_end(game, seed, limit=limit)
    return store.create_table(code=code, name="t", seats=SEATS,
                              **kept(game)), game


def test_restore_sorts_the_unfinished_tables(backend: Backend) -> None:
    store = backend.open()
    live_id, live = keep(store, "LIVE", 1, 20)
    over_id, over = keep(store, "OVER", 2, None)  # its finish_table never happened
    broken_id, _ = keep(store, "BROKEN", 3, 12)
    store.close()
    backend.execute(  # action 11 becomes a bid nobody may make
        "UPDATE actions SET body = '{\"seat\": 0, \"bid\": 9}' WHERE game = ? AND idx = 11",
        (broken_id,))

    store = backend.open()
    report = restore(store)
    assert [r.info.id for r in report.live] == [live_id]
    assert result_json(report.live[0].game) == result_json(live)
    assert report.finished == [over_id]
    assert store.load_table(over_id).info.scores == tuple(s.total for s in over.outcome().scores)
    assert [b[0] for b in report.broken] == [broken_id]
    assert "action 11" in report.broken[0][1]
    again = restore(store)  # nothing left to finish; the broken table is still set aside
    assert again.finished == [] and [b[0] for b in again.broken] == [broken_id]
    store.close()
