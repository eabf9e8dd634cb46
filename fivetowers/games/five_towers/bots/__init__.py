"""Bots: each a plain class with ``choose(view, rng) -> action`` (DESIGN.md).

``make_bot("random" | "greedy" | "strong")`` makes one; :func:`think` runs a
decision in a worker thread for code on an event loop.
"""

from __future__ import annotations

from fivetowers.games.five_towers.bots.base import Bot, think
from fivetowers.games.five_towers.bots.greedy import GreedyBot
from fivetowers.games.five_towers.bots.random_bot import RandomBot
from fivetowers.games.five_towers.bots.strong import StrongBot

BOT_NAMES = ("random", "greedy", "strong")


def make_bot(name: str, time_per_move: float = 1.0) -> Bot:
    """A bot by name; ``time_per_move`` (seconds) is the strong bot's budget."""
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    if name == "strong":
        return StrongBot(time_per_move)
    raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "Bot", "GreedyBot", "RandomBot", "StrongBot", "make_bot", "think"]
