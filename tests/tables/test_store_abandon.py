"""A game nobody came back to: the lobby closes its table and the store keeps
the game as abandoned (ended where it stopped, unscored, never served again)."""

from __future__ import annotations

import pytest

from fivetowers.tables.store import StoreConflict, UnknownTable
from tests.tables.backends import Backend
from tests.tables.test_store import new_table, play


def test_an_abandoned_game_ends_unscored_and_is_not_served_again(backend: Backend) -> None:
    store = backend.open(clock=lambda: 5000.0)
    table_id, game = new_table(store, "ABAND")
    play(store, table_id, game, seed=3, count=12)
    assert store.abandon_table(table_id)
    assert not store.abandon_table(table_id)  # once
    (info,) = store.games_of("SHA256:hedda")
    assert (info.finished, info.scores, info.winners, info.actions) == (5000.0, None, None, 12)
    assert store.unfinished_tables() == []
    assert len(store.load_table(table_id).record["actions"]) == 12  # still replayable
    assert store.leaderboard() == []
    with pytest.raises(StoreConflict):  # it takes no more moves
        play(store, table_id, game, seed=3, count=1)
    new_table(store, "ABAND")  # its code is free again
    with pytest.raises(UnknownTable):
        store.abandon_table(999)
    store.close()
