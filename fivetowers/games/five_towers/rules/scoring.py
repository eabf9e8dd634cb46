"""Scoring (RULES.md A5, with the scary/candy pairs of Part B)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from fivetowers.games.five_towers.rules.cards import TOWER_TOP, TowerType
from fivetowers.games.five_towers.rules.towers import has_tower_top

PAIR_BONUS = 3


@dataclass(frozen=True, slots=True)
class Score:
    """A player's score and where it comes from; ``teardown`` is negative."""

    towers: int
    main: int
    pairs: int
    teardown: int

    @property
    def total(self) -> int:
        return self.towers + self.main + self.pairs + self.teardown

    def breakdown_json(self) -> dict[str, Any]:
        return {"towers": self.towers, "main": self.main, "pairs": self.pairs,
                "teardown": self.teardown}


def teardown_penalty(pile_size: int) -> int:
    """The cost of a teardown pile: 1 + 2 + ... + n."""
    return pile_size * (pile_size + 1) // 2


def pair_count(scary: Sequence[int], candy: Sequence[int]) -> int:
    """Pairs of equal values, one card in each tower, each card in one pair."""
    a, b = Counter(scary), Counter(candy)
    return sum(min(n, b[v]) for v, n in a.items())


def tower_points(tower: Sequence[int]) -> int:
    """A card a point, every card twice under a tower top."""
    return len(tower) * (2 if has_tower_top(tower) else 1)


def score(towers: Mapping[TowerType, Sequence[int]], pile_size: int,
          powers: bool) -> Score:
    points = sum(tower_points(t) for t in towers.values())
    main = max((len(t) for t in towers.values()), default=0)
    pairs = 0
    if powers:
        pairs = PAIR_BONUS * pair_count(towers[TowerType.SCARY], towers[TowerType.CANDY])
    return Score(points, main, pairs, -teardown_penalty(pile_size))


_CANDY, _SCARY = TowerType.CANDY.index, TowerType.SCARY.index


def total(towers: Sequence[Sequence[int]], pile_size: int, powers: bool) -> int:
    """``score(...).total`` of towers given in ``TYPES`` order, without the
    breakdown: for the searches and simulations that score many boards."""
    points = main = 0
    for tower in towers:
        n = len(tower)
        points += 2 * n if n and tower[-1] == TOWER_TOP else n  # tower_points, inlined: hot
        main = max(main, n)
    if powers:
        points += PAIR_BONUS * pair_count(towers[_SCARY], towers[_CANDY])
    return points + main - teardown_penalty(pile_size)
