"""Every shared fixture record replays exactly to its expected result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fivetowers.games.five_towers.rules import Record, replay, result_json

from tests.conftest import FIXTURES

RECORDS = sorted(p for p in (FIXTURES / "records").glob("*.json")
                 if not p.name.endswith(".expected.json"))


def test_there_are_fixture_records() -> None:
    assert len(RECORDS) >= 10


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_record_replays_to_expected(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    game, error = replay(Record.from_json(json.loads(path.read_text())))
    if "error" in expected:
        assert error is not None
        assert error.action == expected["error"]["action"]
        assert error.message
    else:
        assert error is None
        assert result_json(game) == expected


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_record_round_trips(path: Path) -> None:
    """Writing the replayed game's record and replaying it reaches the same state."""
    game, error = replay(Record.from_json(json.loads(path.read_text())))
    again, error2 = replay(Record.from_json(json.loads(json.dumps(Record.from_game(game).to_json()))))
    assert error2 is None
    assert result_json(again) == result_json(game)
