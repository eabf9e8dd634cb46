"""The GoTown hint: the fixture positions, an exhaustive check through the
rules engine, the tie-break, and ``fivetowers hint`` on GoTown input."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fivetowers.games.gotown.hint import hint
from fivetowers.games.gotown.rules import (
    Bone, Build, Dog, FormatError, Game, Jackhammer, Steal, WreckingBall, action_from_json,
)
from fivetowers.games.gotown.rules.position import Position

from tests.conftest import FIXTURES
from tests.gotown.arrange import NAMES

POSITIONS = sorted(p for p in (FIXTURES / "gotown" / "positions").glob("*.json")
                   if not p.name.endswith(".expected.json"))
HINT_PLAYS = (Build, Steal, Dog, Bone, Jackhammer, WreckingBall)


def exhaustive_floors(position: Position) -> int:
    """The most floors, by trying every sequence of hint plays the engine allows."""
    memo: dict[Any, int] = {}

    def best(game: Game) -> int:
        me = game.players[position.me]
        if game.over:
            return len(me.floors)
        key = tuple((tuple(sorted(map(str, p.hand.elements()))), tuple(p.floors),
                     frozenset(p.dogs)) for p in game.players)
        if key not in memo:
            value = len(me.floors)
            for action in game.legal_actions():
                if isinstance(action, HINT_PLAYS):
                    after = game.clone()
                    after.apply(action)
                    value = max(value, best(after))
            memo[key] = value
        return memo[key]

    return best(position.to_game())


def carried_out(position: Position, plan: list[dict[str, Any]]) -> int:
    """Floors after playing ``plan`` through the rules engine (each play must be legal)."""
    game = position.to_game()
    for play in plan:
        assert set(play) & {"build", "steal", "bone", "jackhammer", "wrecking-ball", "dog"}
        game.apply(action_from_json({"seat": position.me, **play}))
    return len(game.players[position.me].floors)


def positions_from_random_games(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        game = Game(NAMES[:rng.randint(2, 4)], rng.choice((4, 5)), seed=rng.randrange(10**6))
        while not game.over:
            legal = game.legal_actions()
            seat = game.to_move
            assert seat is not None
            if rng.random() < 0.3:
                out.append(Position.from_game(game, seat))
            plays = legal[:-1]
            game.apply(rng.choice(plays) if plays and rng.random() < 0.7 else legal[-1])
    return out


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.stem)
def test_fixture_position_hint_reaches_the_expected_floors(path: Path) -> None:
    want = json.loads(path.with_suffix(".expected.json").read_text())
    position = Position.from_json(json.loads(path.read_text()))
    got = hint(position).to_json()
    assert (got["floors"], got["wins"]) == (want["floors"], want["wins"])
    assert carried_out(position, got["plan"]) == got["floors"]
    assert exhaustive_floors(position) == got["floors"]


def test_hint_equals_an_exhaustive_search_on_positions_from_random_games() -> None:
    for position in positions_from_random_games(150, 4):
        got = hint(position)
        assert got.floors == min(exhaustive_floors(position), position.floors_to_win)
        assert carried_out(position, list(got.plan)) == got.floors
        assert got.wins == (got.floors == position.floors_to_win)


def test_tie_break_fewest_plays_then_steal_before_build() -> None:
    # FORMATS.md's example: bone + steal and a wild build both reach 2 floors
    example = {"format": "gotown-position/1", "floors_to_win": 5, "me": 0,
               "hand": ["4", "bone", "jackhammer", "?"],
               "towers": [[["3", "6"]], [["1", "8"], ["5", "?4"]], []], "dogs": [[], [1], []]}
    assert hint(Position.from_json(example)).to_json() == {
        "floors": 2, "wins": False, "plan": [{"build": ["4", "?"]}]}
    example["dogs"] = [[], [], []]
    assert hint(Position.from_json(example)).plan == ({"steal": {"card": "4", "from": 1}},)


def test_a_plan_stops_at_the_win() -> None:
    position = Position.from_json({
        "format": "gotown-position/1", "floors_to_win": 4, "me": 0,
        "hand": ["1", "8", "2", "7", "3", "6"],
        "towers": [[["4", "5"], ["4", "5"]], []], "dogs": [[], []]})
    got = hint(position)
    assert got.floors == 4 and got.wins and len(got.plan) == 2


@pytest.mark.parametrize("change,words", [
    ({"towers": [[["3", "5"]], []]}, "sums to 8"),
    ({"towers": [[["?3", "?6"]], []]}, "two wilds"),
    ({"dogs": [[1], []]}, "floor 1"),
    ({"hand": ["jackhammer"] * 4}, "deck has 3"),
    ({"towers": [[["1", "8"]] * 5, []]}, "already won"),
    ({"me": 2}, '"me"'),
    ({"hand": ["9"]}, "not a GoTown card"),
])
def test_an_invalid_position_is_refused(change: dict[str, Any], words: str) -> None:
    data = {"format": "gotown-position/1", "floors_to_win": 5, "me": 0, "hand": ["4"],
            "towers": [[["1", "8"]], []], "dogs": [[], []], **change}
    with pytest.raises(FormatError, match=words):
        Position.from_json(data)


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fivetowers.cli", "hint", *args],
                          input=stdin, capture_output=True, text=True, timeout=60)


def test_hint_command_prints_the_hint_object() -> None:
    path = POSITIONS[-1]
    out = run(str(path))
    assert out.returncode == 0 and out.stderr == ""
    got = json.loads(out.stdout)
    assert set(got) == {"floors", "wins", "plan"}
    assert got["floors"] == json.loads(path.with_suffix(".expected.json").read_text())["floors"]


def test_hint_command_on_a_record_and_a_seat() -> None:
    record = FIXTURES / "gotown" / "records" / "gotown-3p-midgame-seed307.json"
    out = run(str(record), "--seat", "0")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["floors"] >= 1
    for args, words in [((), "--seat N"), (("--seat", "5"), "seats 0..2")]:
        out = run(str(record), *args)
        assert out.returncode == 2 and words in out.stderr and out.stderr.count("\n") == 1
    finished = FIXTURES / "gotown" / "records" / "gotown-3p-f5-seed302.json"
    assert "the game is over" in run(str(finished), "--seat", "0").stderr


def test_hint_command_on_a_bad_position_exits_2() -> None:
    data = json.loads(POSITIONS[0].read_text())
    data["towers"][0] = [["1", "1"]]
    out = run("-", stdin=json.dumps(data))
    assert out.returncode == 2 and out.stdout == "" and out.stderr.count("\n") == 1


def test_mutated_positions_are_hinted_or_refused_never_a_crash() -> None:
    junk: list[object] = [None, True, 0, -1, 3, 10**30, "", "?", "?9", "dog", [], [[]],
                          [["1", "8"]], [[["1", "8"]]], [[0]], {}, ["4", "5"], [[], []]]
    rng = random.Random(21)
    for _ in range(300):
        data = json.loads(rng.choice(POSITIONS).read_text())
        for _ in range(rng.randint(1, 2)):
            key = rng.choice(["floors_to_win", "me", "hand", "towers", "dogs", "format"])
            if rng.random() < 0.5 and isinstance(data.get(key), list) and data[key]:
                data[key][rng.randrange(len(data[key]))] = rng.choice(junk)
            else:
                data[key] = rng.choice(junk)
        try:
            position = Position.from_json(data)
        except FormatError:
            continue
        assert carried_out(position, list(hint(position).plan)) == hint(position).floors
