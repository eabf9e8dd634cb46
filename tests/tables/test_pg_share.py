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
