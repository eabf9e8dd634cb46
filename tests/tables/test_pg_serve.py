"""``fivetowers serve --store postgresql://…`` end to end: SSH players play,
the server is SIGKILLed again and again, and every screen they saw is in the
PostgreSQL store (issue 7's kill test, scripts/kill_server.py, on PostgreSQL)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any
from pathlib import Path

from tests.server.test_kill_server import ROOT, SCRIPT

KILLS = 3


def test_sigkilled_server_on_postgresql_loses_nothing_a_client_saw(
        postgres_url: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--kills", str(KILLS), "--seed", "11",
         "--data-dir", str(tmp_path / "data"), "--store", postgres_url],
        capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert done.returncode == 0, done.stderr + done.stdout
    assert f"kill_server: {KILLS} SIGKILLs, {KILLS} restarts" in done.stdout, done.stdout
    assert " 0 actions kept at the end" not in done.stdout  # they played
    # The SQLite store was never used: the host key is all the data directory holds.
    assert not (tmp_path / "data" / "fivetowers.sqlite3").exists()


async def test_postgresql_killed_under_play_refuses_moves_then_play_resumes(
        tmp_path: Path) -> None:
    """``kill -9`` of PostgreSQL itself under a playing SSH client: moves are
    refused with the usual line while it is down, nothing any screen showed
    is lost, and play resumes once it is back (the store connects again)."""
    import asyncio
    import random
    import signal
    import time

    import asyncssh

    from fivetowers.tables.pg_store import PgStore
    from tests.postgres import Postgres
    from tests.server.test_kill_server import _script
    from tests.tables.test_pg_store import kill_postgres

    kill = _script()
    own = Postgres()  # a server of its own to kill
    try:
        url = own.new_database()
        data = tmp_path / "data"
        server, port = await kill.start_server(data, 3600, url, "--workers", "1")
        player = kill.Player("p0", asyncssh.generate_private_key("ssh-ed25519"),
                             random.Random(9))
        try:
            pump = await kill.connect(player, port)

            async def play_until_kept(more_than: int) -> Any:
                """Play until the store holds more than ``more_than`` of the
                player's actions (however slow the machine is): the game."""
                begun = time.monotonic()
                while True:
                    await kill.play(player, time.monotonic() + 1.0)
                    with PgStore(url, create=False) as store:
                        games = store.games_of(player.fingerprint)
                    assert len(games) <= 1
                    if games and games[0].actions > more_than:
                        return games[0]
                    assert time.monotonic() - begun < 90, player.text()

            mine = await play_until_kept(0)
            kill_postgres(own)
            down = time.monotonic()
            while "cannot save moves right now" not in player.text():
                assert time.monotonic() - down < 60, player.text()
                await kill.play(player, time.monotonic() + 1.0)
            await asyncio.to_thread(own.server.ensure_postgres_running)
            await play_until_kept(mine.actions)
            assert player.conn is not None
            player.conn.abort()
            await asyncio.gather(pump, return_exceptions=True)
        finally:
            server.send_signal(signal.SIGTERM)
            _, log = await asyncio.wait_for(server.communicate(), 60)
        assert kill.check(player, data, 1, url) > 0  # every screen is in the store
        assert player.table_id == mine.id and len(player.stored or []) > mine.actions
        text = log.decode()
        assert "moves are refused until it can write again" in text, text
        assert "the store writes again" in text and "Traceback" not in text, text
    finally:
        own.stop()
