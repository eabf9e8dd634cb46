"""Stopping the server closes every bot table at once (issue 11: with bot
tables a stop took more than 10 s, the tables closing one after another)."""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

from fivetowers.games.five_towers.kind import GAME
from fivetowers.games.five_towers.rules import Game, Variant
from fivetowers.lobby.model import HostedTable, Lobby
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table
from fivetowers.tables.workers import Workers

from tests.tui.helpers import PassiveBot

TABLES = 4


async def test_lobby_close_closes_every_table_at_once() -> None:
    lobby = Lobby(bot_delay=0.0, absence_bot_after=3600)
    commits = asyncio.Event()  # the store holds every table's first bot move
    waiting: list[int] = []
    tables: list[Table] = []
    def keeper(t: int) -> Callable[[Game], Awaitable[None]]:
        async def kept(game: Game) -> None:
            waiting.append(t)
            await commits.wait()
        return kept

    for t in range(TABLES):
        seats = [Seat("Ann (bot)", bot="passive"), Seat("Bo (bot)", bot="passive")]
        table = Table(Game(["Ann", "Bo"], Variant.BASE, seed=t), seats, bot_delay=0,
                      on_action=keeper(t), bots={0: PassiveBot(), 1: PassiveBot()},
                      workers=Workers(threads=True))
        lobby.tables[f"T{t}"] = HostedTable(f"T{t}", f"table {t}", GAME, {"variant": "base"}, False,
                                            seats, table=table)
        tables.append(table)
        table.start()
    for _ in range(500):  # every table's bot has moved: its move is being kept
        if len(waiting) == TABLES:
            break
        await asyncio.sleep(0.01)
    assert sorted(waiting) == list(range(TABLES))
    closing = asyncio.create_task(lobby.close())
    for _ in range(20):
        await asyncio.sleep(0.01)
    # Each table's close has begun before any commit is answered: one after
    # another, the second would wait for the first table's commit.
    cancelled = [t._bot_task is not None and t._bot_task.cancelling() > 0 for t in tables]
    done = [t._bot_task is not None and t._bot_task.done() for t in tables]
    commits.set()
    await asyncio.wait_for(closing, 10)
    assert all(c or d for c, d in zip(cancelled, done)), (cancelled, done)
    assert all(t._bot_task is not None and t._bot_task.done() for t in tables)
    # The moves the store kept are the tables' (nothing kept is lost).
    assert all(t.version == 1 for t in tables)
