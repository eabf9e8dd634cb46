"""The bus between servers connects again when its connection drops (issue 15):
its PostgreSQL backend is terminated mid-game (as a restart or an operator
would) or PostgreSQL is killed and restarted, a move is made while it is
deaf, and once it listens again every table it serves catches up from the
store: the move made meanwhile and every later one reach the other server's
viewer and driver alike."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from fivetowers.tables.pg_bus import RECONNECTED, Bus
from fivetowers.tables.remote import RemoteTable
from fivetowers.tables.table import Table
from tests.postgres import Postgres
from tests.tables.test_pg_store import kill_postgres
# The Count game registered, and servers A and B, as test_pg_remote's tests have them.
from tests.tables.test_pg_remote import Servers, registered, servers, until  # noqa: F401


class Gate:
    """Holds a bus's attempts to connect again until opened (the window in
    which a move is made while the bus is deaf)."""

    def __init__(self, bus: Bus, monkeypatch: pytest.MonkeyPatch) -> None:
        self.open = asyncio.Event()
        self.attempts = 0
        connect = bus._connect

        async def gated() -> psycopg.AsyncConnection[object]:
            self.attempts += 1
            await self.open.wait()
            return await connect()
        monkeypatch.setattr(bus, "_connect", gated)


def terminate(url: str, bus: Bus) -> None:
    """End the bus's backend as ``pg_terminate_backend`` does for an operator."""
    with psycopg.connect(url, autocommit=True) as conn:
        done = conn.execute("SELECT pg_terminate_backend(%s)", (bus.backend_pid,)).fetchone()
    assert done == (True,)


async def test_a_viewers_bus_cut_mid_game_reconnects_and_misses_no_move(
        servers: Servers, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, table, driving = servers.open_table()
    remote = await RemoteTable.load(servers.store_b, table_id)
    servers.bus_b.listen(remote.heard)
    await table.submit(0, 1)
    await until(lambda: remote.game.action_count() == 1, "B sees ann's move")

    gate = Gate(servers.bus_b, monkeypatch)
    terminate(servers.url, servers.bus_b)
    await until(lambda: gate.attempts > 0, "B's bus notices and tries again")
    assert not servers.bus_b.listening.is_set()
    await table.submit(1, 2)  # announced while B is deaf: B hears nothing of it
    await asyncio.sleep(0)
    assert remote.game.action_count() == 1

    gate.open.set()
    await until(lambda: remote.game.action_count() == 2, "B catches up once it listens")
    assert servers.bus_b.reconnects == 1 and RECONNECTED in servers.heard_b

    await table.submit(0, 3)  # made afterwards: reaches B on the bus again
    await until(lambda: remote.game.action_count() == 3, "B sees the later move")
    await remote.submit(1, 1)  # and B's own moves still reach A
    await until(lambda: table.game.action_count() == 4, "A sees bo's move")
    assert remote.game.record_json() == table.game.record_json()


async def test_a_drivers_bus_cut_catches_up_with_moves_made_elsewhere(
        servers: Servers, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, table, driving = servers.open_table()
    remote = await RemoteTable.load(servers.store_b, table_id)
    await table.submit(0, 1)
    await remote.catch_up()

    gate = Gate(servers.bus_a, monkeypatch)
    terminate(servers.url, servers.bus_a)
    await until(lambda: gate.attempts > 0, "A's bus notices and tries again")
    await remote.submit(1, 3)  # bo moves through B while A is deaf
    await asyncio.sleep(0)
    assert table.game.action_count() == 1

    gate.open.set()
    await until(lambda: table.game.action_count() == 2, "A adopts bo's move")
    await remote.submit(0, 2)  # and a later one reaches A on the bus
    await until(lambda: table.game.action_count() == 3, "A sees the next move")


async def test_the_bus_keeps_trying_until_the_database_answers(
        servers: Servers, monkeypatch: pytest.MonkeyPatch) -> None:
    bus = servers.bus_b
    bus.retry_first, bus.retry_max = 0.01, 0.04
    tried: list[float] = []
    connect = bus._connect

    async def failing() -> psycopg.AsyncConnection[object]:
        tried.append(asyncio.get_running_loop().time())
        if len(tried) < 4:  # the database is still restarting
            raise psycopg.OperationalError("connection refused")
        return await connect()
    monkeypatch.setattr(bus, "_connect", failing)
    terminate(servers.url, bus)
    await until(lambda: bus.reconnects == 1, "the bus listens again")
    gaps = [b - a for a, b in zip(tried, tried[1:])]
    assert len(tried) == 4 and gaps[-1] >= 0.035  # waited longer each time, up to the cap


async def test_both_buses_listen_again_after_postgresql_is_killed_and_restarted() -> None:
    own = Postgres()  # a server of its own: the session's goes on serving the others
    both = Servers(own.new_database())
    try:
        await both.start()
        for bus in (both.bus_a, both.bus_b):
            bus.retry_max = 0.2  # the test waits for the restart, not for the backoff
        table_id, table, driving = both.open_table()
        remote = await RemoteTable.load(both.store_b, table_id)
        both.bus_b.listen(remote.heard)
        await table.submit(0, 1)
        await until(lambda: remote.game.action_count() == 1, "B sees ann's move")

        await asyncio.to_thread(kill_postgres, own)
        await until(lambda: not both.bus_a.listening.is_set()
                    and not both.bus_b.listening.is_set(), "both buses notice")
        await asyncio.to_thread(own.server.ensure_postgres_running)
        await until(lambda: both.bus_a.reconnects == 1 and both.bus_b.reconnects == 1,
                    "both buses listen again")

        await submit_after_restart(table, 1, 2)  # the bus carries it
        await until(lambda: remote.game.action_count() == 2, "B sees the move after")
        await submit_after_restart(remote, 0, 3)
        await until(lambda: table.game.action_count() == 3, "A sees B's move after")
    finally:
        await both.close()
        own.stop()


async def submit_after_restart(table: Table | RemoteTable, seat: int, action: int) -> None:
    """The store's idle connection, dropped by the restart, is found dead
    by the write's BEGIN (or already by a catch-up read): the store begins
    again on a fresh connection and the move is kept at once."""
    before = table.game.action_count()
    await table.submit(seat, action)
    assert table.game.action_count() == before + 1
