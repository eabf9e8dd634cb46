"""Scoring (RULES.md A5, with the scary/candy pairs of Part B)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from fivetowers.games.five_towers.rules.cards import TowerType
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


def score(towers: Mapping[TowerType, Sequence[int]], pile_size: int,
          powers: bool) -> Score:
    tower_points = sum(len(t) * (2 if has_tower_top(t) else 1) for t in towers.values())
    main = max((len(t) for t in towers.values()), default=0)
    pairs = 0
    if powers:
        pairs = PAIR_BONUS * pair_count(towers[TowerType.SCARY], towers[TowerType.CANDY])
    return Score(tower_points, main, pairs, -teardown_penalty(pile_size))
