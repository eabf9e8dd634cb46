"""Issue 18, item 3: idle connections that never log in must not lock players out.

Linux loopback accepts any 127/8 address as a source, so "many addresses"
are sockets bound to 127.0.0.2, 127.0.0.3, ...
"""

from __future__ import annotations

import asyncio

import asyncssh

from tests.server.server_helpers import LogCapture, Screen, StartServer, connect

ADDRESSES = 13
PER_ADDRESS = 16  # 208 in all, as in the report


async def _idle_connection(address: str, port: int) -> asyncio.StreamWriter:
    """A TCP connection that reads the server's banner and then says nothing."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    banner = await asyncio.wait_for(reader.readline(), 30)
    assert banner.startswith(b"SSH-2.0-")  # the server has taken the connection
    return writer


async def test_idle_connections_do_not_lock_out_players_with_keys(
        start_server: StartServer, client_key: asyncssh.SSHKey,
        server_log: LogCapture) -> None:
    server = await start_server()
    async with await connect(server, username="seated") as seated_conn:
        seated = await Screen.open(seated_conn)
        await seated.wait_for("Welcome, seated.")
        # An address's connections at once, address after address: 208 at once
        # would overflow the listening socket's backlog (100), and the kernel's
        # SYN retries, not the server, would then decide when they get in.
        idle: list[asyncio.StreamWriter] = []
        for a in range(ADDRESSES):
            idle += await asyncio.gather(*(
                _idle_connection(f"127.0.0.{2 + a}", server.port) for _ in range(PER_ADDRESS)))
        try:
            # A new player with a key logs in and reaches the lobby...
            async with await connect(server, client_key, username="newcomer") as conn:
                newcomer = await Screen.open(conn)
                await newcomer.wait_for("Welcome, newcomer.")
                newcomer.press(b"q")
                assert await newcomer.wait_closed() == 0
            # ...and the player who was already in plays on.
            seated.resize(110, 32)
            await seated.wait_for("terminal 110x32")
            seated.press(b"q")
            assert await seated.wait_closed() == 0
        finally:
            for writer in idle:
                writer.close()
    assert "the login queue is full" in server_log.text


async def test_a_logged_in_connection_without_a_session_is_closed(
        start_server: StartServer) -> None:
    """Else connections that log in and then do nothing hold the logged-in
    places (max_sessions) for ever: the same lock-out, one step later."""
    server = await start_server(linger=0.5)
    never = await connect(server, username="never")  # logs in, opens no session
    await asyncio.wait_for(never.wait_closed(), 10)
    async with await connect(server, username="stays") as conn:
        screen = await Screen.open(conn)
        await screen.wait_for("Welcome, stays.")
        screen.press(b"q")
        assert await screen.wait_closed() == 0
        # The session is over; the client keeps the connection open.
        await asyncio.wait_for(conn.wait_closed(), 10)
    for _ in range(100):
        if not server._connections:
            break
        await asyncio.sleep(0.02)
    assert not server._connections
