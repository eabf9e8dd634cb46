"""Module-level (so worker processes can unpickle them) slow work for the pool tests."""

from __future__ import annotations

import random
import time
from typing import Callable

from fivetowers.games.five_towers.bots.random_bot import RandomBot
from fivetowers.games.five_towers.rules import Action, PlayerView, Position
from fivetowers.games.five_towers.solver import Hint, exhaustive_hint


def exhaustive(position: Position) -> Hint:
    """The exact hint (no OR-Tools): what a worker computes in the tests."""
    return exhaustive_hint(position)


class SpinBot:
    """A timed bot that thinks in pure Python until its clock says its time
    is up, then plays at random: it spends all the time its host gives."""

    name = "spin"

    def __init__(self, time_per_move: float) -> None:
        self.time_per_move = time_per_move
        self.timer: Callable[[], float] = time.perf_counter

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        deadline = self.timer() + self.time_per_move
        while self.timer() < deadline:
            sum(i * i for i in range(200))
        return RandomBot().choose(view, rng)


class SleepyBot(SpinBot):
    """A timed bot that waits (no CPU) until its clock says its time is up:
    only a wall-clock ceiling ends its turn."""

    name = "sleepy"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        deadline = self.timer() + self.time_per_move
        while self.timer() < deadline:
            time.sleep(0.01)
        return RandomBot().choose(view, rng)
