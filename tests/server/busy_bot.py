"""A bot and a hinter that think in pure Python for seconds (holding the GIL
whenever they run). Module-level and small, so worker processes can
unpickle them."""

from __future__ import annotations

import random
import time

from fivetowers.games.five_towers.rules import Action, PlayerView, Position
from fivetowers.games.five_towers.solver import Hint, exhaustive_hint
from fivetowers.games.five_towers.bots.random_bot import RandomBot


class BusyBot:
    name = "busy"

    def __init__(self, seconds: float = 2.0) -> None:
        self.seconds = seconds
        self.time_per_move = seconds + 2.0  # never cut short, never "late"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        end = time.monotonic() + self.seconds
        n = 0
        while time.monotonic() < end:
            n += sum(i * i for i in range(200))  # pure Python: holds the GIL
        return RandomBot().choose(view, rng)


def busy_hint(position: Position) -> Hint:
    """The exact hint, after thinking in pure Python for 10 s."""
    end = time.monotonic() + 10.0
    while time.monotonic() < end:
        sum(i * i for i in range(200))
    return exhaustive_hint(position)
