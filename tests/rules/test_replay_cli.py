"""``fivetowers replay`` as a whole process, on good and bad input (FORMATS.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES

GOOD = FIXTURES / "records" / "base-3p-seed2.json"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fivetowers.cli", "replay", *args],
                          input=stdin, capture_output=True, text=True, timeout=60)


def test_good_record_prints_the_result() -> None:
    out = run(str(GOOD))
    assert out.returncode == 0 and out.stderr == ""
    assert json.loads(out.stdout) == json.loads(GOOD.with_suffix(".expected.json").read_text())


def test_record_from_stdin() -> None:
    out = run("-", stdin=GOOD.read_text())
    assert out.returncode == 0 and json.loads(out.stdout)["finished"] is True


def test_illegal_action_exits_1_with_its_index() -> None:
    path = FIXTURES / "records" / "base-2p-bid-too-high.json"
    out = run(str(path))
    assert out.returncode == 1
    assert json.loads(out.stdout)["error"]["action"] == 12


def _record() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(GOOD.read_text())
    return record


def _bad_action(data: dict, index: int, action: object) -> str:  # type: ignore[type-arg]
    data["actions"][index] = action
    return json.dumps(data)


@pytest.mark.parametrize("action", [
    {"seat": 0, "bid": "three"}, {"seat": 0}, {"seat": 0, "bid": 1, "pass": True},
    {"seat": "0", "bid": 1}, {"seat": 0, "build": {"take": ["candy-99"], "steps": []}},
    {"seat": 0, "pass": False}, ["not", "an", "object"], {"seat": 0, "bid": -1},
    {"seat": 0, "bid": 1, "extra": 1},
])
def test_malformed_action_exits_1_at_its_index(action: object) -> None:
    out = run("-", stdin=_bad_action(_record(), 3, action))
    assert out.returncode == 1, out.stderr
    error = json.loads(out.stdout)["error"]
    assert error["action"] == 3 and error["message"]


def test_action_after_the_end_is_an_error() -> None:
    data = _record()
    data["actions"].append({"seat": 0, "bid": 0})
    out = run("-", stdin=json.dumps(data))
    assert out.returncode == 1
    assert json.loads(out.stdout)["error"]["action"] == len(data["actions"]) - 1


def _mutate(change: str) -> str:
    data = _record()
    if change == "format":
        data["format"] = "fivetowers-record/2"
    elif change == "variant":
        data["variant"] = "expert"
    elif change == "players":
        data["players"] = ["solo"]
    elif change == "six":
        data["players"] = list("ABCDEF")
    elif change == "deck-short":
        data["deck"] = data["deck"][:-1]
    elif change == "deck-dup":
        data["deck"][0] = data["deck"][1]
    elif change == "deck-card":
        data["deck"][0] = "candy-16"
    elif change == "reshuffle":
        data["reshuffle"] = data["reshuffle"][1:] + [data["reshuffle"][1]]
    elif change == "no-deck":
        del data["deck"]
    elif change == "actions":
        data["actions"] = {"seat": 0}
    return json.dumps(data)


@pytest.mark.parametrize("change", ["format", "variant", "players", "six", "deck-short",
                                    "deck-dup", "deck-card", "reshuffle", "no-deck", "actions"])
def test_invalid_record_exits_2_with_one_line(change: str) -> None:
    out = run("-", stdin=_mutate(change))
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert out.stdout == ""
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "null", "\x00\x01"])
def test_unreadable_json_exits_2(text: str) -> None:
    out = run("-", stdin=text)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_missing_file_exits_2(tmp_path: Path) -> None:
    out = run(str(tmp_path / "nope.json"))
    assert out.returncode == 2 and "cannot read" in out.stderr


def test_seeded_record_without_deck_replays() -> None:
    data = {"format": "fivetowers-record/1", "variant": "base", "players": ["A", "B"],
            "seed": 7, "actions": [{"seat": 0, "bid": 0}, {"seat": 1, "pass": True}]}
    out = run("-", stdin=json.dumps(data))
    assert out.returncode == 0
    assert json.loads(out.stdout)["round"] == 2


def test_replay_imports_neither_textual_nor_ortools() -> None:
    code = ("import sys; from fivetowers.cli import main; main(['replay', %r]); "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'ortools', 'rich')]; "
            "sys.stderr.write(repr(bad))" % str(GOOD))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stderr == "[]"


def test_record_with_neither_reshuffle_nor_seed_is_refused_when_one_is_needed() -> None:
    data = _record()
    del data["reshuffle"]
    outs = [run("-", stdin=json.dumps(data)) for _ in range(2)]
    for out in outs:
        assert out.returncode == 2 and "no \"reshuffle\" and no \"seed\"" in out.stderr
    # Cut short before the first run-out, the same record needs no reshuffle.
    data["actions"] = data["actions"][:10]
    assert run("-", stdin=json.dumps(data)).returncode == 0
