"""A newcomer without a key is told how to make one, and still refused."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import asyncssh
import pytest

from tests.server.server_helpers import StartServer, connect


class _Newcomer(asyncssh.SSHClient):
    """A client with no key that answers keyboard-interactive (with a guess)."""

    def __init__(self) -> None:
        self.banners: list[str] = []
        self.challenges = 0

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name: str, instructions: str, lang: str,
                                  prompts: object) -> list[str]:
        self.challenges += 1
        return ["hunter2"]


async def test_a_client_without_a_key_reads_how_to_make_one(start_server: StartServer) -> None:
    server = await start_server()
    clients: list[_Newcomer] = []

    def factory() -> _Newcomer:
        clients.append(_Newcomer())
        return clients[-1]

    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect("127.0.0.1", server.port, username="newbie", known_hosts=None,
                               client_factory=factory, client_keys=[], agent_path=None)
    banner = "".join(clients[0].banners)
    assert "ssh-keygen -t ed25519" in banner
    assert f"ssh -t -p {server.port} HOST" in banner
    assert clients[0].challenges == 0  # nothing to answer: no password is taken


async def test_a_keyed_player_gets_no_banner(start_server: StartServer) -> None:
    server = await start_server()
    seen: list[_Newcomer] = []

    def factory() -> _Newcomer:
        seen.append(_Newcomer())
        return seen[-1]

    async with await connect(server, client_factory=factory):
        pass
    assert seen[0].banners == []


async def test_openssh_without_a_key_prints_the_help(start_server: StartServer,
                                                    tmp_path: Path) -> None:
    server = await start_server()
    home = tmp_path / "home"
    home.mkdir()
    proc = await asyncio.create_subprocess_exec(
        "ssh", "-F", "/dev/null", "-p", str(server.port), "-o", "PubkeyAuthentication=no",
        "-o", "PasswordAuthentication=no", "-o", "StrictHostKeyChecking=no",
        "-o", "UserKnownHostsFile=/dev/null", "newbie@127.0.0.1",
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env={**os.environ, "HOME": str(home)})
    out, err = await asyncio.wait_for(proc.communicate(), 20)
    text = err.decode()
    assert proc.returncode == 255
    assert "ssh-keygen -t ed25519" in text
    assert "Permission denied" in text
    assert text.count("ssh-keygen") == 1  # said once, not per attempt
