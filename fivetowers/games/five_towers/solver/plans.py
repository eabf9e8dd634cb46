"""What the solvers answer: a :class:`Plan` per bid, gathered in a :class:`Hint`.

A plan is a build the engine accepts (take, tree payment, teardown, steps in
order) with its ``gain`` (the player's score change) and a one-line
explanation in plain words. Both solvers describe a build as raw steps
``(type index, value, from the pile, under the sand tower)``; :func:`make_plan`
carries them out on the position to fill in the rest, so the gain of every
plan is computed the same way, by the engine's scoring.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from fivetowers.games.five_towers.rules.actions import Build, End, Source, Step
from fivetowers.games.five_towers.rules.cards import TYPES, Card, TowerType
from fivetowers.games.five_towers.rules.scoring import total
from fivetowers.games.five_towers.rules.search import SAND, SCRAP, TREE, card_of
from fivetowers.games.five_towers.solver.problem import Problem, Rank, openness

RawStep = tuple[int, int, bool, bool]
"""``(type index, value, from the teardown pile, under the sand tower)``."""

Link = tuple[int, bool]
"""One card a tower gains this round: ``(value, from the teardown pile)``."""


@dataclass(frozen=True, slots=True)
class Plan:
    """One legal build for a bid, and what it is worth.

    ``take`` lists the display cards (bid − pay of them) in card order;
    ``steps`` places each of them once, in order, with any scrap rebuilds
    from the teardown pile; ``gain`` is the change in the player's score.
    """

    bid: int
    take: tuple[Card, ...]
    pay: int
    teardown: TowerType | None
    steps: tuple[Step, ...]
    gain: int
    explanation: str

    def to_build(self, seat: int) -> Build:
        """The record action that carries out this plan for ``seat``."""
        return Build(seat, self.take, self.steps, self.pay, self.teardown)

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        """The plan as FORMATS.md "hint" writes it; ``explain`` adds ``"explain"``."""
        out: dict[str, Any] = {
            "bid": self.bid,
            "take": [str(c) for c in self.take],
            "pay": self.pay,
            "teardown": self.teardown.value if self.teardown else None,
            "steps": [s.to_json() for s in self.steps],
            "gain": self.gain,
        }
        if explain:
            out["explain"] = self.explanation
        return out


@dataclass(frozen=True, slots=True)
class Hint:
    """The highest bid a player can carry out and the best plan for each bid.

    ``plans[b]`` is the plan for bid ``b``, for every ``b`` in ``0..max_bid``.
    ``proven`` is False when the solver's time ran out first: every plan is
    still legal, but a plan may not be the best, and ``max_bid`` may be low.
    (Not part of :meth:`to_json`, whose format FORMATS.md fixes.)
    """

    max_bid: int
    plans: tuple[Plan, ...]
    proven: bool = True

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        return {"max_bid": self.max_bid,
                "plans": [p.to_json(explain) for p in self.plans]}

    def best(self) -> Plan:
        """The plan of highest gain over all bids (the lowest such bid)."""
        return max(self.plans, key=lambda p: (p.gain, -p.bid))


def nothing_plan() -> Plan:
    return Plan(0, (), 0, None, (), 0, "build nothing; +0")


def outcome(problem: Problem, pay: int, teardown: int | None,
            raw: Sequence[RawStep]) -> tuple[list[list[int]], list[tuple[int, int]], list[int]]:
    """Carry out a build on the position: final towers, final pile, paid values.

    Checks only what the bookkeeping needs (cards exist where they are taken
    from); the building rules themselves are the engine's to check.
    """
    towers = [list(t) for t in problem.towers]
    pile = list(problem.pile)
    paid = [towers[TREE].pop() for _ in range(pay)]
    if teardown is not None:
        pile.append((teardown, towers[teardown].pop()))
    for ti, v, from_pile, bottom in raw:
        if from_pile:
            pile.remove((ti, v))
        if bottom:
            towers[ti].insert(0, v)
        else:
            towers[ti].append(v)
    return towers, pile, paid


def make_plan(problem: Problem, pay: int, teardown: int | None,
              raw: Sequence[RawStep]) -> tuple[Plan, Rank]:
    """The plan for a build given as raw steps, and its rank (problem.py)."""
    towers, pile, paid = outcome(problem, pay, teardown, raw)
    gain = total(towers, len(pile), problem.powers) - problem.start_total()
    take = tuple(sorted(card_of((ti, v)) for ti, v, from_pile, _ in raw if not from_pile))
    steps = tuple(Step(card_of((ti, v)),
                       End.BOTTOM if bottom else End.TOP,
                       Source.TEARDOWN if from_pile else Source.HAND)
                  for ti, v, from_pile, bottom in raw)
    torn = TYPES[teardown] if teardown is not None else None
    text = explain(problem, pay, paid, teardown, raw, towers, gain)
    plan = Plan(len(take) + pay, take, pay, torn, steps, gain, text)
    rank: Rank = (gain, 0 if teardown is not None else 1, openness(towers), -pay)
    return plan, rank


def order_steps(top: Sequence[Sequence[Link]], bottom: Sequence[Link]) -> list[RawStep]:
    """An order of placements that builds every tower's chain this round.

    ``top[t]`` lists the cards tower ``t`` gains on top, in order (for an empty
    sand tower, its first card starts the tower); ``bottom`` lists the cards
    slid under the sand tower, in order. A card from the teardown pile must
    come right after a scrap card is added, one per scrap card, so: cards from
    hand go as early as they can; after each scrap card, a rebuilt scrap card
    comes next if the scrap chain has one (it triggers again), else a rebuilt
    card that another tower waits for. This succeeds whenever the first scrap
    card added comes from hand and no more cards come from the pile than
    scrap cards are added — the conditions the CP-SAT model imposes.
    """
    queues: list[list[RawStep]] = [
        [(ti, v, from_pile, False) for v, from_pile in top[ti]] for ti in range(5)]
    queues[SAND] += [(SAND, v, from_pile, True) for v, from_pile in bottom]
    heads = [0] * 5
    out: list[RawStep] = []

    def head(ti: int) -> RawStep | None:
        return queues[ti][heads[ti]] if heads[ti] < len(queues[ti]) else None

    def take(ti: int) -> None:
        step = head(ti)
        assert step is not None
        out.append(step)
        heads[ti] += 1

    others = [ti for ti in range(5) if ti != SCRAP]
    while True:
        for ti in others:  # cards from hand wait for nothing
            while (step := head(ti)) is not None and not step[2]:
                take(ti)
        scrap = head(SCRAP)
        if scrap is None:
            break
        if scrap[2]:
            raise ValueError("a scrap card from the teardown pile must follow a scrap card")
        take(SCRAP)
        while True:  # the rebuild this scrap card allows
            scrap = head(SCRAP)
            if scrap is not None and scrap[2]:
                take(SCRAP)
                continue
            waiting = [ti for ti in others if head(ti) is not None]
            if waiting:
                take(waiting[0])
            break
    if any(head(ti) is not None for ti in range(5)):
        raise ValueError("more cards from the teardown pile than scrap cards to rebuild them")
    return out


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"{n}" if n < 0 else "+0")


def _names(cards: Sequence[tuple[int, int]]) -> str:
    return ", ".join(str(card_of(p)) for p in cards)


def explain(problem: Problem, pay: int, paid: Sequence[int], teardown: int | None,
            raw: Sequence[RawStep], towers: Sequence[Sequence[int]], gain: int) -> str:
    """One line in plain words: "tear down candy-10 so candy-11 fits; +3"."""
    if not raw and not pay and teardown is None:
        return "build nothing; +0"
    parts: list[str] = []
    if pay:
        cards = ", ".join(f"tree-{v}" for v in paid)
        parts.append(f"pay {pay} tree card{'s' if pay > 1 else ''} ({cards})")
    hand = [(ti, v) for ti, v, from_pile, _ in raw if not from_pile]
    rest = hand
    if teardown is not None:
        tower = problem.towers[teardown]
        torn = tower[-1 - pay] if teardown == TREE else tower[-1]
        same = [p for p in hand if p[0] == teardown]
        what = f"tear down {card_of((teardown, torn))}"
        if same:
            what += f" so {_names(same)} {'fits' if len(same) == 1 else 'fit'}"
            rest = [p for p in hand if p[0] != teardown]
        parts.append(what)
    under = [(ti, v) for ti, v, from_pile, bottom in raw if bottom and not from_pile]
    onto = list(rest)
    for p in under:
        if p in onto:
            onto.remove(p)
    under = [p for p in under if p in rest]
    if onto:
        parts.append(f"build {_names(onto)}")
    if under:
        parts.append(f"slide {_names(under)} under the sand tower")
    parts += [f"rebuild {card_of((ti, v))} from the teardown pile after "
              f"{card_of((raw[i - 1][0], raw[i - 1][1]))}"
              for i, (ti, v, from_pile, _) in enumerate(raw) if from_pile and i]
    topped = [TYPES[ti].value for ti, v, from_pile, bottom in raw
              if v == 0 and not bottom and towers[ti] and towers[ti][-1] == 0]
    if topped:
        parts.append(f"{' and '.join(dict.fromkeys(topped))} tower topped (counts double)")
    return ", ".join(parts) + f"; {_signed(gain)}"
