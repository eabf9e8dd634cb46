"""What a seated player's keys do at a hosted table, over a real SSH connection."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Callable

from tests.server.seated import Seated
from tests.server.test_lobby_game import _act as act
from tests.server.server_helpers import StartServer


async def test_keys_behind_the_too_small_notice_do_not_play(start_server: StartServer) -> None:
    seated = await Seated.start(start_server)
    screen = seated.screen
    await seated.my_turn_to_bid()
    table = seated.hosted.table
    assert table is not None
    version = table.version
    screen.resize(70, 20)
    await screen.wait_for("Your terminal is 70x20.")
    for key in (b"2", b"0", b"p", b"\r"):
        screen.press(key)
        await asyncio.sleep(0.1)
    screen.resize(80, 24)
    await screen.wait_for("ann — your towers")
    await asyncio.sleep(0.3)
    assert table.version == version, table.game.log[-3:]
    assert "YOUR TURN to bid" in screen.screen.display[0]
    await seated.close()


async def test_a_chat_paste_too_long_is_cut_to_fit_and_says_so(start_server: StartServer) -> None:
    seated = await Seated.start(start_server)
    screen = seated.screen
    screen.press(b"c")
    await screen.wait_for("Say to the table")
    screen.press(b"hi ")
    await screen.wait_for("hi ")
    pasted = "".join(f"word{i:03d} " for i in range(25))  # 200 characters
    screen.press(b"\x1b[200~" + pasted.encode() + b"\x1b[201~")
    await screen.wait_for("Paste cut to fit 120 characters (83 left out).")
    screen.press(b"\r")
    await screen.wait_until(lambda: bool(seated.hosted.chat), "sent the line")
    line = seated.hosted.chat[-1].text
    assert line == ("hi " + pasted)[:120]
    await seated.close()


YOUR_TURN_TITLE = "\x1b]2;5 Towers — your turn\x1b\\".encode()
OSC = re.compile(rb"\x1b\][^\x07\x1b]*\x07")
"""An OSC sequence ended by BEL (Textual's pointer shape): no bell."""


def bells(raw: bytes) -> int:
    return OSC.sub(b"", raw).count(b"\x07")


async def play_until(seated: Seated, done: Callable[[], bool], what: str) -> None:
    """ann bids or passes (the bot builds and bids) until ``done()``."""
    deadline = time.monotonic() + 30
    while not done():
        assert time.monotonic() < deadline, f"never {what}:\n{seated.screen.text}"
        if not await act(seated.screen):
            await asyncio.sleep(0.05)


async def test_the_bell_rings_when_it_becomes_your_turn_and_b_turns_it_off(
        start_server: StartServer) -> None:
    seated = await Seated.start(start_server)
    screen = seated.screen
    assert bells(screen.raw) == 0  # arriving is no turn change
    await play_until(seated, lambda: bells(screen.raw) > 0, "rang the bell")
    assert YOUR_TURN_TITLE in screen.raw
    await seated.my_turn_to_bid()
    screen.press(b"b")
    await screen.wait_for("Your-turn bell and title: off")
    rung, titles = bells(screen.raw), screen.raw.count(YOUR_TURN_TITLE)
    table = seated.hosted.table
    assert table is not None
    rounds = table.game.round
    await play_until(seated, lambda: table.game.round >= rounds + 2, "played two rounds")
    assert (bells(screen.raw), screen.raw.count(YOUR_TURN_TITLE)) == (rung, titles)
    await seated.close()
