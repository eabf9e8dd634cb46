"""Hardening: who may log in, what a connection may ask for, and the limits."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from textual.app import App

from fivetowers.server.placeholder import PlaceholderLobbyApp
from fivetowers.server.session import Visitor

from tests.server.server_helpers import LogCapture, Screen, StartServer, connect


async def test_forbidden_channels_and_requests_are_refused(
        start_server: StartServer, tmp_path: Path) -> None:
    server = await start_server()
    async with await connect(server) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", server.port)  # -L style forwarding
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", server.port)  # -R
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.start_sftp_client()
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process(subsystem="netconf")
        xauth = tmp_path / "xauth"
        xauth.write_bytes(b"")
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process(term_type="xterm", x11_forwarding=True,
                                      x11_display="127.0.0.1:0", x11_auth_path=str(xauth))
    async with await connect(server) as conn:
        # The one game session a connection may have works...
        screen = await Screen.open(conn)
        await screen.wait_for("Welcome")
        # ...and a second one on the same connection is refused.
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process(term_type="xterm")
        screen.press(b"q")
        await screen.wait_closed()


async def _empty_agent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """An ssh-agent holding no keys: every request gets "no identities"."""
    try:
        while True:
            length = int.from_bytes(await reader.readexactly(4), "big")
            await reader.readexactly(length)
            writer.write((5).to_bytes(4, "big") + bytes([12]) + (0).to_bytes(4, "big"))
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        writer.close()


async def test_agent_forwarding_is_refused(start_server: StartServer, tmp_path: Path) -> None:
    server = await start_server()
    sock = str(tmp_path / "agent.sock")
    agent = await asyncio.start_unix_server(_empty_agent, sock)
    async with agent:
        async with await connect(server, agent_path=sock, agent_forwarding=True) as conn:
            screen = await Screen.open(conn)
            await screen.wait_for("Welcome")
            (session,) = server.sessions
            # The client asked (without waiting for an answer); nothing was set up.
            assert session.process.channel.get_agent_path() is None
            screen.press(b"q")
            await screen.wait_closed()


def _allow(path: Path, *keys: asyncssh.SSHKey) -> Path:
    path.write_text("".join(k.export_public_key().decode() for k in keys))
    return path


async def test_allow_file_makes_a_private_server(start_server: StartServer,
                                                 tmp_path: Path) -> None:
    friend, stranger = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    server = await start_server(allow_file=_allow(tmp_path / "allowed", friend))
    async with await connect(server, friend) as conn:
        screen = await Screen.open(conn)
        await screen.wait_for("Welcome")
        screen.press(b"q")
        await screen.wait_closed()
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server, stranger)


async def test_password_refused_unless_the_server_has_one(start_server: StartServer) -> None:
    server = await start_server()
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server, client_keys=[], password="guess")


async def test_password_login_when_set(start_server: StartServer) -> None:
    seen: list[Visitor] = []

    def factory(visitor: Visitor) -> App[Any]:
        seen.append(visitor)
        return PlaceholderLobbyApp(visitor)

    server = await start_server(factory, password="s3cret")
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server, client_keys=[], password="wrong", username="mallory")
    async with await connect(server, client_keys=[], password="s3cret", username="anni") as conn:
        screen = await Screen.open(conn)
        await screen.wait_for("Welcome, anni.")
        screen.press(b"q")
        await screen.wait_closed()
    assert seen[0].identity == "password:anni"


async def test_too_many_auth_attempts_disconnect(start_server: StartServer, tmp_path: Path,
                                                 server_log: LogCapture) -> None:
    friend = asyncssh.generate_private_key("ssh-ed25519")
    strangers = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(6)]
    server = await start_server(allow_file=_allow(tmp_path / "allowed", friend),
                                max_auth_attempts=3)
    with pytest.raises((asyncssh.DisconnectError, asyncssh.PermissionDenied)):
        await connect(server, client_keys=strangers + [friend])
    assert "3 failed authentication attempts" in server_log.text


async def test_connections_per_address_are_limited(start_server: StartServer) -> None:
    server = await start_server(max_sessions_per_address=2)
    first, second = await connect(server), await connect(server)
    with pytest.raises(asyncssh.DisconnectError, match="too many connections"):
        third = await connect(server)
        await third.run("join ABC", term_type="xterm")
    first.close()
    await first.wait_closed()
    for _ in range(500):  # the server frees the place when it sees the close
        if server._per_address["127.0.0.1"] < 2:
            break
        await asyncio.sleep(0.02)
    async with await connect(server) as again:  # a freed place can be taken
        assert again is not None
    second.close()
    await second.wait_closed()


async def test_total_sessions_are_limited(start_server: StartServer) -> None:
    server = await start_server(max_sessions=1)
    async with await connect(server):
        with pytest.raises(asyncssh.DisconnectError, match="server is full"):
            other = await connect(server)
            await other.run("join ABC", term_type="xterm")
