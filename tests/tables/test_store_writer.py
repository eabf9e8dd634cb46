"""The store's writer thread: awaitable calls, group commit, errors per action."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Sequence

import pytest

from fivetowers.games.five_towers.rules.game import Game
from fivetowers.games.five_towers.rules.record import Record
from fivetowers.tables.store import (
    PendingAction, StoreConflict, StoredSeat, StoreError, UnknownTable,
)
from fivetowers.tables.store_writer import StoreWriter
from tests.tables.backends import Backend
from tests.tables.random_play import play_to_end
from tests.tables.kept import kept

SEATS = [StoredSeat("A", "SHA256:a"), StoredSeat("B", bot="random")]


class Gated:
    """Holds its first batch until the test lets it go, and counts batches
    (mixed into either backend's store class by :func:`gated`)."""

    def __init__(self, location: Any) -> None:
        super().__init__(location, durable=False)  # type: ignore[call-arg]
        self.gate = threading.Event()
        self.holding = threading.Event()
        self.batches: list[int] = []

    def append_actions(self, batch: Sequence[PendingAction]) -> list[StoreError | None]:
        self.holding.set()
        self.gate.wait(timeout=30)
        self.batches.append(len(batch))
        result: list[StoreError | None] = super().append_actions(batch)  # type: ignore[misc]
        return result


def gated(backend: Backend) -> Any:
    """A store of ``backend`` that holds its first batch (see :class:`Gated`)."""
    store_class = type(f"Gated{backend.store_class.__name__}", (Gated, backend.store_class), {})
    return store_class(backend.location)


async def queued() -> None:
    """Let every task just created run up to its first await: an append puts its
    job on the writer's queue before it first awaits."""
    for _ in range(3):
        await asyncio.sleep(0)


def games(count: int) -> list[Game]:
    out = []
    for seed in range(count):
        game = Game([s.name for s in SEATS], seed=seed)
        play_to_end(game, seed, limit=30)
        out.append(game)
    return out


async def test_queued_actions_are_committed_together_and_in_order(backend: Backend) -> None:
    store = gated(backend)
    writer = StoreWriter(store)
    played = games(4)
    ids = [await writer.call(store.create_table, code=f"C{i}", name="t", seats=SEATS,
                             kind="fivetowers",
                             setup=Game([s.name for s in SEATS], g.variant, seed=g.seed)
                             .setup_json())
           for i, g in enumerate(played)]

    async def table(table_id: int, game: Game) -> None:
        for index, action in enumerate(game.actions):
            await writer.append(PendingAction(table_id, index, action.to_json()))

    tasks = [asyncio.create_task(table(ids[0], played[0]))]
    assert await asyncio.to_thread(store.holding.wait, 30)  # the first action is held
    tasks += [asyncio.create_task(table(t, g)) for t, g in zip(ids[1:], played[1:])]
    await queued()  # the other tables' first actions wait meanwhile
    store.gate.set()
    await asyncio.gather(*tasks)
    assert store.batches[0] == 1 and store.batches[1] >= 3  # they went together
    assert sum(store.batches) == 4 * 30
    for table_id, game in zip(ids, played):
        stored = await writer.call(store.load_table, table_id)
        assert stored.record["actions"] == [a.to_json() for a in game.actions]
    await writer.close()


async def test_a_refused_action_fails_alone(backend: Backend) -> None:
    store = gated(backend)
    writer = StoreWriter(store)
    [game] = games(1)
    table_id = await writer.call(store.create_table, code="C", name="t", seats=SEATS,
                                 **kept(Game(["A", "B"], seed=0)))
    actions = [a.to_json() for a in game.actions]
    good = asyncio.create_task(writer.append(PendingAction(table_id, 0, actions[0])))
    assert await asyncio.to_thread(store.holding.wait, 30)
    gap = asyncio.create_task(writer.append(PendingAction(table_id, 5, actions[5])))
    nowhere = asyncio.create_task(writer.append(PendingAction(999, 0, actions[0])))
    after = asyncio.create_task(writer.append(PendingAction(table_id, 1, actions[1])))
    await queued()
    store.gate.set()
    await good
    await after
    with pytest.raises(StoreConflict, match="out of order"):
        await gap
    with pytest.raises(UnknownTable):
        await nowhere
    assert store.batches == [1, 3]
    assert (await writer.call(store.load_table, table_id)).info.actions == 2
    await writer.close()


async def test_calls_return_values_and_raise_errors(backend: Backend) -> None:
    writer = StoreWriter(backend.open(durable=False))
    assert await writer.call(writer.store.leaderboard) == []
    with pytest.raises(UnknownTable):
        await writer.call(writer.store.load_table, 1)
    await writer.close()
    with pytest.raises(StoreError, match="closed"):
        await writer.call(writer.store.leaderboard)
