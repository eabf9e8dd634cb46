"""The product end to end: a table created in the lobby, joined by code, played
to the end screen by two SSH players and a bot while a third session watches;
a dropped player comes back to the same seat."""

from __future__ import annotations

import asyncio
import time

from tests.server.e2e_helpers import ann_in_the_lobby
from tests.server.server_helpers import Screen, StartServer, connect


async def _act(screen: Screen) -> bool:
    """Bid 0 when starting, pass otherwise; True if a key was pressed.

    Whether this player starts is read from the bid panel; its text may wrap,
    so a key the table refuses (the status line stays) is followed by the other.
    """
    status = screen.screen.display[0]
    if "YOUR TURN to build" in status:
        # A stand-in bot won a bid for this seat and its player came back
        # before the build: take the hint's plan (hints on), then confirm.
        if "Hints" not in screen.text:
            screen.press(b"h")
        for _ in range(20):
            await asyncio.sleep(0.3)
            screen.press(b"a")
            await asyncio.sleep(0.2)
            screen.press(b"\r")
            await asyncio.sleep(0.2)
            if screen.screen.display[0] != status:
                return True
        raise AssertionError(f"could not build:\n{screen.text}")
    if "YOUR TURN to bid" not in status:
        return False
    starting = "you start" in " ".join(screen.text.lower().split())
    for key in ((b"0", b"p") if starting else (b"p", b"0")):
        screen.press(key)
        deadline = time.monotonic() + 1.5
        while screen.screen.display[0] == status and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        if screen.screen.display[0] != status:
            break
    return True


async def test_two_players_a_bot_and_a_spectator_play_to_the_end(
        start_server: StartServer) -> None:
    opened = await ann_in_the_lobby(start_server, 7, "5 Towers lobby — you are ann")
    lobby, server, ann_key, ann_conn, ann = (opened.lobby, opened.server, opened.ann_key,
                                             opened.ann_conn, opened.ann)
    # Create a 3-seat table with one bot: n, a name, Enter.
    ann.press(b"n")
    await ann.wait_for("New table")
    ann.press(b"Duel\r")
    await ann.wait_for("Waiting for 1 player")
    (code,) = lobby.tables
    assert f"join {code}" in ann.text

    async with await connect(server, username="bob") as bob_conn, \
            await connect(server, username="cy") as cy_conn:
        bob = await Screen.open(bob_conn, 80, 24, command=f"join {code}")
        await bob.wait_for("bob — your towers")
        await ann.wait_for("ann — your towers")
        # The spectator finds the table in the lobby and watches it.
        cy = await Screen.open(cy_conn, 80, 24)
        await cy.wait_for(code)
        cy.press(b"w")
        await cy.wait_for("Hedda (bot)")
        assert "your towers" not in cy.text

        # A few turns, then ann drops out; a stand-in bot keeps her seat moving.
        for _ in range(6):
            await _act(ann) or await _act(bob)
            await asyncio.sleep(0.02)
        ann_conn.close()
        await ann.wait_closed()
        hosted = lobby.find(code)
        assert hosted is not None
        for _ in range(100):
            if hosted.status().endswith("1 away"):
                break
            await asyncio.sleep(0.02)
        assert hosted.status().endswith("1 away")
        round_before = hosted.table.game.round if hosted.table else 0
        deadline = time.monotonic() + 20
        while hosted.table is not None and hosted.table.game.round < round_before + 2:
            await _act(bob)
            assert time.monotonic() < deadline, bob.text
            await asyncio.sleep(0.02)

        # The same key comes back to the same seat, mid-game.
        ann_conn = await connect(server, ann_key, username="ann")
        ann = await Screen.open(ann_conn, 80, 24)
        await ann.wait_for("ann — your towers")
        assert "your seat at" in ann.text or "ann — your towers" in ann.text

        deadline = time.monotonic() + 90
        while not all("The game is over" in s.text for s in (ann, bob, cy)):
            assert time.monotonic() < deadline, f"game did not end:\n{ann.text}"
            if not (await _act(ann) or await _act(bob)):
                await asyncio.sleep(0.02)
        for screen in (ann, bob, cy):
            assert "Winner" in screen.text or "Shared victory" in screen.text
        for screen in (ann, bob, cy):
            screen.press(b"q")  # the end screen's q: back to the lobby
            await screen.wait_for("lobby — you are")
            screen.press(b"q")  # the lobby's q disconnects
            assert await screen.wait_closed() == 0
    ann_conn.close()
