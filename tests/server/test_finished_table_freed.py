"""A finished game that leaves the lobby dies by reference counting: the
server freezes what lives for its collector (server/collector.py), so a
cycle through a table that was alive when frozen would be kept until the
reclaim, at most every half hour (each game some 200 KiB: its record,
log, views; a load test of 100 sessions left ten a minute)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path

import pytest

from fivetowers.games.five_towers.rules import Variant
from fivetowers.lobby.model import Lobby
from fivetowers.tables.seats import Seat
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import STORE_FILE
from fivetowers.tables.table import Table, TableClosed
from tests.server.history_helpers import play


async def test_a_finished_table_nobody_looks_at_dies_without_a_collection(
        tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / STORE_FILE)
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=0.0, hints=False,
                  store=store)  # a store: each move is kept through the table's hook
    try:
        hosted = lobby.create("key-ann", "ann", title="quick", players=2, bots=1,
                              private=False)
        lobby.away(hosted, "key-ann")  # a stand-in plays for ann
        for _ in range(600):
            if hosted.over and hosted.table_id is not None:
                break
            await asyncio.sleep(0.05)
        assert hosted.over, "the bots did not finish the game"
        assert hosted.table is not None
        await hosted.table.wait_idle()
        lobby.watch(hosted)  # someone looks at the end, then goes
        table, code = weakref.ref(hosted.table), hosted.code
        gone = weakref.ref(hosted)
        gc.collect()
        gc.disable()
        try:
            lobby.unwatch(hosted)
            del hosted
            for _ in range(100):  # the table closes in a task of its own
                if gone() is None and table() is None:
                    break
                await asyncio.sleep(0.02)
            assert lobby.find(code) is None
            assert gone() is None and table() is None, \
                "the finished table waits for a collection"
        finally:
            gc.enable()
    finally:
        assert lobby.writer is not None
        await lobby.writer.close()
        store.close()


async def test_a_closed_table_makes_no_more_moves() -> None:
    """Closing lets go of the table's hook: a move after it is refused, not
    made without being kept."""
    kept: list[int] = []

    async def keep(game: object) -> None:
        kept.append(1)

    seats = [Seat("ann", identity="a", connected=True), Seat("bo", identity="b", connected=True)]
    game = play([s.name for s in seats], Variant.BASE, seed=3, actions=4)
    table = Table(game, seats, on_action=keep)
    seat = game.to_move
    action = game.legal_actions()[0]
    await table.close()
    with pytest.raises(TableClosed, match="closed"):
        await table.submit(seat, action)
    assert kept == [] and table.game.action_count() == 4
