"""``fivetowers replay`` on bad GoTown input: exit 1 at the action, or 2 and
one line on stderr; never a traceback (FORMATS.md)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from tests.conftest import FIXTURES

GOOD = FIXTURES / "gotown" / "records" / "gotown-3p-f5-seed302.json"


def run(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fivetowers.cli", "replay", "-"],
                          input=stdin, capture_output=True, text=True, timeout=60)


def record() -> dict[str, Any]:
    return json.loads(GOOD.read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize("action", [
    {"seat": 0}, {"seat": 0, "end": False}, {"seat": "0", "end": True},
    {"seat": 0, "end": True, "dog": 0}, {"seat": 0, "build": ["9", "0"]},
    {"seat": 0, "build": "3,6"}, {"seat": 0, "dog": True}, {"seat": 0, "steal": {"card": "3"}},
    {"seat": 0, "bone": {"from": 1}}, {"seat": 0, "fly": 1}, ["end"],
    {"seat": 0, "thief": {"from": 1, "took": "?3"}}, {"seat": 1, "end": True},
])
def test_a_malformed_or_illegal_action_exits_1_at_its_index(action: object) -> None:
    data = record()
    data["actions"][0] = action
    out = run(json.dumps(data))
    assert out.returncode == 1, out.stderr
    assert json.loads(out.stdout)["error"]["action"] == 0 and out.stderr == ""


def test_an_action_after_the_game_ended_exits_1() -> None:
    data = record()
    data["actions"].append({"seat": 0, "end": True})
    out = run(json.dumps(data))
    assert out.returncode == 1
    assert json.loads(out.stdout)["error"]["action"] == len(data["actions"]) - 1


@pytest.mark.parametrize("change", [
    {"players": ["An"]}, {"players": ["a", "b", "c", "d", "e"]}, {"floors_to_win": 3},
    {"floors_to_win": "5"}, {"format": "gotown-record/2"}, {"deck": ["1"] * 54},
    {"reshuffles": [["dog", "nope"]]}, {"seed": "7"}, {"actions": {}},
])
def test_an_invalid_record_exits_2_with_one_line(change: dict[str, Any]) -> None:
    data = record()
    data.update(change)
    out = run(json.dumps(data))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("fivetowers: ") and out.stderr.count("\n") == 1
    assert "Traceback" not in out.stderr


def test_a_reshuffle_that_is_not_the_discard_pile_exits_2() -> None:
    data = json.loads((FIXTURES / "gotown" / "records" / "gotown-2p-f5-seed301.json").read_text())
    data["reshuffles"][0][0], data["reshuffles"][0][-1] = "8", "8"
    out = run(json.dumps(data))
    assert out.returncode == 2 and "not a permutation of the discard pile" in out.stderr


def test_bad_json_exits_2() -> None:
    out = run('{"format": "gotown-record/1", ')
    assert out.returncode == 2 and out.stderr.count("\n") == 1


JUNK: list[object] = [None, True, 0, -1, 7, 99, 10**30, 1.5, "", "?", "?3", "dog", "x" * 200,
                      [], ["1"], ["?", "?"], {}, {"from": 1}, {"card": "3", "from": 1},
                      {"took": {"1": "dog"}}, {"took": {"9": "1"}}, {"from": 0, "floor": 0}]


def test_mutated_records_give_an_error_at_an_action_or_an_invalid_record_never_a_crash() -> None:
    from fivetowers.games.gotown.rules import FormatError, Record, replay

    rng = random.Random(13)
    keys = ["seat", "build", "steal", "dog", "bone", "jackhammer", "wrecking-ball",
            "milkshake", "donut-truck", "thief", "super-thief", "end", "junk"]
    for _ in range(400):
        data = record()
        for _ in range(rng.randint(1, 3)):
            where = rng.random()
            if where < 0.7 and isinstance(data["actions"], list) and data["actions"]:
                index = rng.randrange(len(data["actions"]))
                data["actions"][index] = {"seat": rng.choice([0, 1, 2, rng.choice(JUNK)]),
                                          rng.choice(keys): rng.choice(JUNK)}
            else:
                data[rng.choice(["players", "floors_to_win", "seed", "deck", "reshuffles",
                                 "actions"])] = rng.choice(JUNK)
        try:
            replay(Record.from_json(data))
        except FormatError:
            pass
