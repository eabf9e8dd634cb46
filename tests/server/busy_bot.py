"""A bot that thinks in pure Python for a while (holding the GIL all along),
then passes or bids least. Module-level and small, so worker processes can
unpickle it."""

from __future__ import annotations

import random
import time

from fivetowers.rules import Action, PlayerView
from fivetowers.tables.workers import cheap_move


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
        return cheap_move(view, rng)
