"""The serving process only serves (issue 11): a bot thinking for seconds in
pure Python must not hold up the loop that draws every session's screen."""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import AsyncIterator

import pytest

import fivetowers.server.lobby as lobby_module
import fivetowers.tables.table as table_module
from fivetowers.rules import Variant
from fivetowers.server.lobby import Lobby
from fivetowers.server.lobby_app import lobby_factory
from fivetowers.tables.workers import Workers

from tests.server.busy_bot import BusyBot
from tests.server.server_helpers import Screen, StartServer, connect

TABLES = 3
KEY_TO_SCREEN = 0.2
"""The issue's bound (generous: an idle server answers in about 20 ms)."""


@pytest.fixture
async def workers() -> AsyncIterator[Workers]:
    pool = Workers(1)
    await asyncio.to_thread(pool.start)
    yield pool
    pool.close()


async def test_a_key_reaches_its_screen_while_bots_think_for_seconds(
        start_server: StartServer, workers: Workers, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every bot of this lobby (a seat's own, a stand-in) busy-loops for 2 s a move.
    monkeypatch.setattr(table_module, "make_bot", lambda kind: BusyBot(2.0))
    monkeypatch.setattr(lobby_module, "make_bot", lambda kind: BusyBot(2.0))
    lobby = Lobby(bot_kind="busy", bot_delay=0.0, absence_bot_after=0.0, hints=False,
                  workers=workers)
    # Three tables (three bots thinking at once, as at a busy server), each with
    # a stand-in for its absent player: bots on every seat, always thinking.
    for i in range(TABLES):
        hosted = lobby.create(f"SHA256:gone{i}", "gone", title="Busy", players=2, bots=1,
                              variant=Variant.BASE, private=False)
        lobby.away(hosted, f"SHA256:gone{i}")
    table = hosted.table
    assert table is not None
    server = await start_server(lobby_factory(lobby))
    conn = await connect(server, username="ann")
    screen = await Screen.open(conn, 100, 30, command=f"join {hosted.code}")
    await screen.wait_for("Bidding")
    for _ in range(100):  # both seats are the bots'
        if table.is_bot(0) and table.is_bot(1):
            break
        await asyncio.sleep(0.02)

    async def toggle() -> float:
        shown = "Hints (h)" in screen.text
        pressed = time.monotonic()
        screen.press(b"h")  # shows or hides the hint panel
        await screen.wait_until(lambda: ("Hints (h)" in screen.text) != shown,
                                "the hint panel toggled")
        return time.monotonic() - pressed

    for _ in range(2):  # the panel's first drawing is not what is measured
        await toggle()
    before = table.version
    took: list[float] = []
    started = time.monotonic()
    while time.monotonic() - started < 4.5:  # two bot moves or more at each table
        took.append(await toggle())
        await asyncio.sleep(0.1)
    assert table.version > before, "the bots never moved: nothing was thinking"
    assert table.bot_error is None
    conn.close()
    await conn.wait_closed()
    await lobby.close()
    # The typical press: this machine is shared, and one press in a few may
    # wait for another process's time slice; a bot holding the loop delays
    # every press (measured with bots in threads: 600-1,100 ms typical).
    typical = statistics.median(took)
    report = ", ".join(f"{t * 1000:.0f}" for t in took)
    assert typical < KEY_TO_SCREEN, f"keys took {report} ms to reach their screen"
    assert max(took) < 5 * KEY_TO_SCREEN, f"keys took {report} ms to reach their screen"
