"""``fivetowers serve`` as a user runs it: a real process, stopped with SIGTERM."""

from __future__ import annotations

import asyncio
import re
import signal
import stat
import sys
from pathlib import Path

import asyncssh

from tests.server.server_helpers import Screen

PYTHON = sys.executable


async def _start(data_dir: Path, *extra: str) -> tuple[asyncio.subprocess.Process, int, str]:
    proc = await asyncio.create_subprocess_exec(
        PYTHON, "-m", "fivetowers.cli", "serve", "--port", "0", "--data-dir", str(data_dir),
        *extra, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    banner = ""
    while "Ctrl+C" not in banner:
        line = await asyncio.wait_for(proc.stdout.readline(), 30)
        assert line, f"server ended early: {banner}"
        banner += line.decode()
    port = int(re.search(r"port (\d+)", banner).group(1))  # type: ignore[union-attr]
    fingerprint = re.search(r"fingerprint: (SHA256:\S+)", banner).group(1)  # type: ignore[union-attr]
    return proc, port, fingerprint


async def _open(port: int, name: str) -> tuple[asyncssh.SSHClientConnection, Screen]:
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  agent_path=None,
                                  client_keys=[asyncssh.generate_private_key("ssh-ed25519")])
    screen = await Screen.open(conn)
    await screen.wait_for(f"5 Towers lobby — you are {name}")
    return conn, screen


async def test_serve_runs_keeps_its_host_key_and_stops_cleanly(tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc, port, fingerprint = await _start(data)
    try:
        key_file = data / "ssh_host_ed25519_key"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        # Sessions that end in another order than they started (DESIGN.md trap 2)...
        a, b, c = [await _open(port, name) for name in ("ann", "bob", "cy")]
        b[1].press(b"q")
        await b[1].wait_closed()
        a[1].press(b"q")
        await a[1].wait_closed()
        # ...then a stop while one player is still connected.
        proc.send_signal(signal.SIGTERM)
        await c[1].wait_closed(timeout=20)
        assert "the server is shutting down" in c[1].text
        assert await asyncio.wait_for(proc.wait(), 20) == 0
        for conn, _ in (a, b, c):
            conn.close()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.stderr is not None
    log = (await proc.stderr.read()).decode()
    # The server's own log is intact to the very end.
    for needle in ("session of bob (127.0.0.1) ends", "session of ann (127.0.0.1) ends",
                   "stopping: 1 sessions open", "INFO stopped"):
        assert needle in log, log
    assert "Traceback" not in log
    # The same host key on the next start.
    proc2, _, fingerprint2 = await _start(data)
    proc2.send_signal(signal.SIGINT)
    assert await asyncio.wait_for(proc2.wait(), 20) == 0
    assert fingerprint2 == fingerprint


async def test_serve_bad_options_one_line(tmp_path: Path) -> None:
    for extra, needle in ((["--allow", str(tmp_path / "missing")], "cannot read allowed keys"),
                          (["--port", "70000"], "is not a port"),
                          (["--away", "-1"], "is not a number of seconds"),
                          (["--public-name", "my host"], "is no host name or address")):
        proc = await asyncio.create_subprocess_exec(
            PYTHON, "-m", "fivetowers.cli", "serve", "--data-dir", str(tmp_path / "d"), *extra,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(proc.communicate(), 30)
        assert proc.returncode == 2
        lines = err.decode().strip().splitlines()
        assert len(lines) == 1 and needle in lines[0], err.decode()


async def test_a_game_goes_on_after_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    key = asyncssh.generate_private_key("ssh-ed25519")

    async def session(port: int) -> tuple[asyncssh.SSHClientConnection, Screen]:
        conn = await asyncssh.connect("127.0.0.1", port, username="ann", known_hosts=None,
                                      agent_path=None, client_keys=[key])
        return conn, await Screen.open(conn)

    proc, port, _ = await _start(data)
    try:
        conn, screen = await session(port)
        await screen.wait_for("5 Towers lobby")
        # A table of two seats, one a bot: it starts at once.
        screen.press(b"n")
        await screen.wait_for("New table")
        screen.press(b"kept\t\x7f2\r")  # one read, as a fast typist's keys over a slow link
        await screen.wait_for("ann — your towers")
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 20) == 0
        conn.close()

        proc, port, _ = await _start(data)
        conn, screen = await session(port)
        # The same key goes straight back to its seat in the kept game.
        await screen.wait_for("ann — your towers")
        screen.press(b"q")
        await screen.wait_for("5 Towers lobby")
        await screen.wait_for("kept (yours)")  # the list fills in a frame after the title
        screen.press(b"q")
        await screen.wait_closed()
        conn.close()
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 20) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.stderr is not None
    log = (await proc.stderr.read()).decode()
    assert "restored 1 games from the store" in log, log
