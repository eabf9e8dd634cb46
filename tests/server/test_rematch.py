"""Playing again at a table whose game is over: same table, same players."""

from __future__ import annotations

import asyncio
import random

import asyncssh
import pytest

from fivetowers.games.five_towers.kind import GAME as FIVE_TOWERS
from fivetowers.games.five_towers.rules import Variant
from fivetowers.lobby.app import lobby_factory
from fivetowers.lobby.model import HostedTable, Lobby, LobbyError
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table

from tests.server.history_helpers import play
from tests.server.server_helpers import Screen, StartServer, connect


def _lobby(answer_within: float = 60.0) -> Lobby:
    return Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=answer_within,
                 hints=False, rng=random.Random(11))


def _finished(lobby: Lobby, ann: str = "key-a", bo: str = "key-b",
              bo_here: bool = True) -> HostedTable:
    """ann, bo and a bot have played a game to its end at table OVER1."""
    seats = [Seat("ann", identity=ann, connected=True),
             Seat("bo", identity=bo, connected=bo_here), Seat("Peter (bot)", bot="random")]
    hosted = HostedTable("OVER1", "friends", FIVE_TOWERS, {"variant": "base"}, False, seats)
    hosted.table = Table(play([s.name for s in seats], Variant.BASE, seed=1), seats)
    assert hosted.over
    lobby.tables[hosted.code] = hosted
    return hosted


async def test_the_rematch_starts_when_everyone_has_said_yes() -> None:
    lobby = _lobby()
    old = _finished(lobby)
    heard: list[str] = []
    old.chat_listeners.append(lambda line: heard.append(f"{line.name}: {line.text}"))
    again = lobby.play_again(old, "key-a", "ann")
    assert heard == ["ann: wants a rematch: n on the end screen says yes"]
    assert lobby.find("OVER1") is again and not again.started
    assert "waiting for bo to say yes" in again.status()
    assert lobby.play_again(old, "key-b", "bo") is again
    assert again.started and again.table is not None and not again.over
    assert again.table.game.action_count() == 0  # a new game ...
    assert [(s.name, s.identity, s.bot) for s in again.seats] == [
        ("ann", "key-a", None), ("bo", "key-b", None), ("Peter (bot)", None, "random")]
    assert again.table.game.view(None).seats[0].name == "ann"  # ... same players, same seats
    assert old.table is not None
    assert again.table.game.setup_json() != old.table.game.setup_json()  # a new deal
    await again.table.close()


async def test_who_leaves_instead_gets_a_bot_and_the_others_play() -> None:
    lobby = _lobby()
    old = _finished(lobby)
    again = lobby.play_again(old, "key-a", "ann")
    lobby.away(old, "key-b")  # bo goes back to the lobby without a yes
    assert again.started and again.table is not None
    assert again.seats[1].bot == "random" and again.seats[1].identity is None
    assert again.seats[1].name.endswith("(bot)")
    assert again.seat_of("key-b") is None and lobby.resumable("key-b") is None
    with pytest.raises(LobbyError, match="started without you"):
        lobby.play_again(old, "key-b", "bo")  # too late: it started without bo
    await again.table.close()


async def test_who_does_not_answer_in_time_gets_a_bot() -> None:
    lobby = _lobby(answer_within=0.1)
    old = _finished(lobby)
    again = lobby.play_again(old, "key-a", "ann")
    assert not again.started
    await asyncio.sleep(0.3)
    assert again.started and again.seats[1].bot is not None
    assert again.table is not None
    await again.table.close()


async def test_a_player_gone_before_the_end_is_not_waited_for() -> None:
    lobby = _lobby()
    old = _finished(lobby, bo_here=False)
    again = lobby.play_again(old, "key-a", "ann")
    assert again.started and again.seats[1].bot is not None
    assert again.table is not None
    await again.table.close()


async def test_when_everyone_leaves_the_rematch_is_dropped() -> None:
    lobby = _lobby()
    old = _finished(lobby)
    again = lobby.play_again(old, "key-a", "ann")
    lobby.away(old, "key-a")
    lobby.away(again, "key-a")  # ann changed her mind: a bot for her too
    lobby.away(old, "key-b")
    assert not again.started and lobby.find("OVER1") is None


async def test_over_ssh_both_say_yes_and_play_again(start_server: StartServer) -> None:
    lobby = _lobby()
    ann_key = asyncssh.generate_private_key("ssh-ed25519")
    bo_key = asyncssh.generate_private_key("ssh-ed25519")
    old = _finished(lobby, ann_key.get_fingerprint("sha256"), bo_key.get_fingerprint("sha256"))
    for seat in old.seats[:2]:
        seat.connected = False  # they come in over SSH
    server = await start_server(lobby_factory(lobby))
    async with await connect(server, ann_key, username="ann") as a_conn, \
            await connect(server, bo_key, username="bo") as b_conn:
        ann = await Screen.open(a_conn, 100, 30, command="join OVER1")
        bo = await Screen.open(b_conn, 100, 30, command="join OVER1")
        for screen in (ann, bo):
            await screen.wait_for("The game is over")
        ann.press(b"n")
        await ann.wait_for("waiting for bo to say yes")
        await bo.wait_for("ann: wants a rematch")  # on bo's end screen, a pop-up
        bo.press(b"n")
        for screen, name in ((ann, "ann"), (bo, "bo")):
            await screen.wait_for(f"{name} — your towers")
            await screen.wait_until(lambda s=screen: "Round 1 " in s.screen.display[0],
                                    "a new game")
        await asyncio.sleep(0.5)  # a pop-up left would still be up for seconds
        for screen in (ann, bo):
            # Moot once the rematch started: the pop-ups covered its first
            # round's log for their 8 s (bo's own yes took ann's off).
            assert not any("wants a rematch" in line for line in screen.screen.display)
        again = lobby.find("OVER1")
        assert again is not None and again is not old and again.started
        for screen in (ann, bo):
            screen.press(b"q")
            await screen.wait_for("5 Towers lobby")
            screen.press(b"q")
            await screen.wait_closed()
