"""What players on two servers sharing a PostgreSQL store do together
around a game, besides playing it (issue 15): a rematch when the table's
players are on different servers, and talking at a table still forming,
over real SSH as in test_pg_lobby.py."""

from __future__ import annotations

import asyncio
import random

import asyncssh
import pytest

from fivetowers.i18n.terms import REMATCH_WANTED
from fivetowers.lobby import crossing
from fivetowers.lobby.app import lobby_factory
from fivetowers.lobby.model import HostedTable, Lobby, LobbyError

from tests.server.server_helpers import Screen, StartServer, connect
from tests.server.test_pg_lobby import lobbies, shared_lobby, until  # noqa: F401 (a fixture)


class _Session:
    """A session (an App in the server) as the lobby counts it."""


def _fingerprint(key: asyncssh.SSHKey) -> str:
    return str(key.get_fingerprint("sha256"))


async def _play_to_the_end(hosted: HostedTable) -> None:
    """Random moves for every seat at the driving server, till the game is over."""
    table = hosted.table
    assert table is not None
    bot, rng = table.kind.make_bot("random"), random.Random(3)
    while not table.game.is_terminal():
        seat = table.game.to_move
        assert seat is not None
        await table.submit(seat, bot.choose(table.game.view(seat), rng))


async def _over_across(lobby_a: Lobby, lobby_b: Lobby, ann: str, bob: str) -> tuple[
        HostedTable, HostedTable]:
    """ann (at A) and bob (gone to B) sit at A's table of two; its game and
    B's copy of it."""
    hosted_a = lobby_a.create(ann, "ann", title="Duel", players=2, bots=0, private=False)
    lobby_a.sit(hosted_a, bob, "bob")
    lobby_a.away(hosted_a, bob)  # bob goes to B
    await until(lambda: getattr(lobby_b.find(hosted_a.code), "table", None) is not None,
                "B lists A's table, started")
    hosted_b = lobby_b.find(hosted_a.code)
    assert hosted_b is not None and hosted_b.remote
    return hosted_a, hosted_b


async def test_a_rematch_asked_at_another_server_than_the_game_s_brings_both_back(
        start_server: StartServer, lobbies: tuple[Lobby, Lobby]) -> None:  # noqa: F811
    """bob, at B, says yes first: the rematch forms at A (the game's server),
    ann there hears he wants one; what bob says at the forming rematch
    reaches ann once she says yes too; both play the new game."""
    lobby_a, lobby_b = lobbies
    server_a = await start_server(lobby_factory(lobby_a))
    server_b = await start_server(lobby_factory(lobby_b))
    ann_key, bob_key = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    hosted_a, hosted_b = await _over_across(lobby_a, lobby_b, _fingerprint(ann_key),
                                            _fingerprint(bob_key))
    code = hosted_a.code
    async with await connect(server_a, ann_key, username="ann") as ann_conn, \
            await connect(server_b, bob_key, username="bob") as bob_conn:
        ann = await Screen.open(ann_conn, 100, 30, command=f"join {code}")
        bob = await Screen.open(bob_conn, 100, 30, command=f"join {code}")
        for screen, name in ((ann, "ann"), (bob, "bob")):
            await screen.wait_for(f"{name} — your towers")
        await until(lambda: hosted_a.seats[1].connected, "A counts bob, at B, as here")
        await _play_to_the_end(hosted_a)
        for screen in (ann, bob):
            await screen.wait_for("The game is over")

        bob.press(b"n")  # at B, whose copy of the game is remote
        await bob.wait_for("waiting for ann to say yes")
        await ann.wait_for("bob: wants a rematch")  # a pop-up on ann's end screen
        again_a = lobby_a.find(code)
        assert again_a is not None and again_a is not hosted_a and not again_a.started
        assert again_a.pending == {0}  # bob's yes counted at A, ann's awaited

        bob.press(b"c")
        await bob.wait_for("Say to the table")
        bob.press(b"your move, ann\r")
        await bob.wait_for("bob: your move, ann")  # under the seats of the waiting screen
        await until(lambda: any(line.text == "your move, ann" for line in again_a.chat),
                    "A's rematch hears bob")

        ann.press(b"n")
        for screen, name in ((ann, "ann"), (bob, "bob")):
            await screen.wait_for(f"{name} — your towers")
            await screen.wait_until(lambda s=screen: "Round 1 " in s.screen.display[0],
                                    "a new game")
        assert again_a.started and again_a.table_id is not None
        assert again_a.table_id != hosted_a.table_id
        assert [(s.name, s.bot) for s in again_a.seats] == [("ann", None), ("bob", None)]
        await until(lambda: again_a.seats[1].connected, "A counts bob, at B, at the rematch")
        again_b = lobby_b.find(code)
        assert again_b is not None and again_b.remote and again_b.table_id == again_a.table_id
        assert again_b is not hosted_b


async def test_a_rematch_asked_at_the_game_s_server_is_answered_at_the_other(
        lobbies: tuple[Lobby, Lobby]) -> None:  # noqa: F811
    """ann, at A, says yes first: bob at B hears so at the finished game,
    sees the rematch forming in B's lobby, and his yes starts it."""
    lobby_a, lobby_b = lobbies
    hosted_a, hosted_b = await _over_across(lobby_a, lobby_b, "SHA256:ann", "SHA256:bob")
    bob_there = _Session()
    lobby_b.sit(hosted_b, "SHA256:bob", "bob", session=bob_there)
    await until(lambda: hosted_a.seats[1].connected, "A counts bob, at B, as here")
    await _play_to_the_end(hosted_a)
    await until(lambda: hosted_b.over, "B has the game's end")

    again_a = lobby_a.play_again(hosted_a, "SHA256:ann", "ann")
    await until(lambda: any(line.text == REMATCH_WANTED for line in hosted_b.chat),
                "bob at B hears ann wants a rematch")
    await until(lambda: "waiting for bob to say yes" in getattr(
        lobby_b.find(hosted_a.code), "status", str)(), "B lists the rematch forming at A")
    listed = lobby_b.find(hosted_a.code)
    assert listed is not None and listed.is_rematch and listed.pending == {1}

    again_b = lobby_b.play_again(hosted_b, "SHA256:bob", "bob", session=bob_there)
    assert again_b is listed
    lobby_b.away(hosted_b, "SHA256:bob", session=bob_there)  # his screen goes to it
    await until(lambda: again_a.started, "bob's yes starts the rematch at A")
    assert [s.bot for s in again_a.seats] == [None, None]  # nobody was given a bot
    await until(lambda: again_b.table_id is not None and again_b.table_id == again_a.table_id,
                "B's copy is the new game")
    with pytest.raises(LobbyError, match="started without you"):  # a yes too late
        lobby_b.play_again(hosted_b, "SHA256:bob", "bob")
    assert lobby_b.find(hosted_a.code) is again_b  # no second rematch made up at B


async def test_a_rematch_asked_here_outlives_its_answer_time_while_its_driver_has_it(
        lobbies: tuple[Lobby, Lobby]) -> None:  # noqa: F811
    """B's answer time for a rematch it asked ends, but A, alive, took it up
    (A's own answer timer decides): bob keeps waiting, and ann's yes at A
    starts it for him."""
    lobby_a, lobby_b = lobbies
    hosted_a, hosted_b = await _over_across(lobby_a, lobby_b, "SHA256:ann", "SHA256:bob")
    code = hosted_a.code
    bob_there = _Session()
    lobby_b.sit(hosted_b, "SHA256:bob", "bob", session=bob_there)
    await until(lambda: hosted_a.seats[1].connected, "A counts bob, at B, as here")
    await _play_to_the_end(hosted_a)
    await until(lambda: hosted_b.over, "B has the game's end")

    guess = lobby_b.play_again(hosted_b, "SHA256:bob", "bob", session=bob_there)
    lobby_b.away(hosted_b, "SHA256:bob", session=bob_there)  # his screen goes to it
    await until(lambda: getattr(lobby_a.find(code), "is_rematch", False), "A forms it")
    crossing_b = lobby_b.crossing
    assert isinstance(crossing_b, crossing.Crossing)
    await until(lambda: crossing_b._forming_at.get(code) is not None, "B hears A form it")
    # B's answer time ends now (its timer, at 60 s, would end it later):
    assert guess.answer_timer is not None
    guess.answer_timer.cancel()
    crossing_b._unanswered(guess)
    assert lobby_b.find(code) is guess and guess.gone_why is None and not guess.started
    lobby_a.play_again(hosted_a, "SHA256:ann", "ann")
    await until(lambda: guess.started, "ann's yes starts the rematch bob waits at")


async def test_who_waits_at_a_forming_table_talks_and_leaves_across_servers(
        start_server: StartServer, lobbies: tuple[Lobby, Lobby]) -> None:  # noqa: F811
    """ann waits at her table of three on A; bob sits down at it through B:
    each sees who has sat, the table's name, and what the other says; bob
    leaves, and his seat is free again on ann's screen."""
    lobby_a, lobby_b = lobbies
    server_a = await start_server(lobby_factory(lobby_a))
    server_b = await start_server(lobby_factory(lobby_b))
    ann_key = asyncssh.generate_private_key("ssh-ed25519")
    hosted_a = lobby_a.create(_fingerprint(ann_key), "ann", title="Trio", players=3, bots=0,
                              private=False)
    code = hosted_a.code
    await until(lambda: lobby_b.find(code) is not None, "B lists A's forming table")
    async with await connect(server_a, ann_key, username="ann") as ann_conn, \
            await connect(server_b, username="bob") as bob_conn:
        ann = await Screen.open(ann_conn, 100, 30, command=f"join {code}")
        await ann.wait_for("Waiting for 2 players")
        bob = await Screen.open(bob_conn, 100, 30, command=f"join {code}")
        await bob.wait_for("Waiting for 1 player")
        assert "Trio" in bob.text and "seat 1: ann" in bob.text and "seat 2: bob" in bob.text
        await ann.wait_for("seat 2: bob")

        bob.press(b"c")
        await bob.wait_for("Say to the table")
        bob.press(b"hello from b\r")
        await ann.wait_for("bob: hello from b")
        ann.press(b"c")
        await ann.wait_for("Say to the table")
        ann.press(b"hi bob\r")
        await bob.wait_for("ann: hi bob")
        assert bob.text.count("bob: hello from b") == 1  # not echoed back

        bob.press(b"\x1b")  # leaves the table
        await bob.wait_for("lobby — you are bob")
        await ann.wait_for("Waiting for 2 players")
        assert "seat 2: (free)" in ann.text
        assert hosted_a.free_seats == [1, 2] and not hosted_a.started


async def test_who_waits_at_a_table_forming_at_a_server_that_stopped_is_told(
        start_server: StartServer, postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A, where the table forms, goes silent: bob, waiting at it through B,
    is told and back in B's lobby, where the table is no longer listed."""
    monkeypatch.setattr(crossing, "ALIVE_EVERY", 0.05)
    monkeypatch.setattr(crossing, "GONE_AFTER", 0.5)
    lobby_a = await shared_lobby(postgres_url, 7)
    lobby_b = await shared_lobby(postgres_url, 8)
    closed_a = False
    try:
        server_b = await start_server(lobby_factory(lobby_b))
        hosted_a = lobby_a.create("SHA256:ann", "ann", title="Trio", players=3, bots=0,
                                  private=False)
        code = hosted_a.code
        await until(lambda: lobby_b.find(code) is not None, "B lists A's forming table")
        async with await connect(server_b, username="bob") as bob_conn:
            bob = await Screen.open(bob_conn, 100, 30, command=f"join {code}")
            await bob.wait_for("Waiting for 1 player")
            await lobby_a.close()  # silent from now on
            closed_a = True
            await bob.wait_for("is gone")
            await bob.wait_for("lobby — you are bob")
            # A's last news may still be on its way (a loaded machine) and list
            # the table again until A is found silent once more.
            await until(lambda: lobby_b.find(code) is None, "B no longer lists A's table")
    finally:
        await lobby_b.close()
        if not closed_a:
            await lobby_a.close()


async def test_a_rematch_asked_here_whose_driver_died_times_out_with_a_message(
        start_server: StartServer, postgres_url: str) -> None:
    """bob, at B, says yes to the rematch of a game A drove, but A died at
    the game's end: nobody will ever form it. Like a rematch at one server,
    it waits its answer time (absence_bot_after), then bob is told why and
    is back in B's lobby, the rematch no longer listed."""
    lobby_a = await shared_lobby(postgres_url, 11)
    lobby_b = await shared_lobby(postgres_url, 12)
    closed_a = False
    try:
        server_b = await start_server(lobby_factory(lobby_b))
        bob_key = asyncssh.generate_private_key("ssh-ed25519")
        hosted_a, hosted_b = await _over_across(lobby_a, lobby_b, "SHA256:ann",
                                                _fingerprint(bob_key))
        code = hosted_a.code
        async with await connect(server_b, bob_key, username="bob") as bob_conn:
            bob = await Screen.open(bob_conn, 100, 30, command=f"join {code}")
            await bob.wait_for("bob — your towers")
            await until(lambda: hosted_a.seats[1].connected, "A counts bob, at B, as here")
            await _play_to_the_end(hosted_a)
            await bob.wait_for("The game is over")
            await lobby_a.close()  # the driver dies with the game's end
            closed_a = True

            lobby_b.absence_bot_after = 1.0
            bob.press(b"n")
            # B's guess of the rematch (kept there once unlisted; its waiting
            # screen may be gone before a busy test sees it)
            await until(lambda: hosted_b.rematch is not None, "B guesses the rematch")
            guess = hosted_b.rematch
            assert guess is not None and guess.is_rematch and guess.remote
            await bob.wait_for("lobby — you are bob")
            await bob.wait_for("did not start")
            toast = " ".join(" ".join(line.replace("▌", " ").split())
                             for line in bob.text.splitlines())
            assert (f"the rematch at table {code} did not start: the server that ran the "
                    "game did not answer") in toast
            assert lobby_b.find(code) is not guess and guess.answer_timer is None
            assert guess.gone_why == crossing.UNANSWERED
    finally:
        await lobby_b.close()
        if not closed_a:
            await lobby_a.close()
