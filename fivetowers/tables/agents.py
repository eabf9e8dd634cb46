"""Bots and hints for a table, through their packages' contracts.

``fivetowers.bots.make_bot`` and ``fivetowers.solver.hint`` are used when
they exist; until then the TEMPORARY stand-ins in :mod:`.fallback`.
Both are called from worker threads (``asyncio.to_thread``), never on the
event loop.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from fivetowers.rules import TYPES, Action, Board, PlayerView, Position

BOT_KINDS = ("random", "greedy", "strong")


class Bot(Protocol):
    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


def make_bot(kind: str) -> Bot:
    """A bot of ``kind``; the random stand-in until the bots package lands."""
    try:
        from fivetowers.bots import make_bot as real  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        from fivetowers.tables.fallback import RandomFallbackBot
        return RandomFallbackBot()
    bot: Bot = real(kind)
    return bot


def bots_available() -> bool:
    try:
        from fivetowers.bots import make_bot  # type: ignore[attr-defined,unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True


def position_of(view: PlayerView) -> Position:
    """The viewer's position (FORMATS.md): their towers, own pile, the display."""
    assert view.seat is not None
    me = view.seats[view.seat]
    board = Board({t: list(me.towers[t]) for t in TYPES}, list(view.own_teardown))
    return Position(view.variant, board, list(view.display))


def compute_hint(position: Position) -> Any:
    """The solver's hint (``max_bid``, ``plans[b]``); blocking: call in a thread."""
    try:
        from fivetowers.solver import hint  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        from fivetowers.tables.fallback import fallback_hint
        return fallback_hint(position)
    return hint(position)
