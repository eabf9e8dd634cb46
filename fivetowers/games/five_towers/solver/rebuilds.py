"""Which teardown-pile cards the CP-SAT model needs as scrap-rebuild candidates.

With a large teardown pile the model offered every pile card as a rebuild,
and most of its choices were symmetric (issue 18). Offering only some of
the cards, and fixing the order among interchangeable ones, is exact — the
best rank (problem.py) stays the same — for these reasons:

* **How many rebuilds.** A card comes back from the pile only right after a
  scrap card is added, one per scrap card, and a rebuilt scrap card brings
  its own trigger. So the cards of the other four types rebuilt in one
  round are at most the scrap cards taken from the display (``limit``).
* **Interchangeable values.** For one type, call a value *distinct* when it
  is 0, 8 or 9 (the exceptions of the building rules, and the tower top); a
  value of that type's tower or display (the cards a rebuilt card may lie
  next to); for candy and scary, a value the other of the two could hold (a
  pair); or a value of which the pile holds two cards. The pile values
  strictly between two neighbouring distinct values (a *run*) compare alike
  to every other card of the tower, and among themselves stack only in
  descending order, one card of a value each. A build that uses ``k`` cards
  of a run could use its ``k`` highest in the same places instead (the
  highest of them in the top part): every step stays legal, the score is
  the same, and the new top is at least as open (between 0, 8 and 9
  openness grows with the value).
* **Equal cards** are interchangeable.

So a run keeps its highest cards — at most ``limit`` of them outside the
scrap tower, where any number may be rebuilt — and the model uses them
highest first (:attr:`Candidates.ordered`); so do the two cards of a value.
How much this removes depends on the position: on random Great Powers
positions with 30-card piles about a third of the pile; on issue 18's, with
every candy value paired against a possible scary one, little (there the LP
relaxation, cpsat.py, is what makes it fast).
"""

from __future__ import annotations

from dataclasses import dataclass

from fivetowers.games.five_towers.rules.cards import TOWER_TOP
from fivetowers.games.five_towers.rules.search import CANDY, SCARY, SCRAP, Pair
from fivetowers.games.five_towers.solver.problem import Problem

SPECIAL = frozenset({TOWER_TOP, 8, 9})  # where can_place and the score treat values apart


@dataclass(frozen=True, slots=True)
class Candidates:
    """The pile cards the model may rebuild, and the order they are used in.

    ``ordered`` lists groups of indexes into ``cards``: within a group, a card
    is rebuilt only if the one before it is (highest value first).
    """

    cards: tuple[Pair, ...]
    ordered: tuple[tuple[int, ...], ...]


def _distinct(problem: Problem, ti: int) -> set[int]:
    values = set(SPECIAL) | set(problem.towers[ti])
    values |= {v for t, v in problem.display if t == ti}
    if ti in (CANDY, SCARY):
        other = SCARY if ti == CANDY else CANDY
        values |= set(problem.towers[other])
        values |= {v for t, v in problem.display + problem.pile if t == other}
    return values


def rebuild_candidates(problem: Problem) -> Candidates:
    """The pile cards worth offering as scrap rebuilds (module docstring)."""
    limit = sum(1 for ti, _ in problem.display if ti == SCRAP)
    cards: list[Pair] = []
    ordered: list[tuple[int, ...]] = []
    for ti, tower in enumerate(problem.towers):
        if tower and tower[-1] == TOWER_TOP:
            continue  # a finished tower takes nothing
        values = sorted((v for t, v in problem.pile if t == ti), reverse=True)
        if not values:
            continue
        twice = {v for v in values if values.count(v) > 1}
        distinct = sorted(_distinct(problem, ti) | twice)
        groups: dict[tuple[int, int], list[int]] = {}
        for v in values:  # highest first
            if v in distinct:
                key = (1, v)  # equal cards of a distinct value
            else:
                key = (0, sum(1 for d in distinct if d < v))  # the run v lies in
            groups.setdefault(key, []).append(v)
        cap = len(values) if ti == SCRAP else limit
        for group in groups.values():
            first = len(cards)
            cards += [(ti, v) for v in group[:cap]]
            if len(cards) - first > 1:
                ordered.append(tuple(range(first, len(cards))))
    return Candidates(tuple(cards), tuple(ordered))
