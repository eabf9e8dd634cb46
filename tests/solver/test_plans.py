"""Plans: their JSON and record forms, the order of steps, the tie-break, the words."""

from __future__ import annotations

import pytest

from fivetowers.games.five_towers.rules import Board, Build, Position, TowerType, Variant, card
from fivetowers.games.five_towers.solver import Plan, exhaustive_hint, hint
from fivetowers.games.five_towers.solver.plans import make_plan, order_steps
from fivetowers.games.five_towers.rules.search import CANDY, SAND, SCRAP, TREE
from fivetowers.games.five_towers.solver.problem import Problem, openness, top_openness

from tests.solver.helpers import carry_out


def position(variant: str, towers: dict[str, list[int]], display: list[str],
             teardown: list[str] | None = None) -> Position:
    return Position.from_json({"format": "fivetowers-position/1", "variant": variant,
                               "towers": towers, "teardown": teardown or [],
                               "display": display})


def test_plan_json_and_build() -> None:
    pos = position("great-powers", {"candy": [14, 10]}, ["candy-11", "scrap-15"])
    plan = hint(pos).plans[2]
    assert plan.to_json() == {
        "bid": 2, "take": ["candy-11", "scrap-15"], "pay": 0, "teardown": "candy",
        "steps": [{"card": "candy-11"}, {"card": "scrap-15"},
                  {"card": "candy-10", "from": "teardown"}],
        "gain": 3}
    assert plan.to_json(explain=True)["explain"] == plan.explanation
    build = plan.to_build(2)
    assert isinstance(build, Build) and build.seat == 2
    assert build.plan_json() == {k: v for k, v in plan.to_json().items()
                                 if k not in ("bid", "gain")}
    out = hint(pos).to_json()
    assert out["max_bid"] == 2 and [p["bid"] for p in out["plans"]] == [0, 1, 2]


def test_plans_are_frozen() -> None:
    plan = hint(position("base", {}, ["candy-3"])).plans[1]
    with pytest.raises(AttributeError):
        plan.gain = 5  # type: ignore[misc]


def test_bid_zero_builds_nothing() -> None:
    plan = hint(position("base", {"candy": [4]}, ["candy-3"])).plans[0]
    assert plan == Plan(0, (), 0, None, (), 0, "build nothing; +0")


def test_tie_break_prefers_no_teardown() -> None:
    # Bid 1: scrap-15 alone, or tear down candy-10, build scrap-15 and rebuild
    # candy-10: the same towers and score, so the same gain (+1).
    pos = position("great-powers", {"candy": [14, 10]}, ["candy-11", "scrap-15"])
    problem = Problem.from_position(pos)
    torn, _ = make_plan(problem, 0, CANDY, [(SCRAP, 15, False, False), (CANDY, 10, True, False)])
    assert carry_out(pos, torn)[0] == 1
    for answer in (hint(pos), exhaustive_hint(pos)):
        assert answer.plans[1].gain == 1 and answer.plans[1].teardown is None


def test_tie_break_keeps_tops_high_and_8s_exposed() -> None:
    pos = position("base", {"candy": [14]}, ["candy-3", "candy-11"])
    for answer in (hint(pos), exhaustive_hint(pos)):
        assert [str(c) for c in answer.plans[1].take] == ["candy-11"]
    pos = position("base", {"candy": [14]}, ["candy-12", "candy-8"])
    for answer in (hint(pos), exhaustive_hint(pos)):
        assert [str(c) for c in answer.plans[1].take] == ["candy-8"]


def test_tie_break_pays_fewer_tree_cards() -> None:
    # Bid 2 with tree [15, 14] and candy-3, scary-2 (gain +2 by taking both) or
    # paying: taking both and paying nothing is the only best plan.
    pos = position("great-powers", {"tree": [15, 14]}, ["candy-3", "scary-2"])
    assert hint(pos).plans[2].pay == 0


def test_openness() -> None:
    assert top_openness(None) == top_openness(8) == 16
    assert top_openness(0) == 0
    assert top_openness(1) == 2  # a 0, or a 9
    assert top_openness(9) == 10  # 0..8, or a 9
    assert top_openness(10) == 10 and top_openness(15) == 15
    assert openness([[], [15, 8], [3, 0], [12], [9]]) == 16 + 16 + 0 + 12 + 10


def test_order_steps_rebuilds_right_after_scrap() -> None:
    top = [[(10, True), (5, False)], [], [], [(15, False), (12, True), (10, False)], []]
    steps = order_steps(top, [])
    assert steps == [(SCRAP, 15, False, False), (SCRAP, 12, True, False),
                     (CANDY, 10, True, False), (CANDY, 5, False, False),
                     (SCRAP, 10, False, False)]


def test_order_steps_sand_bottom_and_refusals() -> None:
    steps = order_steps([[], [], [], [], [(7, False)]], [(8, False), (12, False)])
    assert steps == [(SAND, 7, False, False), (SAND, 8, False, True), (SAND, 12, False, True)]
    with pytest.raises(ValueError):  # no scrap card to rebuild after
        order_steps([[(3, True)], [], [], [], []], [])
    with pytest.raises(ValueError):  # the first scrap card cannot come from the pile
        order_steps([[], [], [], [(4, True)], []], [])
    with pytest.raises(ValueError):  # two rebuilds, one scrap card
        order_steps([[(3, True)], [(2, True)], [], [(9, False)], []], [])


def test_explanations() -> None:
    pos = position("base", {"candy": [14, 10], "sand": [6]}, ["candy-11", "scrap-15", "sand-7"],
                   ["candy-9"])
    texts = [p.explanation for p in exhaustive_hint(pos).plans]
    assert texts[0] == "build nothing; +0"
    assert texts[1] == "build scrap-15; +1"
    assert texts[2].startswith("tear down ") and texts[2].endswith("; -1")
    pos = position("great-powers", {"tree": [15, 14, 13]},
                   ["candy-5", "scary-4", "sand-3", "scrap-2", "tree-1"])
    plan = hint(pos).plans[6]
    assert plan.explanation == ("pay 2 tree cards (tree-13, tree-14), build candy-5, scary-4, "
                                "sand-3, scrap-2; +0")
    pos = position("base", {"candy": [5]}, ["candy-0"])
    assert hint(pos).plans[1].explanation == "build candy-0, candy tower topped (counts double); +4"


def test_pairs_and_main_tower_count() -> None:
    # Great Powers: scary-7 pairs with candy-7 (+3), and the tower grows (+1, main +1).
    pos = position("great-powers", {"candy": [9, 7], "scary": [12]}, ["scary-7", "scary-11"])
    plans = hint(pos).plans
    assert [str(c) for c in plans[1].take] == ["scary-7"] and plans[1].gain == 1 + 3
    base = position("base", {"candy": [9, 7], "scary": [12]}, ["scary-7", "scary-11"])
    assert hint(base).plans[1].gain == 1


def test_position_is_not_changed() -> None:
    pos = position("great-powers", {"candy": [14, 10], "tree": [9, 4]},
                   ["candy-11", "scrap-15", "tree-2"], ["candy-3"])
    before = pos.to_json()
    hint(pos)
    exhaustive_hint(pos)
    assert pos.to_json() == before


def test_empty_display() -> None:
    pos = Position(Variant.BASE, Board(), [])
    assert hint(pos).max_bid == 0 and exhaustive_hint(pos).max_bid == 0
    tree = Position(Variant.GREAT_POWERS, Board(), [card("candy-3")])
    tree.board.towers[TowerType.TREE] = [12, 5]
    answer = hint(tree)
    assert answer.max_bid == 3 and answer.plans[3].pay == 2
    assert TREE == TowerType.TREE.index
