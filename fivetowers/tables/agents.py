"""Bots and hints for a table: the bots and solver packages, called from
worker threads (``asyncio.to_thread``), never on the event loop.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from fivetowers.bots import make_bot as _make_bot
from fivetowers.rules import Action, PlayerView, Position

class Bot(Protocol):
    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


def make_bot(kind: str) -> Bot:
    bot: Bot = _make_bot(kind)
    return bot


def compute_hint(position: Position) -> Any:
    """The solver's hint (``max_bid``, ``plans[b]``); blocking: call in a thread."""
    from fivetowers.solver import hint  # lazily: it loads OR-Tools

    return hint(position)
