"""A position as the solvers see it, and what a plan is worth.

Both solvers (the CP-SAT model and the exhaustive search) work on
:class:`Problem`: towers as a tuple of value tuples in type order, the
teardown pile and the display as sorted ``(type index, value)`` pairs, and the
variant's powers flag. :class:`Problem` is hashable, so it is also the key of
the hint cache (display order and pile order do not change a hint).

A plan's worth is its :data:`Rank`, compared as a tuple, larger is better.
This is the project's tie-break rule between plans of equal gain:

1. ``gain`` — the change in the player's score (RULES.md A5, and Part B under
   Great Powers): tower cards (doubled under a tower top), the main tower, the
   scary/candy pairs, the teardown penalty ``n(n+1)/2``; tree cards paid
   leave the tree tower.
2. no teardown beats a teardown — at equal gain, leave the towers alone (a
   card torn down and rebuilt the same round gains nothing);
3. ``openness``: the sum over the five towers of how many of the 16 values
   could go onto each top next — an empty tower or an exposed 8 takes all 16,
   a top ``t`` takes the ``t`` lower values plus a 9 (so ``t + 1`` for ``t``
   up to 9, ``t`` above), a tower top (0) takes none. High tops and exposed
   8s are kept, which leaves the most cards buildable in later rounds;
4. fewer tree cards paid (Great Powers), keeping the tree for a later round.

Plans equal on all four are equally good; the solvers may return either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from fivetowers.games.five_towers.rules.cards import TOWER_TOP, TYPES
from fivetowers.games.five_towers.rules.position import Position
from fivetowers.games.five_towers.rules.scoring import total
from fivetowers.games.five_towers.rules.search import TREE, Pair, Towers

Rank = tuple[int, int, int, int]
"""``(gain, 1 if no teardown else 0, openness, -pay)``: larger is better."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One player's position, normalised: what the solvers need, hashable."""

    towers: Towers
    pile: tuple[Pair, ...]
    display: tuple[Pair, ...]
    powers: bool

    @classmethod
    def from_position(cls, position: Position) -> Problem:
        board = position.board
        return cls(
            tuple(tuple(board.towers[t]) for t in TYPES),
            tuple(sorted((c.type.index, c.value) for c in board.teardown)),
            tuple(sorted((c.type.index, c.value) for c in position.display)),
            position.powers,
        )

    @property
    def max_pay(self) -> int:
        """Most tree cards this player could pay (Great Powers tree)."""
        tree = self.towers[TREE]
        if not self.powers or not tree or tree[-1] == TOWER_TOP:
            return 0
        return len(tree)

    def start_total(self) -> int:
        return total(self.towers, len(self.pile), self.powers)


def top_openness(top: int | None) -> int:
    """How many of the 16 values could go onto this top next (None: empty tower)."""
    if top is None or top == 8:
        return 16
    if top == TOWER_TOP:
        return 0
    return top + 1 if top <= 9 else top


def openness(towers: Sequence[Sequence[int]]) -> int:
    return sum(top_openness(t[-1] if t else None) for t in towers)
