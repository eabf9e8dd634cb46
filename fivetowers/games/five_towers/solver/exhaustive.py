"""The exact search: every build, step by step, scored — the oracle of the CP-SAT model.

For every tree payment and every teardown (none, or the top of one tower),
a depth-first search walks every sequence of legal steps the engine allows
(RULES.md A2, B: the engine's own :func:`fivetowers.games.five_towers.rules.search.placements`
for tops, sand ends and scrap rebuilds) and keeps, for each number of display
cards placed, the best final state. States are memoised, so the orders of
placements that reach the same towers are searched once. The bid of a build
is the cards taken plus the tree cards paid.
"""

from __future__ import annotations

from fivetowers.games.five_towers.rules.cards import TOWER_TOP
from fivetowers.games.five_towers.rules.search import (
    BOTTOM_END, NO_END, SAND, SCRAP, TREE, Pair, Towers, placements,
)
from fivetowers.games.five_towers.solver.plans import Plan, RawStep, make_plan, nothing_plan
from fivetowers.games.five_towers.rules.scoring import total
from fivetowers.games.five_towers.solver.problem import Problem, Rank, openness

Value = tuple[int, int]  # (final score, openness): the parts of a rank the steps decide
Found = dict[int, tuple[Value, tuple[RawStep, ...]]]  # display cards placed -> best
State = tuple[Towers, tuple[Pair, ...], tuple[Pair, ...], bool, int]


class _Search:
    def __init__(self, powers: bool) -> None:
        self.powers = powers
        self.memo: dict[State, Found] = {}

    def run(self, towers: Towers, display: tuple[Pair, ...], pile: tuple[Pair, ...],
            trigger: bool, sand_end: int) -> Found:
        key = (towers, display, pile, trigger, sand_end)
        found = self.memo.get(key)
        if found is not None:
            return found
        found = {0: ((total(towers, len(pile), self.powers), openness(towers)), ())}
        powers = self.powers
        for source, pool in ((False, display), (True, pile if trigger else ())):
            prev: Pair | None = None
            for i, pair in enumerate(pool):
                if pair == prev:
                    continue
                prev = pair
                ti, v = pair
                rest = pool[:i] + pool[i + 1:]
                for after, end in placements(towers, ti, v, sand_end, powers):
                    bottom = ti == SAND and end == BOTTOM_END and bool(towers[ti])
                    step: RawStep = (ti, v, source, bottom)
                    retrigger = powers and ti == SCRAP
                    if source:
                        sub = self.run(after, display, rest, retrigger, end)
                    else:
                        sub = self.run(after, rest, pile, retrigger, end)
                    added = 0 if source else 1
                    for n, (value, steps) in sub.items():
                        have = found.get(n + added)
                        if have is None or value > have[0]:
                            found[n + added] = (value, (step,) + steps)
        self.memo[key] = found
        return found


def exhaustive_plans(problem: Problem) -> tuple[Plan, ...]:
    """The best plan of every bid ``0..max_bid`` by exhaustive search."""
    search = _Search(problem.powers)
    start = problem.start_total()
    best: dict[int, tuple[Rank, Plan]] = {}
    for pay in range(problem.max_pay + 1):
        towers_paid = problem.towers
        display = problem.display
        if pay:
            tree = towers_paid[TREE]
            towers_paid = towers_paid[:TREE] + (tree[:-pay],) + towers_paid[TREE + 1:]
            display = tuple(p for p in display if p[0] != TREE)
        tears: list[int | None] = [None]
        tears += [ti for ti, t in enumerate(towers_paid) if t and t[-1] != TOWER_TOP]
        for torn in tears:
            towers = towers_paid
            pile = problem.pile
            if torn is not None:
                tower = towers[torn]
                towers = towers[:torn] + (tower[:-1],) + towers[torn + 1:]
                pile = tuple(sorted(pile + ((torn, tower[-1]),)))
            found = search.run(towers, display, pile, False, NO_END)
            for n, ((score, opened), steps) in found.items():
                bid = n + pay
                if bid == 0:
                    continue  # bid 0 builds nothing at all (RULES.md A3.6)
                rank: Rank = (score - start, 0 if torn is not None else 1, opened, -pay)
                have = best.get(bid)
                if have is None or rank > have[0]:
                    plan, check = make_plan(problem, pay, torn, steps)
                    assert check == rank, (check, rank)
                    best[bid] = (rank, plan)
    plans = [nothing_plan()]
    for bid in range(1, len(best) + 1):
        plans.append(best[bid][1])  # feasible bids are 0..max_bid (rules/search.py)
    return tuple(plans)
