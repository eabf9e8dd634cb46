"""A player's board: five towers and a teardown pile."""

from __future__ import annotations

from dataclasses import dataclass, field

from fivetowers.games.five_towers.rules.cards import TYPES, Card, TowerType
from fivetowers.games.five_towers.rules.scoring import Score, score
from fivetowers.games.five_towers.rules.search import Pair, Towers, pairs_of


def _empty_towers() -> dict[TowerType, list[int]]:
    return {t: [] for t in TYPES}


@dataclass
class Board:
    """Towers (values bottom → top, one list per type) and the teardown pile."""

    towers: dict[TowerType, list[int]] = field(default_factory=_empty_towers)
    teardown: list[Card] = field(default_factory=list)

    def clone(self) -> Board:
        return Board({t: list(v) for t, v in self.towers.items()}, list(self.teardown))

    def score(self, powers: bool) -> Score:
        return score(self.towers, len(self.teardown), powers)

    def towers_key(self) -> Towers:
        return tuple(tuple(self.towers[t]) for t in TYPES)

    def pile_key(self) -> tuple[Pair, ...]:
        return pairs_of(self.teardown)
