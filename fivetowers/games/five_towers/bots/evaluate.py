"""A quick judgement of a board: its score now plus what its towers can still take.

Both the greedy and the strong bot rank builds with it. A tower whose top is
high (or an 8) can still take most cards of its type; a low top, few; a tower
top (0) none. That future is worth more early in the game than late, so it is
weighed by the share of cards still to come. This is what makes a bot keep a
tall, open tower rather than drop a 3 onto a 14, and take a 0 (doubling a
tower) only when the tower is long or the game is ending.
"""

from __future__ import annotations

from fivetowers.games.five_towers.rules.cards import TOWER_TOP
from fivetowers.games.five_towers.rules.scoring import total
from fivetowers.games.five_towers.rules.search import Towers

# About how many more cards an open tower collects over a whole game.
FUTURE_CARDS_PER_TOWER = 5.0


def openness(tower: tuple[int, ...]) -> float:
    """The share of a type's values (0..15) that could still go onto ``tower``."""
    if not tower:
        return 1.0
    top = tower[-1]
    if top == TOWER_TOP:
        return 0.0
    if top == 8:
        return 1.0
    below = top + (1 if top < 9 else 0)  # every lower value, and a 9 onto anything
    return below / 16


def board_value(towers: Towers, pile_size: int, powers: bool, future: float,
                weight: float = FUTURE_CARDS_PER_TOWER) -> float:
    """Score now plus the towers' expected future, ``future`` in 0..1 (share of
    the game's cards still to be revealed)."""
    potential = sum(openness(t) for t in towers)
    return total(towers, pile_size, powers) + future * weight * potential
