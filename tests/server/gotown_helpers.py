"""GoTown at hosted tables, for the server tests: a player that plays a seat
through the table as a screen would submit."""

from __future__ import annotations

import random
from typing import Any

from fivetowers.games.gotown.bots import make_bot
from fivetowers.tables.table import Table


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
