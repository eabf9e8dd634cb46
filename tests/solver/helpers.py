"""Checking a hint against the engine: every plan legal, every gain its score change."""

from __future__ import annotations

from fivetowers.games.five_towers.rules import BuildSession, Position
from fivetowers.games.five_towers.rules.search import max_bid, pairs_of
from fivetowers.games.five_towers.solver import Hint, Plan
from fivetowers.games.five_towers.solver.problem import Rank, openness


def engine_max_bid(position: Position) -> int:
    board = position.board
    return max_bid(board.towers_key(), board.pile_key(), pairs_of(position.display),
                   position.powers)


def carry_out(position: Position, plan: Plan) -> Rank:
    """Carry ``plan`` out with the engine's BuildSession (as ``Game`` does for a
    build action); fail if the engine refuses it or its gain is not the score
    change. Returns the plan's rank, recomputed from the engine's board."""
    session = BuildSession(position.board, position.display, position.powers, plan.bid)
    session.choose(plan.take, plan.pay, plan.teardown, check=False)
    for step in plan.steps:
        session.place(step)
    assert session.done, f"{plan}: cards taken but not placed"
    before = position.board.score(position.powers).total
    after = session.board.score(position.powers).total
    assert after - before == plan.gain, f"{plan}: gain {plan.gain}, score change {after - before}"
    assert plan.explanation.endswith(f"{plan.gain:+d}"), plan.explanation
    towers = [session.board.towers[t] for t in session.board.towers]
    return (plan.gain, 0 if plan.teardown else 1, openness(towers), -plan.pay)


def check_hint(position: Position, hint: Hint) -> list[Rank]:
    """Every plan legal and worth its gain; returns the ranks, bid by bid."""
    assert len(hint.plans) == hint.max_bid + 1
    ranks = []
    for bid, plan in enumerate(hint.plans):
        assert plan.bid == bid
        assert len(plan.take) + plan.pay == bid
        ranks.append(carry_out(position, plan))
    assert hint.plans[0].gain == 0 and not hint.plans[0].steps
    return ranks
