"""A session end to end: real server on port 0, asyncssh client with a pty, pyte."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncssh
from textual.app import App, ComposeResult
from textual.widgets import Static

from fivetowers.server.placeholder import PlaceholderLobbyApp
from fivetowers.server.session import Visitor

from tests.server.server_helpers import LogCapture, Screen, StartServer, connect


async def test_lobby_screen_shows_name_and_key(start_server: StartServer,
                                               client_key: asyncssh.SSHKey) -> None:
    server = await start_server()
    async with await connect(server, client_key, username="hedda") as conn:
        screen = await Screen.open(conn)
        await screen.wait_for("Welcome, hedda.")
        await screen.wait_for(client_key.get_fingerprint("sha256"))
        screen.press(b"q")
        assert await screen.wait_closed() == 0


async def test_user_name_is_cleaned_of_markup(start_server: StartServer) -> None:
    seen: list[Visitor] = []

    def factory(visitor: Visitor) -> App[Any]:
        seen.append(visitor)
        return PlaceholderLobbyApp(visitor)

    server = await start_server(factory)
    async with await connect(server, username="[b]eve[/b] the  great and powerful") as conn:
        screen = await Screen.open(conn)
        await screen.wait_for("Welcome,")
        screen.press(b"q")
        await screen.wait_closed()
    assert seen[0].name == "beve/b the great"


async def test_resize_relayouts(start_server: StartServer) -> None:
    server = await start_server()
    async with await connect(server) as conn:
        screen = await Screen.open(conn, 100, 30)
        await screen.wait_for("terminal 100x30")
        before = (screen.row_of("Welcome"), screen.column_of("Welcome"))
        screen.resize(120, 40)
        await screen.wait_for("terminal 120x40")
        # The card stays centred: it moves down and right with the new size.
        await screen.wait_until(
            lambda: (screen.row_of("Welcome") - before[0],
                     screen.column_of("Welcome") - before[1]) == (5, 10),
            "re-centred the card")
        await screen.wait_until(lambda: "q Leave" in screen.screen.display[39],
                                "moved the footer to the new last line")
        screen.press(b"q")
        await screen.wait_closed()


async def test_too_small_terminal_gets_a_message_then_the_app(start_server: StartServer) -> None:
    server = await start_server()
    async with await connect(server) as conn:
        screen = await Screen.open(conn, 60, 20)
        await screen.wait_for("Your terminal is 60x20.")
        assert "needs at least 80x24" in screen.text
        assert "Welcome" not in screen.text
        screen.resize(90, 26)
        await screen.wait_for("Welcome")
        assert "Your terminal is" not in screen.text
        screen.resize(50, 10)
        await screen.wait_for("Your terminal is 50x10.")
        screen.press(b"q")
        assert await screen.wait_closed() == 0


async def test_session_without_pty_gets_one_line(start_server: StartServer) -> None:
    server = await start_server()
    async with await connect(server) as conn:
        result = await asyncio.wait_for(conn.run(encoding="utf-8"), 10)
    assert result.exit_status == 1
    lines = str(result.stdout).strip().splitlines()
    assert len(lines) == 1 and "ssh -t" in lines[0] and str(server.port) in lines[0]


async def test_exec_is_only_join_code(start_server: StartServer) -> None:
    seen: list[Visitor] = []

    def factory(visitor: Visitor) -> App[Any]:
        seen.append(visitor)
        return PlaceholderLobbyApp(visitor)

    server = await start_server(factory)
    async with await connect(server) as conn:
        result = await asyncio.wait_for(conn.run("cat /etc/passwd", encoding="utf-8"), 10)
        assert result.exit_status == 2
        assert str(result.stdout).strip() == \
            "fivetowers: the only commands are: join CODE, export GAME"
    async with await connect(server) as conn:
        screen = await Screen.open(conn, command="join abc12")
        await screen.wait_for("You asked to join table ABC12.")
        screen.press(b"q")
        await screen.wait_closed()
    assert [v.join_code for v in seen] == ["ABC12"]


class _Boom(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("about to fail")

    def on_key(self) -> None:
        raise RuntimeError("boom in one session")


async def test_exception_ends_only_that_session(start_server: StartServer,
                                                server_log: LogCapture) -> None:
    def factory(visitor: Visitor) -> App[Any]:
        return _Boom() if visitor.name == "crash" else PlaceholderLobbyApp(visitor)

    server = await start_server(factory)
    async with await connect(server, username="calm") as calm_conn, \
            await connect(server, username="crash") as crash_conn:
        calm = await Screen.open(calm_conn)
        crash = await Screen.open(crash_conn)
        await calm.wait_for("Welcome, calm.")
        await crash.wait_for("about to fail")
        crash.press(b"x")
        assert await crash.wait_closed() == 1
        assert "something went wrong on the server" in crash.raw.decode()
        # The other session goes on and still answers.
        calm.resize(110, 32)
        await calm.wait_for("terminal 110x32")
        calm.press(b"q")
        assert await calm.wait_closed() == 0
    assert "boom in one session" in server_log.text
    assert "the app of crash (127.0.0.1) crashed" in server_log.text


async def test_stop_tells_connected_players(start_server: StartServer) -> None:
    server = await start_server(shutdown_grace=0.3)
    async with await connect(server) as conn:
        screen = await Screen.open(conn)
        await screen.wait_for("Welcome")
        stopping = asyncio.create_task(server.stop())
        await screen.wait_for("shutting down")  # the in-app notice, during the grace
        await stopping
        await screen.wait_closed()
        assert "fivetowers: the server is shutting down. Thanks for playing!" in screen.text


async def test_idle_session_is_closed(start_server: StartServer) -> None:
    server = await start_server(idle_timeout=2.0)
    # Timed from before the session exists: it may not close any sooner
    # (on a loaded machine the lobby can take most of those 2 s to appear).
    started = asyncio.get_running_loop().time()
    async with await connect(server) as conn:
        screen = await Screen.open(conn)
        await screen.wait_for("Welcome")
        await screen.wait_closed(timeout=15)
        assert asyncio.get_running_loop().time() - started >= 2.0
        assert "closed after 1 idle minute" in screen.text
