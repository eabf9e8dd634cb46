"""The position format (FORMATS.md) and the engine's max bid on the fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fivetowers.games.five_towers.rules import FormatError, Position, TowerType
from fivetowers.games.five_towers.rules.search import max_bid

from tests.conftest import FIXTURES

POSITIONS = sorted(p for p in (FIXTURES / "positions").glob("*.json")
                   if not p.name.endswith(".expected.json"))


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.stem)
def test_fixture_max_bid(path: Path) -> None:
    pos = Position.from_json(json.loads(path.read_text()))
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    display = tuple(sorted((c.type.index, c.value) for c in pos.display))
    assert max_bid(pos.board.towers_key(), pos.board.pile_key(), display, pos.powers) == \
        expected["max_bid"]


def test_round_trip() -> None:
    data = json.loads((FIXTURES / "positions" / "formats-example.json").read_text())
    pos = Position.from_json(data)
    assert pos.board.towers[TowerType.CANDY] == [14, 10] and pos.board.towers[TowerType.TREE] == []
    assert Position.from_json(pos.to_json()) == pos


BASE = {"format": "fivetowers-position/1", "variant": "base", "towers": {}, "teardown": [],
        "display": []}


@pytest.mark.parametrize("change,match", [
    ({"format": "x"}, "unknown format"),
    ({"variant": "nope"}, "unknown variant"),
    ({"towers": {"candy": [3, 7]}}, "breaks the building rules"),
    ({"towers": {"candy": [0, 7]}}, "breaks the building rules"),
    ({"towers": {"goo": [3]}}, "unknown tower type"),
    ({"towers": {"candy": [16]}}, "0..15"),
    ({"towers": {"candy": "3"}}, "0..15"),
    ({"teardown": ["candy-99"]}, "not a card"),
    ({"display": ["candy-1"] * 6}, "at most 5"),
    ({"display": ["candy-1", "candy-1"]}, "more copies"),
    ({"towers": {"candy": [7]}, "display": ["candy-7", "candy-7"]}, "more copies"),
    ({"towers": []}, "must be an object"),
])
def test_invalid_positions(change: dict, match: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(FormatError, match=match):
        Position.from_json({**BASE, **change})


def test_extra_copies_allowed_up_to_two() -> None:
    pos = Position.from_json({**BASE, "towers": {"candy": [7]}, "display": ["candy-7"]})
    assert len(pos.display) == 1
