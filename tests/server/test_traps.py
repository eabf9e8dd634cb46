"""DESIGN.md's three traps of running many Apps in one process, each pinned down."""

from __future__ import annotations

import asyncio
import gc
import re
import sys
import weakref
from typing import Any

import pytest
from textual._xterm_parser import XTermParser
from rich.color import ColorSystem
from textual.app import App

from fivetowers.server.driver import SessionParser
from fivetowers.server.placeholder import PlaceholderLobbyApp
from fivetowers.server.colours import client_color_system, downgrade
from fivetowers.server.session import Visitor

from tests.server.server_helpers import (LogCapture, Screen, StartServer, connect,
                                         remembering_apps)

SESSIONS = 50
AT_ONCE = 5


async def test_finished_sessions_leave_no_app_alive_and_output_intact(
        start_server: StartServer, server_log: LogCapture) -> None:
    apps: list[weakref.ref[App[Any]]] = []

    def factory(visitor: Visitor) -> App[Any]:
        app = PlaceholderLobbyApp(visitor)
        apps.append(weakref.ref(app))
        return app

    stdout, stderr = sys.stdout, sys.stderr
    server = await start_server(factory)

    async def one(i: int, conn_screens: list[tuple[Any, Screen]]) -> None:
        conn = await connect(server, username=f"p{i}")
        screen = await Screen.open(conn, 90, 26)
        await screen.wait_for(f"Welcome, p{i}.")
        # Keys through the parser (arrows and an Alt key take the kitty path).
        screen.press(b"\x1b[A\x1b[1;5B\x1bxz")
        conn_screens.append((conn, screen))

    for batch in range(SESSIONS // AT_ONCE):
        opened: list[tuple[Any, Screen]] = []
        await asyncio.gather(*(one(batch * AT_ONCE + i, opened) for i in range(AT_ONCE)))
        # End them in another order than they started: half by leaving, half by hanging up.
        for n, (conn, screen) in enumerate(reversed(opened)):
            if n % 2:
                screen.press(b"q")
                await screen.wait_closed()
            conn.close()
            await conn.wait_closed()

    for _ in range(50):
        if not server.sessions:
            break
        await asyncio.sleep(0.05)
    assert not server.sessions
    # A closing connection's last callbacks may still hold its App for a
    # moment on a loaded machine: freed within 10 s is freed.
    for _ in range(100):
        gc.collect()
        alive = [ref for ref in apps if ref() is not None]
        if not alive:
            break
        await asyncio.sleep(0.1)
    assert len(apps) == SESSIONS
    assert alive == [], f"{len(alive)} of {SESSIONS} finished Apps are still alive"
    # Trap 2: the process's own output still goes where it went before.
    assert sys.stdout is stdout and sys.stderr is stderr
    server.stdout.write("")  # still a live stream
    assert server_log.text.count("(127.0.0.1) ends") == SESSIONS
    assert "starts at 90x26" in server_log.text


def test_session_parser_bypasses_the_class_wide_key_cache() -> None:
    # The mechanism behind trap 1: XTermParser's lru_cache keyed on the parser.
    cached = XTermParser._parse_extended_key
    before = cached.cache_info()
    keys = list(SessionParser().feed("\x1b[1;5A\x1b[1;2B"))
    assert [getattr(k, "key", None) for k in keys] == ["ctrl+up", "shift+down"]
    after = cached.cache_info()
    assert (after.hits, after.misses) == (before.hits, before.misses)


@pytest.mark.parametrize(("term", "colorterm", "system"), [
    ("xterm-256color", "truecolor", ColorSystem.TRUECOLOR),
    ("xterm-256color", "", ColorSystem.EIGHT_BIT),
    ("xterm", "", ColorSystem.STANDARD),
    ("dumb", "", None),
])
def test_colour_system_follows_the_client(term: str, colorterm: str,
                                          system: ColorSystem | None) -> None:
    assert client_color_system(term, colorterm) == system


def test_downgrade_rewrites_only_colours() -> None:
    frame = "\x1b[1;38;2;255;0;0;48;2;0;0;0mhot\x1b[0m\x1b[2J"
    assert downgrade(frame, ColorSystem.TRUECOLOR) == frame
    assert downgrade(frame, ColorSystem.EIGHT_BIT) == "\x1b[1;38;5;196;48;5;16mhot\x1b[0m\x1b[2J"
    assert downgrade(frame, ColorSystem.STANDARD) == "\x1b[1;31;40mhot\x1b[0m\x1b[2J"
    assert downgrade(frame, None) == "\x1b[1mhot\x1b[0m\x1b[2J"
    # A sequence that only set colours disappears rather than becoming a reset.
    assert downgrade("\x1b[38;2;1;2;3mx", None) == "x"


async def test_server_environment_does_not_decide_colours(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.delenv("COLORTERM", raising=False)
    server = await start_server()
    truecolor = re.compile(rb"\x1b\[[0-9;]*38;2;")
    palette = re.compile(rb"\x1b\[[0-9;]*38;5;")
    async with await connect(server) as conn:
        rich = await Screen.open(conn, env={"COLORTERM": "truecolor"})
        await rich.wait_for("Welcome")
        rich.press(b"q")
        await rich.wait_closed()
    async with await connect(server) as conn:
        plain = await Screen.open(conn, term="xterm-256color")
        await plain.wait_for("Welcome")
        plain.press(b"q")
        await plain.wait_closed()
    async with await connect(server) as conn:
        basic = await Screen.open(conn, term="xterm")
        await basic.wait_for("Welcome")
        basic.press(b"q")
        await basic.wait_closed()
    assert truecolor.search(bytes(rich.raw))
    assert palette.search(bytes(plain.raw)) and not truecolor.search(bytes(plain.raw))
    # 16 colours: neither the 256-colour palette nor RGB.
    assert not palette.search(bytes(basic.raw)) and not truecolor.search(bytes(basic.raw))
    assert re.search(rb"\x1b\[(?:[0-9]+;)*(?:3[0-7]|9[0-7])[;m]", bytes(basic.raw))


async def test_lobby_sessions_leave_no_app_alive_while_their_table_plays_on(
        start_server: StartServer) -> None:
    """A player bids, drops out, a stand-in bot takes the seat and the game goes
    on: the finished session's App must not ride along in the table's tasks."""
    from fivetowers.lobby.model import Lobby
    from fivetowers.lobby.app import LobbyApp, lobby_factory

    lobby = Lobby(bot_kind="random", bot_delay=0.01, absence_bot_after=0.05, hints=False)
    factory, apps = remembering_apps(lobby_factory(lobby))

    server = await start_server(factory)
    for i in range(3):
        conn = await connect(server, username=f"solo{i}")
        screen = await Screen.open(conn, 90, 28)
        await screen.wait_for("lobby")
        screen.press(b"n")
        await screen.wait_for("New table")
        for key in (b"\t", b"\x7f", b"2", b"\r"):  # the seats field: 2 seats, 1 bot
            screen.press(key)
            await asyncio.sleep(0.15)
        await screen.wait_for("your towers")
        if "YOUR TURN to bid" in screen.screen.display[0]:
            screen.press(b"1")
            await asyncio.sleep(0.3)
        conn.close()
        await conn.wait_closed()
    def standing_in() -> bool:  # stand-ins play on at every table
        return all(t.table is not None and t.table.is_bot(0) for t in lobby.tables.values())

    for _ in range(500):
        if standing_in() and not server.sessions:
            break
        await asyncio.sleep(0.02)
    assert standing_in()
    gc.collect()
    alive = [ref() for ref in apps if ref() is not None]
    assert not [a for a in alive if isinstance(a, LobbyApp)], f"{len(alive)} Apps alive"
