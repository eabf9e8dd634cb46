"""Every shared GoTown fixture record replays exactly to its expected output,
in process and through ``fivetowers replay`` (FORMATS.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fivetowers.games.gotown.rules import FormatError, Record, replay, result_json

from tests.conftest import FIXTURES

RECORDS = sorted(p for folder in ("records", "hand")  # shared, then hand-written
                 for p in (FIXTURES / "gotown" / folder).glob("*.json")
                 if not p.name.endswith(".expected.json"))


def expected(path: Path) -> dict:  # type: ignore[type-arg]
    return json.loads(path.with_suffix(".expected.json").read_text())  # type: ignore[no-any-return]


def test_there_are_gotown_fixture_records() -> None:
    assert len(RECORDS) >= 15


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_record_replays_to_expected(path: Path) -> None:
    want = expected(path)
    data = json.loads(path.read_text())
    if want == {"exit": 2}:
        with pytest.raises(FormatError):
            replay(Record.from_json(data))
        return
    game, error = replay(Record.from_json(data))
    if "error" in want:
        assert error is not None and error.action == want["error"]["action"] and error.message
    else:
        assert error is None, error
        assert result_json(game) == want


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_record_round_trips(path: Path) -> None:
    """The replayed game's own record replays to the same state."""
    try:
        game, _ = replay(Record.from_json(json.loads(path.read_text())))
    except FormatError:
        return
    again, error = replay(Record.from_json(json.loads(json.dumps(game.record_json()))))
    assert error is None
    assert result_json(again) == result_json(game)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_replay_command_prints_exactly_the_expected(path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "fivetowers.cli", "replay", str(path)],
                         capture_output=True, text=True, timeout=60)
    want = expected(path)
    if want == {"exit": 2}:
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.startswith("fivetowers: ") and out.stderr.count("\n") == 1
    elif "error" in want:
        assert out.returncode == 1 and out.stderr == ""
        assert json.loads(out.stdout)["error"]["action"] == want["error"]["action"]
    else:
        assert out.returncode == 0 and out.stderr == ""
        assert json.loads(out.stdout) == want
