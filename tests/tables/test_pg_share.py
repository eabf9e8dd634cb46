"""Two ``fivetowers serve --share-store`` processes on one PostgreSQL: one is
SIGKILLed mid-game, the other takes its table over (bots play on), and the
player, reconnecting to the survivor, finds their seat where they left it,
with nothing their screen showed lost (issue 15's kill test, the first
slice: each process serves the tables it drives)."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from pathlib import Path

import asyncssh

from fivetowers.tables.pg_store import PgStore
from tests.server.test_kill_server import _script


async def stored_actions(url: str, table_id: int) -> tuple[int, bool]:
    def read() -> tuple[int, bool]:
        with PgStore(url, create=False) as store:
            info = store.load_table(table_id).info
        return info.actions, info.finished is not None
    return await asyncio.to_thread(read)


async def test_a_killed_servers_table_is_taken_over_and_its_player_finds_the_seat(
        postgres_url: str, tmp_path: Path) -> None:
    kill = _script()
    data = tmp_path / "data"
    first, first_port = await kill.start_server(data, 1.0, postgres_url, "--share-store",
                                                "--workers", "1")
    second, second_port = await kill.start_server(data, 1.0, postgres_url, "--share-store",
                                                  "--workers", "1")
    player = kill.Player("p0", asyncssh.generate_private_key("ssh-ed25519"),
                         __import__("random").Random(3))
    try:
        pump = await kill.connect(player, first_port)
        await kill.play(player, time.monotonic() + 4.0)
        first.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        await first.wait()
        assert player.conn is not None
        player.conn.abort()
        await asyncio.gather(pump, return_exceptions=True)
        assert kill.check(player, data, 1, postgres_url) > 0  # it played, and all it saw is kept
        assert player.table_id is not None and player.stored is not None
        kept = len(player.stored)

        # The survivor takes the table over: its bots (and a stand-in for the
        # player, away for a second) play on.
        while True:
            actions, over = await stored_actions(postgres_url, player.table_id)
            if actions > kept or over:
                break
            assert time.monotonic() - killed < 60, "nobody took the killed server's table over"
            await asyncio.sleep(0.2)
        print(f"\nplay resumed {time.monotonic() - killed:.1f} s after the kill", file=sys.stderr)

        pump = await kill.connect(player, second_port)
        assert await kill.wait_for(player, " — your towers", 30), player.text()
        await kill.play(player, time.monotonic() + 2.0)
        player.conn.abort()
        await asyncio.gather(pump, return_exceptions=True)
        assert kill.check(player, data, 2, postgres_url) > 0  # the same table, nothing lost
        assert player.stored is not None and len(player.stored) > kept
    finally:
        for server in (first, second):
            if server.returncode is None:
                server.send_signal(signal.SIGTERM)
        _, log = await asyncio.wait_for(second.communicate(), 60)
        await first.wait()
    text = log.decode()
    assert "took over 1 tables nobody served" in text, text
    assert "Traceback" not in text, text


DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


async def said(server: asyncio.subprocess.Process, needle: str, log: list[str],
               timeout: float) -> bool:
    """Whether the server's log (read on into ``log``) says ``needle`` in time."""
    assert server.stderr is not None
    deadline = time.monotonic() + timeout
    while not any(needle in line for line in log):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        try:
            line = await asyncio.wait_for(server.stderr.readline(), left)
        except asyncio.TimeoutError:
            return False
        if not line:
            return False
        log.append(line.decode())
    return True


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_haproxy_in_front_of_two_servers_fails_a_player_over(
        postgres_url: str, tmp_path: Path) -> None:
    """deploy/haproxy.cfg, run for real: a player plays through it, the
    server they reached is SIGKILLed, and through the same address they reach
    the other one, at their table, nothing lost."""
    import os
    import random
    import shutil

    kill = _script()
    data = tmp_path / "data"
    servers = [await kill.start_server(data, 1.0, postgres_url, "--share-store",
                                       "--workers", "1") for _ in range(2)]
    haproxy_path = shutil.which("haproxy") or "/usr/sbin/haproxy"  # .ci/run installs it
    front = free_port()
    balancer = await asyncio.create_subprocess_exec(
        haproxy_path, "-db", "-f", str(DEPLOY / "haproxy.cfg"),
        env={**os.environ, "FIVETOWERS_LISTEN": f"127.0.0.1:{front}",
             "FIVETOWERS_ONE": f"127.0.0.1:{servers[0][1]}",
             "FIVETOWERS_TWO": f"127.0.0.1:{servers[1][1]}"},
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    player = kill.Player("p0", asyncssh.generate_private_key("ssh-ed25519"), random.Random(5))
    logs: list[list[str]] = [[], []]
    try:
        for _ in range(100):  # until HAProxy listens and has checked a server up
            try:
                pump = await kill.connect(player, front)
                break
            except (OSError, asyncssh.Error):
                await asyncio.sleep(0.2)
        else:
            said_ = (await balancer.stderr.read()).decode() if balancer.returncode is not None \
                and balancer.stderr is not None else "(still running)"
            raise AssertionError(f"HAProxy did not let a player through: {said_}")
        await kill.play(player, time.monotonic() + 4.0)
        reached = [await said(proc, "session of p0", logs[n], 0.5)
                   for n, (proc, _) in enumerate(servers)]
        assert reached.count(True) == 1, logs
        victim, survivor = (0, 1) if reached[0] else (1, 0)
        servers[victim][0].send_signal(signal.SIGKILL)
        await servers[victim][0].wait()
        assert player.conn is not None
        player.conn.abort()
        await asyncio.gather(pump, return_exceptions=True)
        assert kill.check(player, data, 1, postgres_url) > 0
        kept = len(player.stored or [])

        pump = await kill.connect(player, front)  # the same address as before
        assert await kill.wait_for(player, " — your towers", 30), player.text()
        await kill.play(player, time.monotonic() + 2.0)
        player.conn.abort()
        await asyncio.gather(pump, return_exceptions=True)
        assert await said(servers[survivor][0], "session of p0", logs[survivor], 5)
        assert kill.check(player, data, 2, postgres_url) > 0  # its table, nothing lost
        assert len(player.stored or []) >= kept
    finally:
        if balancer.returncode is None:
            balancer.terminate()
        await balancer.communicate()
        for proc, _ in servers:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.communicate(), 60)
