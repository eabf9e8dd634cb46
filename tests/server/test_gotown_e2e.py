"""GoTown end to end over a real server: a table created in the lobby's form,
joined by code, played to its end by two SSH players (a pty read through a
terminal emulator, keys only) and a bot while a third session watches; chat
at the table; a dropped player's stand-in bot, and the same key back at the
same seat."""

from __future__ import annotations

import asyncio
import time

from fivetowers.games.gotown.kind import GAME as GOTOWN
from fivetowers.games.gotown.rules import End

from tests.conftest import script_module
from tests.server.e2e_helpers import ann_in_the_lobby
from tests.server.server_helpers import Screen, StartServer, connect

def _keys_module() -> type:
    keys: type = script_module("gotown_keys").GoTownKeys
    return keys


GoTownKeys = _keys_module()


PRESSED: list[str] = []
"""The last keys pressed, each with the play panel's first line (for a failure)."""


async def act(screen: Screen, keys: object) -> bool:
    """Press this seat's next key, if it has one; True if it pressed."""
    key = keys.key(screen.screen.display)  # type: ignore[attr-defined]
    if key is None:
        return False
    before = screen.text
    PRESSED[:] = PRESSED[-40:] + [f"{key!r} {screen.screen.display[2][50:]}"]
    screen.press(key.encode())
    deadline = time.monotonic() + 2.0
    while screen.text == before and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    return True


async def test_two_players_a_bot_and_a_spectator_play_gotown_to_the_end(
        start_server: StartServer) -> None:
    opened = await ann_in_the_lobby(start_server, 11, "lobby — you are ann")
    lobby, server, ann_key, ann_conn, ann = (opened.lobby, opened.server, opened.ann_key,
                                             opened.ann_conn, opened.ann)
    # The new-table form opens on the name; the game's drop-down is above it
    # (shift+tab, enter, down, enter); 3 seats with 1 bot are the defaults.
    ann.press(b"n")
    await ann.wait_for("New table")
    ann.press(b"\x1b[Z")
    await asyncio.sleep(0.2)
    ann.press(b"\r")
    await asyncio.sleep(0.3)
    ann.press(b"\x1b[B")
    await asyncio.sleep(0.1)
    ann.press(b"\r")
    await ann.wait_for("Seats (2-4)")
    ann.press(b"\tTown\r")
    await ann.wait_for("Waiting for 1 player")
    (code,) = lobby.tables
    hosted = lobby.find(code)
    assert hosted is not None and hosted.kind is GOTOWN
    assert [s.bot for s in hosted.seats] == [None, None, "greedy"]

    async with await connect(server, username="bob") as bob_conn, \
            await connect(server, username="cy") as cy_conn:
        bob = await Screen.open(bob_conn, 80, 24, command=f"join {code}")
        await bob.wait_for("Your hand")
        await ann.wait_for("Your hand")
        # The spectator finds the table in the lobby, says which game, and watches.
        cy = await Screen.open(cy_conn, 80, 24)
        await cy.wait_for(code)
        assert "GoTown" in cy.screen.display[cy.row_of(code)]
        cy.press(b"w")
        await cy.wait_for("Watching")
        assert "Hedda (bot)" in cy.text and "Your hand" not in cy.text

        # Chat at the table: everyone there hears it.
        bob.press(b"c")
        await bob.wait_for("Say to the table")
        bob.press(b"hello town\r")
        await ann.wait_for("bob: hello town")
        await cy.wait_for("bob: hello town")

        players = {id(ann): GoTownKeys(), id(bob): GoTownKeys()}
        for _ in range(30):
            if not (await act(ann, players[id(ann)]) or await act(bob, players[id(bob)])):
                await asyncio.sleep(0.05)
        assert hosted.table is not None
        played = hosted.table.game.action_count()
        assert played > 0

        # ann drops out; a stand-in bot keeps her seat moving.
        ann_conn.close()
        await ann.wait_closed()
        deadline = time.monotonic() + 10
        while not hosted.status().endswith("1 away"):
            assert time.monotonic() < deadline, hosted.status()
            await asyncio.sleep(0.02)
        turn, away = hosted.table.game.turn, hosted.table.game.action_count()
        deadline = time.monotonic() + 30
        while not hosted.over and hosted.table.game.turn < turn + 4:
            if not await act(bob, players[id(bob)]):
                await asyncio.sleep(0.05)
            assert time.monotonic() < deadline, bob.text
        # ann's seat moved while she was away: her stand-in played it.
        assert any(a.seat == 0 for a in hosted.table.game.actions[away:])

        # The same key comes back to the same seat, mid-game (unless it ended).
        ann_conn = await connect(server, ann_key, username="ann")
        ann = await Screen.open(ann_conn, 80, 24)
        players[id(ann)] = GoTownKeys()
        await ann.wait_until(lambda: "Your hand" in ann.text or "The game is over" in ann.text,
                             "back at the table")
        assert hosted.seat_of(ann_key.get_fingerprint("sha256")) == 0

        deadline = time.monotonic() + 150
        while not all("The game is over" in s.text for s in (ann, bob, cy)):
            assert time.monotonic() < deadline, f"game did not end:\n{ann.text}\n{bob.text}\n" + "\n".join(PRESSED)
            if not (await act(ann, players[id(ann)]) or await act(bob, players[id(bob)])):
                await asyncio.sleep(0.05)
        assert hosted.over and hosted.table is not None
        # bob played cards by keys, not only ended his turns.
        assert any(a.seat == 1 and not isinstance(a, End) for a in hosted.table.game.actions)
        for screen in (ann, bob, cy):
            assert "Winner" in screen.text or "Shared victory" in screen.text
        for screen in (ann, bob, cy):
            screen.press(b"q")  # GoTown's end screen: q leaves the table for the lobby
            await screen.wait_for("lobby — you are")
            screen.press(b"q")
            assert await screen.wait_closed() == 0
    ann_conn.close()
