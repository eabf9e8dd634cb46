"""Everyone at a table sees who is away, when a bot takes over, and its moves."""

from __future__ import annotations

import asyncio
import random
import time

from fivetowers.games.five_towers.kind import GAME as FIVE_TOWERS
from fivetowers.games.five_towers.tui.log_lines import STAND_IN
from fivetowers.lobby.app import lobby_factory
from fivetowers.lobby.model import HostedTable, Lobby
from fivetowers.tables.seats import Seat

from tests.server.server_helpers import Screen, StartServer, connect
from tests.server.test_lobby_game import _act


async def test_an_away_player_is_marked_and_so_are_the_stand_ins_moves(
        start_server: StartServer) -> None:
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=4.0, hints=False,
                  rng=random.Random(5))
    lobby.tables["AWAY1"] = HostedTable("AWAY1", "t", FIVE_TOWERS, {"variant": "base"}, False,
                                        [Seat("", None), Seat("", None)])
    server = await start_server(lobby_factory(lobby))
    async with await connect(server, username="ann") as a_conn:
        ann = await Screen.open(a_conn, 120, 36, command="join AWAY1")
        async with await connect(server, username="bo") as b_conn:
            bo = await Screen.open(b_conn, 120, 36, command="join AWAY1")
            await bo.wait_for("bo — your towers")
            await ann.wait_for("ann — your towers")
            assert "away" not in ann.text
        # bo's connection is gone: his board and the status line say so, counting down.
        await ann.wait_for("bo is away — a bot plays in ")
        await ann.wait_for("bo · away")
        first = ann.screen.display[0]
        await ann.wait_until(lambda: ann.screen.display[0] != first
                             and "bo is away — a bot plays in " in ann.screen.display[0],
                             "counted down")
        await ann.wait_for("bo is away — a bot plays for them", timeout=10)
        await ann.wait_for("bo · away, bot plays")
        # The stand-in's moves are marked in the log as it makes them.
        deadline = time.monotonic() + 30
        while "bo: " not in ann.text or STAND_IN.strip() not in ann.text:
            assert time.monotonic() < deadline, ann.text
            await _act(ann)
            await asyncio.sleep(0.1)
        marked = [line for line in ann.screen.display if STAND_IN.strip() in line]
        assert marked and all("bo: " in line for line in marked)
        assert not any(f"ann: " in line and STAND_IN.strip() in line for line in ann.screen.display)
        ann.press(b"q")
        await ann.wait_for("5 Towers lobby")
        ann.press(b"q")
        await ann.wait_closed()
