"""The table's chat is in its log, with its earlier lines for whoever arrives."""

from __future__ import annotations

import random

import asyncssh

from fivetowers.games.five_towers.kind import GAME as FIVE_TOWERS
from fivetowers.games.five_towers.rules import LogEntry
from fivetowers.games.five_towers.tui.log_lines import STAND_IN, log_lines
from fivetowers.lobby.app import lobby_factory
from fivetowers.lobby.model import ChatLine, HostedTable, Lobby
from fivetowers.tables.seats import Seat

from tests.server.server_helpers import Screen, StartServer, connect


def test_chat_lines_go_after_the_moves_made_before_them() -> None:
    entries = (LogEntry(1, "reveal", None, "round 1: a, b", 0),
               LogEntry(1, "bid", 0, "ann: bid 1", 0),
               LogEntry(1, "pass", 1, "bob: pass", 1),
               LogEntry(2, "reveal", None, "round 2: c", 1),
               LogEntry(2, "bid", 1, "bob: bid 2", 2))
    chat = (ChatLine("cy", "hello", 0), ChatLine("bob", "oops", 2), ChatLine("ann", "gg", 3))
    lines = log_lines(entries, chat, {1: 1})
    assert [line.text for line in lines] == [
        "round 1: a, b", "cy: hello", "ann: bid 1", "bob: pass" + STAND_IN, "round 2: c",
        "bob: oops", "bob: bid 2", "ann: gg"]
    assert [line.kind for line in lines].count("chat") == 3
    assert log_lines(entries) == entries  # nothing said, nobody stood in: as the game wrote it


def _lobby() -> Lobby:
    return Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=60, hints=False,
                 rng=random.Random(3))


async def test_a_watcher_and_a_returning_player_see_what_was_said_before(
        start_server: StartServer) -> None:
    lobby = _lobby()
    lobby.tables["CHAT2"] = HostedTable("CHAT2", "talk", FIVE_TOWERS, {"variant": "base"},
                                        False, [Seat("", None), Seat("", None)])
    server = await start_server(lobby_factory(lobby))
    bob_key = asyncssh.generate_private_key("ssh-ed25519")
    async with await connect(server, username="ann") as a_conn, \
            await connect(server, bob_key, username="bob") as b_conn:
        ann = await Screen.open(a_conn, 100, 30, command="join CHAT2")
        bob = await Screen.open(b_conn, 100, 30, command="join CHAT2")
        await ann.wait_for("ann — your towers")
        await bob.wait_for("bob — your towers")
        bob.press(b"c")
        await bob.wait_for("Say to the table")
        bob.press(b"hi all\r")
        await ann.wait_for("bob: hi all")
        await bob.wait_for("bob: hi all")
        # In the log (right of its title), once: not a pop-up over the boards.
        assert ann.text.count("bob: hi all") == 1
        assert ann.column_of("bob: hi all") >= ann.column_of("Log") - 3
        # bob leaves for the lobby and comes back: the line is still in his log.
        bob.press(b"q")
        await bob.wait_for("5 Towers lobby")
        bob.press(b"q")
        await bob.wait_closed()
    async with await connect(server, bob_key, username="bob") as b_conn, \
            await connect(server, username="cy") as c_conn:
        bob = await Screen.open(b_conn, 100, 30)  # straight back to his seat
        await bob.wait_for("bob — your towers")
        await bob.wait_for("bob: hi all")
        cy = await Screen.open(c_conn, 100, 30, command="join CHAT2")  # full: watches
        await cy.wait_for("ann")
        await cy.wait_for("bob: hi all")
        for screen in (bob, cy):
            screen.press(b"q")
            await screen.wait_for("5 Towers lobby")
            screen.press(b"q")
            await screen.wait_closed()
    hosted = lobby.tables["CHAT2"]
    assert [line.text for line in hosted.chat] == ["hi all"]
    assert hosted.chat[0].moves == 0
