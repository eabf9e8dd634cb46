"""Two servers on one PostgreSQL store at one table (issue 15's "many processes,
one lobby", its first slice): server A drives the table, server B lists it,
seats a player who moves through the store, and both see every move and
every chat line through LISTEN/NOTIFY; a stale move is refused or retried
against the new state, never kept twice or lost.

Each server is its own store connection and bus connection, as a process of
its own would be: PostgreSQL sees two servers. The game is the tests' tiny
*Count* (any registered game plays through the same path).
"""

from __future__ import annotations

import asyncio
import time
import json
import sys
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Iterator

import pytest

from fivetowers.games import game_kind, register, unregister
from fivetowers.games.protocol import ActionRefused, Match
from fivetowers.tables.pg_bus import Bus
from fivetowers.tables.pg_store import PgStore
from fivetowers.tables.remote import Driving, RemoteTable, chat_payload, replayed
from fivetowers.tables.seats import Seat
from fivetowers.tables.store import PendingAction, StoredSeat
from fivetowers.tables.table import NotYourSeat, Table
from tests.tables.test_dummy_game import COUNT


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    register(COUNT)
    yield
    unregister(COUNT.name)


async def until(check: Callable[[], bool], what: str, seconds: float = 30.0) -> None:
    """Wait for the bus to bring a change (a hang would fail, not pass); a
    loaded machine may take seconds, so the wait is long and ends early."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.01)


class Servers:
    """Server A (drives the table) and server B (a remote view of it)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.store_a = PgStore(url, shared=True)
        self.store_b = PgStore(url, shared=True)
        self.bus_a, self.bus_b = Bus(url), Bus(url)
        self.heard_b: list[str] = []

    async def start(self) -> None:
        await self.bus_a.start()
        await self.bus_b.start()
        self.bus_b.listen(self.heard_b.append)

    def open_table(self) -> tuple[int, Table[Match], Driving]:
        kind = game_kind(COUNT.name)
        match = kind.new_match(["ann", "bo"], {}, 7)
        table_id = self.store_a.create_table(
            code="abcd", name="ann's table", kind=kind.name, setup=match.setup_json(),
            seats=[StoredSeat("ann", "fp-ann"), StoredSeat("bo", "fp-bo")])
        store = self.store_a

        def keep(game: Match) -> None:  # the driver keeps its own players' moves
            item = PendingAction.last_of(table_id, game)
            store.append_action(item.table_id, item.index, item.action, item.setup)

        table: Table[Match] = Table(match, [Seat("ann", identity="fp-ann"),
                                            Seat("bo", identity="fp-bo")],
                                    kind=kind, on_action=keep)
        driving = Driving(self.store_a)
        driving.drive(table_id, table)
        self.bus_a.listen(driving.heard)
        return table_id, table, driving

    async def close(self) -> None:
        await self.bus_a.close()
        await self.bus_b.close()
        self.store_a.close()
        self.store_b.close()


@pytest.fixture
async def servers(postgres_url: str) -> AsyncIterator[Servers]:
    both = Servers(postgres_url)
    await both.start()
    yield both
    await both.close()


def said(game: Match) -> list[Any]:
    return list(game.record_json()["actions"])


async def test_a_table_made_on_a_is_listed_on_b_and_played_from_both(servers: Servers) -> None:
    table_id, table, driving = servers.open_table()
    assert [t.id for t in servers.store_b.live_tables()] == [table_id]
    assert servers.store_b.live_tables()[0].seats[1].name == "bo"
    await until(lambda: "tables" in servers.heard_b, "B hears of the new table")

    remote = await RemoteTable.load(servers.store_b, table_id)
    servers.bus_b.listen(remote.heard)
    seen_on_a: list[int] = []
    table.subscribe(lambda event: seen_on_a.append(event.version))

    # ann (on A) and bo (on B) alternate until the game is over.
    while not table.over:
        count = table.game.action_count()
        if table.game.to_move == 0:
            await table.submit(0, 1)
            await until(lambda: remote.game.action_count() == count + 1, "B sees ann's move")
        else:
            await remote.submit(1, 2)
            await until(lambda: table.game.action_count() == count + 1, "A sees bo's move")
    await until(lambda: remote.game.is_terminal(), "B sees the end")
    assert said(table.game) == said(remote.game) == said(_replayed(servers.store_a, table_id))
    assert seen_on_a  # A's screens were told of bo's moves

    # A player seated through B may not move for A's seat.
    with pytest.raises(ActionRefused):
        await remote.submit(0, 1)


def _replayed(store: PgStore, table_id: int) -> Match:
    return replayed(store.load_table(table_id))


async def test_chat_crosses_servers_cleaned(servers: Servers) -> None:
    table_id, table, driving = servers.open_table()
    remote = await RemoteTable.load(servers.store_b, table_id)
    servers.bus_b.listen(remote.heard)

    await remote.say("bo", "hello \x1b[31mann")
    await until(lambda: bool(driving.chat[table_id]), "A hears bo")
    line = driving.chat[table_id][0]
    assert line.name == "bo" and "\x1b" not in line.text and "hello" in line.text

    await asyncio.to_thread(servers.store_a.announce, chat_payload(table_id, "ann", "hi bo"))
    await until(lambda: any(c.text == "hi bo" for c in remote.chat), "B hears ann")


async def test_a_stale_move_is_refused_and_the_right_one_wins(servers: Servers) -> None:
    table_id, table, driving = servers.open_table()
    stale = await RemoteTable.load(servers.store_b, table_id)  # not listening: falls behind
    await table.submit(0, 3)  # ann's move lands first
    assert stale.game.action_count() == 0  # B's copy still thinks it is seat 0's turn

    with pytest.raises(NotYourSeat):  # checked again after catching up: bo's turn now
        await stale.submit(0, 1)
    assert said(_replayed(servers.store_a, table_id)) == said(table.game)  # ann's 3 only
    assert table.game.action_count() == 1
    assert stale.game.action_count() == 1


async def test_a_stale_move_still_legal_is_retried_against_the_new_state(
        servers: Servers) -> None:
    table_id, table, driving = servers.open_table()
    remote = await RemoteTable.load(servers.store_b, table_id)  # behind by two moves below
    await table.submit(0, 1)
    await table.submit(1, 1)
    # Seat 0 is to move both in B's stale copy and in the store: the move is
    # refused as stale, checked against the new state, appended again.
    await remote.submit(0, 2)
    kept = _replayed(servers.store_a, table_id)
    assert kept.action_count() == 3 and remote.game.action_count() == 3
    assert said(kept)[-1] == said(remote.game)[-1]
    await until(lambda: table.game.action_count() == 3, "A adopts the retried move")
    assert said(table.game) == said(kept)


async def test_two_processes_play_a_game_to_its_end_and_chat(postgres_url: str) -> None:
    """Server A is a process of its own (tests/tables/pg_driver_process.py)."""
    driver = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.tables.pg_driver_process", postgres_url,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        cwd=Path(__file__).parents[2])
    assert driver.stdin is not None and driver.stdout is not None
    store = PgStore(postgres_url, shared=True)
    bus = Bus(postgres_url)
    try:
        table_id = int(await asyncio.wait_for(driver.stdout.readline(), 60))
        assert [t.id for t in store.live_tables()] == [table_id]  # A's table, listed on B
        await bus.start()
        remote = await RemoteTable.load(store, table_id)
        bus.listen(remote.heard)
        await remote.say("bo", "hi ann")
        driver.stdin.write(b"ready\n")
        await driver.stdin.drain()
        while not remote.game.is_terminal():
            count = remote.game.action_count()
            await until(lambda: remote.game.action_count() > count or remote.game.to_move == 1,
                        "ann's move reaches B")
            if remote.game.to_move == 1:
                await remote.submit(1, 2)
        actions = json.loads(await asyncio.wait_for(driver.stdout.readline(), 60))
        assert actions == said(remote.game) == said(_replayed(store, table_id))
        assert {"say": 2} in actions and {"say": 1} in actions  # both players moved
        await until(lambda: any(c.text == "echo: hi ann" for c in remote.chat),
                    "A's answer to B's chat line")
        assert await asyncio.wait_for(driver.wait(), 30) == 0
    finally:
        if driver.returncode is None:
            driver.kill()
            await driver.wait()
        await bus.close()
        store.close()
