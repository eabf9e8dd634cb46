"""Playing again at a GoTown table whose game is over: same table, same
players, a new GoTown game, from the hosted end screen's "play again"."""

from __future__ import annotations

import random

import asyncssh

from fivetowers.games.gotown.bots import make_bot
from fivetowers.games.gotown.kind import GAME as GOTOWN
from fivetowers.games.gotown.rules import Game
from fivetowers.lobby.app import lobby_factory
from fivetowers.lobby.model import HostedTable, Lobby
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table

from tests.server.server_helpers import Screen, StartServer, connect


def _finished(lobby: Lobby, ann: str, bo: str) -> HostedTable:
    """ann, bo and a bot have played a GoTown game to its end at table OVER1."""
    seats = [Seat("ann", identity=ann), Seat("bo", identity=bo),
             Seat("Peter (bot)", bot="greedy")]
    game = Game([s.name for s in seats], seed=3)
    bot, rng = make_bot("greedy"), random.Random(3)
    while not game.over:
        assert game.to_move is not None
        game.apply(bot.choose(game.view(game.to_move), rng))
    hosted = HostedTable("OVER1", "friends", GOTOWN, {"floors": "5"}, False, seats)
    hosted.table = Table(game, seats, kind=GOTOWN)
    assert hosted.over
    lobby.tables[hosted.code] = hosted
    return hosted


async def test_over_ssh_both_say_yes_and_play_gotown_again(start_server: StartServer) -> None:
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=60.0, hints=False,
                  rng=random.Random(11))
    ann_key = asyncssh.generate_private_key("ssh-ed25519")
    bo_key = asyncssh.generate_private_key("ssh-ed25519")
    old = _finished(lobby, ann_key.get_fingerprint("sha256"), bo_key.get_fingerprint("sha256"))
    server = await start_server(lobby_factory(lobby))
    async with await connect(server, ann_key, username="ann") as a_conn, \
            await connect(server, bo_key, username="bo") as b_conn:
        ann = await Screen.open(a_conn, 100, 30, command="join OVER1")
        bo = await Screen.open(b_conn, 100, 30, command="join OVER1")
        for screen in (ann, bo):
            await screen.wait_for("The game is over")
            await screen.wait_for("q back to the lobby")
        ann.press(b"n")
        await ann.wait_for("waiting for bo to say yes")
        await bo.wait_for("ann: wants a rematch")
        bo.press(b"n")
        for screen, name in ((ann, "ann"), (bo, "bo")):
            await screen.wait_for(f"{name} (you)")
        again = lobby.find("OVER1")
        assert again is not None and again is not old and again.started
        assert again.kind is GOTOWN and again.table is not None
        assert isinstance(again.table.game, Game) and not again.table.over
        assert again.table.game.seed != old.table.game.seed  # type: ignore[union-attr]
        for screen in (ann, bo):
            screen.press(b"q")
            await screen.wait_for("5 Towers lobby")
            screen.press(b"q")
            await screen.wait_closed()
