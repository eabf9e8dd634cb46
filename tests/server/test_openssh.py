"""The system OpenSSH client, in a tmux pane, against a real server (loopback only)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import asyncssh

from fivetowers.server.serve import GameServer

from tests.server.server_helpers import StartServer

class Tmux:
    """A private tmux server (its own socket) holding one pane."""

    def __init__(self, tmp_path: Path) -> None:
        self.socket = str(tmp_path / "tmux.sock")

    async def run(self, *args: str, check: bool = True) -> str:
        proc = await asyncio.create_subprocess_exec(
            "tmux", "-S", self.socket, *args, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env={**os.environ, "TERM": "xterm-256color"})
        out, err = await proc.communicate()
        if check and proc.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)}: {err.decode().strip()}")
        return out.decode()

    async def screen(self) -> str:
        return await self.run("capture-pane", "-p", "-t", "game")

    async def wait_for(self, needle: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = await self.screen()
            if needle in text:
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} never appeared; pane:\n{text}")
            await asyncio.sleep(0.1)


async def test_openssh_client_plays_in_tmux(start_server: StartServer, tmp_path: Path) -> None:
    server = await start_server()
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = tmp_path / "id_ed25519"
    key.write_private_key(str(key_file))
    key_file.chmod(0o600)
    ssh = ("ssh -F /dev/null -t -p {port} -i {key} -o IdentitiesOnly=yes -o BatchMode=yes "
           "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR "
           "jonas@127.0.0.1; sleep 5").format(port=server.port, key=key_file)
    tmux = Tmux(tmp_path)
    await tmux.run("new-session", "-d", "-s", "game", "-x", "100", "-y", "30", ssh)
    try:
        text = await tmux.wait_for("Welcome, jonas.")
        assert key.get_fingerprint("sha256") in text.replace("\n", "").replace(" ", "")
        assert "terminal 100x30" in text
        await tmux.run("resize-window", "-t", "game", "-x", "120", "-y", "40")
        await tmux.wait_for("terminal 120x40")
        await tmux.run("send-keys", "-t", "game", "q")
        # Back at the shell side of the pane: the alternate screen is gone.
        deadline = time.monotonic() + 15
        while "Welcome" in await tmux.screen():
            assert time.monotonic() < deadline, await tmux.screen()
            await asyncio.sleep(0.1)
        assert await _drained(server)
    finally:
        await tmux.run("kill-server", check=False)


async def _drained(server: GameServer) -> bool:
    for _ in range(50):
        if not server.sessions:
            return True
        await asyncio.sleep(0.05)
    return False
