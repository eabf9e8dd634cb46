"""Every golden position gives its expected max bid and gains, by both solvers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fivetowers.games.five_towers.rules import Position
from fivetowers.games.five_towers.solver import exhaustive_hint, hint

from tests.conftest import FIXTURES
from tests.solver.helpers import check_hint, engine_max_bid

POSITIONS = sorted(p for p in (FIXTURES / "positions").glob("*.json")
                   if not p.name.endswith(".expected.json"))


def _load(path: Path) -> tuple[Position, dict[str, object]]:
    position = Position.from_json(json.loads(path.read_text()))
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    return position, expected


def test_there_are_fixtures() -> None:
    assert len(POSITIONS) >= 30


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.stem)
def test_fixture(path: Path) -> None:
    position, expected = _load(path)
    for solve in (hint, exhaustive_hint):
        answer = solve(position)
        assert answer.max_bid == expected["max_bid"], solve.__name__
        assert [p.gain for p in answer.plans] == expected["gains"], solve.__name__
        check_hint(position, answer)
    assert answer.max_bid == engine_max_bid(position)


def test_formats_example_prints_as_formats_md_says() -> None:
    position, _ = _load(FIXTURES / "positions" / "formats-example.json")
    out = hint(position).to_json()
    assert out["max_bid"] == 2
    assert out["plans"][:2] == [
        {"bid": 0, "take": [], "pay": 0, "teardown": None, "steps": [], "gain": 0},
        {"bid": 1, "take": ["scrap-15"], "pay": 0, "teardown": None,
         "steps": [{"card": "scrap-15"}], "gain": 1},
    ]
    two = out["plans"][2]
    # FORMATS.md: bid 2 forces a teardown (candy-10, or sand-6 for sand-7); -1.
    assert two["gain"] == -1 and two["teardown"] in ("candy", "sand") and two["pay"] == 0
    assert set(two) == {"bid", "take", "pay", "teardown", "steps", "gain"}


def test_rulebook_examples_explained() -> None:
    position, _ = _load(FIXTURES / "positions" / "gp-scrap-rebuild.json")
    plan = hint(position).plans[2]
    assert plan.teardown is not None and plan.teardown.value == "candy"
    assert [s.to_json() for s in plan.steps] == [
        {"card": "candy-11"}, {"card": "scrap-15"}, {"card": "candy-10", "from": "teardown"}]
    assert plan.explanation == ("tear down candy-10 so candy-11 fits, build scrap-15, "
                                "rebuild candy-10 from the teardown pile after scrap-15; +3")
    position, _ = _load(FIXTURES / "positions" / "gp-sand-bottom.json")
    plan = hint(position).plans[2]
    assert all(s.to_json().get("end") == "bottom" for s in plan.steps)
    position, _ = _load(FIXTURES / "positions" / "gp-tree-pay.json")
    plan = hint(position).plans[7]
    assert plan.pay == 3 and len(plan.take) == 4
    assert plan.explanation.startswith("pay 3 tree cards (tree-13, tree-14, tree-15)")
