"""GoTown at hosted tables, for the server tests: the game registered, and a
player that plays a seat through the table as a screen would submit."""

from __future__ import annotations

import random
from typing import Any, Iterator

import pytest

from fivetowers.games import game_kinds, register, unregister
from fivetowers.games.gotown.bots import make_bot
from fivetowers.games.gotown.kind import GAME as GOTOWN
from fivetowers.tables.table import Table


@pytest.fixture
def gotown() -> Iterator[None]:
    """GoTown as the registry lists it (whether or not PACKAGES does)."""
    known = GOTOWN in game_kinds()
    register(GOTOWN)
    yield
    if not known:
        unregister(GOTOWN.name)


async def play_turns(table: Table[Any], seats: set[int], rng: random.Random,
                     actions: int | None = None) -> None:
    """Play ``seats`` with the greedy bot's choices (``actions`` of them, or
    to the end), waiting for the table's own bots between them."""
    bot = make_bot("greedy")
    done = 0
    while not table.over and (actions is None or done < actions):
        seat = table.game.to_move
        if seat in seats:
            await table.submit(seat, bot.choose(table.view(seat), rng))
            done += 1
        else:
            await table.wait_idle()
