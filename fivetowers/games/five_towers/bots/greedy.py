"""The greedy bot: bids for the solver's best plan and builds it.

It looks one round ahead only. From the hint (``fivetowers.games.five_towers.solver.hint``) it
knows, for every bid, the best build and what it gains. It bids for the most
gain; between equal gains it bids higher, and it pays up to one point of
gain to outbid every opponent still to speak (their highest buildable bids
are public), since a bid that is raised gains nothing.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from fivetowers.games.five_towers.rules import Action, Bid, Pass, Phase, PlayerView, Position
from fivetowers.games.five_towers.solver.plans import Hint

SAFETY_PRICE = 1  # the gain the bot gives up to make its bid unbeatable


class GreedyBot:
    """``hint`` defaults to the solver's CP-SAT hint; tests may pass the
    exhaustive one (same answers, no OR-Tools)."""

    name = "greedy"

    def __init__(self, hint: Callable[[Position], Hint] | None = None) -> None:
        self._hint = hint

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        seat = view.seat
        if seat is None or not view.my_turn:
            raise ValueError("it is not this bot's turn")
        if self._hint is None:
            from fivetowers.games.five_towers.solver import hint  # ortools loads only when a bot thinks

            self._hint = hint
        advice = self._hint(Position.from_view(view))
        if view.phase is Phase.BUILD:
            assert view.high_bid is not None
            return advice.plans[view.high_bid].to_build(seat)
        gains = {b: advice.plans[b].gain for b in view.legal_bids}
        bid = pick_bid(gains, rivals_top(view))
        if bid is None:
            return Pass(seat) if view.may_pass else Bid(seat, min(view.legal_bids))
        return Bid(seat, bid)


def rivals_top(view: PlayerView) -> int:
    """The highest bid any opponent still to speak this round could make."""
    seat = view.seat
    assert seat is not None
    n = len(view.seats)
    # Each seat bids once a round, from the starter on: those after us, up to the starter.
    count = n - 1 if seat == view.starter else (view.starter - seat) % n - 1
    return max((view.max_bids[(seat + i) % n] for i in range(1, count + 1)), default=-1)


def pick_bid(gains: dict[int, int], rivals: int) -> int | None:
    """The bid to make from the legal bids' gains, or None to pass (or bid least)."""
    worth = [b for b, g in gains.items() if g > 0]
    if not worth:
        return None
    best = max(worth, key=lambda b: (gains[b], b))
    if best <= rivals:
        safe: Sequence[int] = [b for b in worth
                               if b > rivals and gains[b] >= gains[best] - SAFETY_PRICE]
        if safe:
            return min(safe)
    return best
