"""The driving server's own moves race other servers' (issue 15: "a second
process's stale move is refused and retried against the new state, never
lost or applied twice"): server B keeps a move at a table server A drives
before A has heard of it, then A's player or bot moves on A's stale copy.
The store refuses A's move as stale, A's table catches up from the store and
checks the move again: kept if still allowed, else refused in the game's
words (a bot thinks again). A's bus is left deaf so the race always happens.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any, AsyncIterator, Iterator

import pytest

from fivetowers.games import game_kind, register, unregister
from fivetowers.games.protocol import Bot, Match
from fivetowers.tables.pg_store import PgStore
from fivetowers.tables.remote import Driving, RemoteTable, replayed
from fivetowers.tables.seats import Seat
from fivetowers.tables.store import PendingAction, StaleAction, StoredSeat
from fivetowers.tables.table import STALE_RETRIES, NotYourSeat, Table, TableEvent, TooLate
from fivetowers.tables.workers import Move
from tests.tables.test_dummy_game import COUNT, Cautious


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    register(COUNT)
    yield
    unregister(COUNT.name)


class GatedWorkers:
    """Bots think here until the test opens the gate (the race's window)."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.asked = 0

    async def choose(self, bot: Bot, view: Any, rng: random.Random, **_: Any) -> Move:
        self.asked += 1
        await self.gate.wait()
        return Move(bot.choose(view, rng), "thought")


class Race:
    """Server A drives a *Count* table (ann seated there; bo's seat played by
    a stand-in bot when asked); server B has a copy of it."""

    def __init__(self, url: str) -> None:
        self.store_a = PgStore(url, shared=True)
        self.store_b = PgStore(url, shared=True)
        self.workers = GatedWorkers()
        self.events: list[TableEvent] = []

    async def open(self, *, bot: bool = False) -> tuple[Table[Match], RemoteTable]:
        kind = game_kind(COUNT.name)
        match = kind.new_match(["ann", "bo"], {}, 7)
        table_id = self.store_a.create_table(
            code="race", name="ann's table", kind=kind.name, setup=match.setup_json(),
            seats=[StoredSeat("ann", "fp-ann"), StoredSeat("bo", "fp-bo")])
        store = self.store_a

        async def keep(game: Match) -> None:  # as the lobby's writer: off the loop
            item = PendingAction.last_of(table_id, game)
            await asyncio.to_thread(store.append_action, item.table_id, item.index,
                                    item.action, item.setup)

        table: Table[Match] = Table(
            match, [Seat("ann", identity="fp-ann"), Seat("bo", identity="fp-bo")], kind=kind,
            on_action=keep, bot_delay=0, bots={1: Cautious()} if bot else None,
            workers=self.workers)  # type: ignore[arg-type]
        Driving(self.store_a).drive(table_id, table)  # not on a bus: A hears nothing
        table.subscribe(self.events.append)
        return table, await RemoteTable.load(self.store_b, table_id)

    def close(self) -> None:
        self.store_a.close()
        self.store_b.close()


@pytest.fixture
async def race(postgres_url: str) -> AsyncIterator[Race]:
    both = Race(postgres_url)
    yield both
    both.close()


def said(game: Match) -> list[Any]:
    return list(game.record_json()["actions"])


def in_store(race: Race, remote: RemoteTable) -> list[Any]:
    return said(replayed(race.store_b.load_table(remote.id)))


async def test_a_drivers_stale_move_still_allowed_is_kept_after_the_remote_one(
        race: Race) -> None:
    table, remote = await race.open()
    await remote.submit(0, 1)  # B keeps two moves A has not heard of
    await remote.submit(1, 1)
    assert table.game.action_count() == 0

    await table.submit(0, 2)  # ann's turn on A's copy and in the store alike

    assert in_store(race, remote) == [{"say": 1}, {"say": 1}, {"say": 2}]
    assert said(table.game) == in_store(race, remote)  # nothing lost, nothing twice
    assert not table.cannot_save  # a race is not a store failure
    assert race.events[-1].version == table.version


async def test_a_drivers_stale_move_no_longer_allowed_is_refused_with_the_reason(
        race: Race) -> None:
    table, remote = await race.open()
    await remote.submit(0, 1)  # ann moved through B (another session of hers)

    with pytest.raises(NotYourSeat, match="your own seat"):
        await table.submit(0, 3)  # her stale move on A: bo's turn now

    assert in_store(race, remote) == [{"say": 1}]
    assert said(table.game) == [{"say": 1}]  # A caught up ...
    assert race.events and race.events[-1].version == table.version  # ... and showed it
    assert not table.cannot_save


async def test_a_drivers_bot_racing_a_remote_move_thinks_again(race: Race) -> None:
    table, remote = await race.open(bot=True)  # bo away on A: a stand-in plays seat 1
    await table.submit(0, 1)
    await asyncio.wait_for(_asked(race.workers, 1), 10)  # the bot is thinking ...
    await remote.catch_up()
    await remote.submit(1, 3)  # ... when bo, back through B, moves first

    race.workers.gate.set()
    await asyncio.wait_for(table.wait_idle(), 10)
    assert table.bot_error is None
    assert in_store(race, remote) == [{"say": 1}, {"say": 3}]  # the bot's 1 refused
    assert said(table.game) == in_store(race, remote)

    await table.submit(0, 2)  # the bot plays on from the new state
    await asyncio.wait_for(table.wait_idle(), 10)
    assert in_store(race, remote) == [{"say": 1}, {"say": 3}, {"say": 2}, {"say": 1}]
    assert said(table.game) == in_store(race, remote) and table.bot_error is None


async def _asked(workers: GatedWorkers, times: int) -> None:
    while workers.asked < times:
        await asyncio.sleep(0.01)


async def test_a_move_overtaken_every_time_is_given_up_with_a_clear_reason() -> None:
    """Another server keeps a move each time this one is tried (no store
    needed to force it): after STALE_RETRIES tries the player is told."""
    kind = game_kind(COUNT.name)
    store_game = kind.new_match(["ann", "bo"], {"target": "15"}, 7)  # not over in 5 tries
    tries = 0

    def overtaken(game: Match) -> None:
        nonlocal tries
        tries += 1
        store_game.apply(1)  # two more moves land elsewhere first: seat 0's turn again
        store_game.apply(1)
        raise StaleAction(f"action {game.action_count() - 1} is out of order")

    async def reload_game() -> Match:
        return store_game.clone()

    table: Table[Match] = Table(kind.new_match(["ann", "bo"], {"target": "15"}, 7),
                                [Seat("ann"), Seat("bo")], kind=kind, on_action=overtaken)
    table.reload_game = reload_game
    with pytest.raises(TooLate, match="try your move again"):
        await table.submit(0, 1)
    assert tries == STALE_RETRIES
    assert said(table.game) == said(store_game)  # caught up all the same
    assert not table.cannot_save
