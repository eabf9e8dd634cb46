"""Module-level (so worker processes can unpickle them) slow work for the pool tests."""

from __future__ import annotations

from fivetowers.games.five_towers.rules import Position
from fivetowers.games.five_towers.solver import Hint, exhaustive_hint


def exhaustive(position: Position) -> Hint:
    """The exact hint (no OR-Tools): what a worker computes in the tests."""
    return exhaustive_hint(position)
