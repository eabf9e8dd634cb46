"""GoTown's learned horizon value (value.py) and the script that fits it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from fivetowers.games.gotown import value
from fivetowers.games.gotown.strong import HEADS_UP_SEARCH, score
from fivetowers.games.gotown.value import (
    HEADS_UP_WEIGHTS, NAMES, WEIGHTS, features, win_chance, win_share,
)

from tests.conftest import script_module
from tests.gotown.arrange import table


def _named(game: Any, seat: int) -> dict[str, float]:
    return dict(zip(NAMES, features(game, seat), strict=True))


def test_features_read_the_seat_and_its_rival_off_the_table() -> None:
    """Seat 0: 3 of 5 floors, guarded top, a 1–8 pair and a wild with a
    spare 2 (two floors in hand), a 6 that steals seat 1's open [3, 6]
    top. Seat 2 (2 floors) is the rival over seat 1 (1 floor)."""
    game = table([["1", "8", "?", "2", "6", "thief", "jackhammer"], ["5", "5"], ["dog"]],
                 towers=[[["1", "8"], ["2", "7"], ["4", "5"]], [["3", "6"]],
                         [["1", "8"], ["4", "5"]]],
                 dogs=[[2], [], []], draw=["7"] * 27, to_move=1, milkshakes=[0, 0, 1])
    me = _named(game, 0)
    assert (me["me_to_go"], me["me_to_go_2"], me["me_to_go_1"]) == (2.0, 1.0, 0.0)
    assert me["me_guarded"] == 1.0
    assert (me["me_pairs"], me["me_reach"], me["me_wilds"]) == (2.0, 2.0, 1.0)
    assert (me["me_hand"], me["me_thieves"], me["me_attacks"]) == (7.0, 1.0, 1.0)
    assert me["me_steal_ready"] == 1.0  # a 3 or a 6 takes seat 1's [3, 6]
    assert (me["rival_to_go"], me["rival_dogs"], me["rival_skips"]) == (3.0, 1.0, 1.0)
    assert me["rival_guarded"] == 0.0 and me["rival_steal_ready"] == 0.0
    assert (me["two_players"], me["four_players"], me["short_game"]) == (0.0, 0.0, 0.0)
    assert me["draw_pile"] == pytest.approx(0.5)
    # seat 1 moves next: seat 0 waits two turns of three, its rival one
    assert (me["my_wait"], me["rival_wait"]) == (pytest.approx(2 / 3), pytest.approx(1 / 3))
    assert _named(game, 2)["rival_to_go"] == 2.0  # seat 2's rival is seat 0
    assert len(WEIGHTS) == len(NAMES)


def test_a_winning_position_is_worth_more_than_a_losing_one() -> None:
    towers = [[["1", "8"], ["2", "7"], ["3", "6"], ["4", "5"]], [["1", "8"]]]
    ahead = table([["2", "7", "5"], ["3", "4", "5"]], towers=towers, draw=["6"] * 10)
    behind = table([["2", "7", "5"], ["3", "4", "5"]], towers=towers[::-1], draw=["6"] * 10)
    assert win_chance(ahead, 0) > 0.6 > 0.4 > win_chance(behind, 0)
    assert win_chance(ahead, 0) > win_chance(ahead, 1)
    # a pair in hand and a guarded top are worth something
    bare = table([["5", "5", "6"], ["3", "3"]], towers=[[["1", "8"]], [["1", "8"]]])
    built = table([["1", "8", "6"], ["3", "3"]], towers=[[["1", "8"]], [["1", "8"]]],
                  dogs=[[0], []])
    assert win_chance(built, 0) > win_chance(bare, 0)


def test_the_search_scores_its_horizon_with_the_value_when_asked() -> None:
    game = table([["1", "8", "5"], ["3", "4"]], towers=[[["2", "7"]], []], draw=["6"] * 10)
    learned = replace(HEADS_UP_SEARCH, value=True)
    assert score(game, 0, learned) == pytest.approx(win_chance(game, 0))
    assert score(game, 0, HEADS_UP_SEARCH) != pytest.approx(win_chance(game, 0))
    shared = replace(learned, share=True)
    assert score(game, 0, shared) == pytest.approx(win_share(game, 0))
    assert win_share(game, 0) + win_share(game, 1) == pytest.approx(1.0)


def test_each_table_size_has_its_weights() -> None:
    """Heads-up the value uses the weights fitted on games of two."""
    assert HEADS_UP_WEIGHTS != WEIGHTS
    game = table([["1", "8", "5"], ["3", "4"]], towers=[[["2", "7"]], []], draw=["6"] * 10)
    assert win_chance(game, 0) == pytest.approx(win_chance(game, 0, HEADS_UP_WEIGHTS))
    three = table([["1", "8", "5"], ["3", "4"], ["6"]], towers=[[["2", "7"]], [], []])
    assert win_chance(three, 0) == pytest.approx(win_chance(three, 0, WEIGHTS))


def _fit_script() -> Any:
    return script_module("gotown_value_fit")


def test_the_fit_script_fits_a_tiny_sample_and_writes_its_weights(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    script = _fit_script()
    copy = tmp_path / "value.py"
    copy.write_text(Path(value.__file__).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(script, "MODULE", copy)
    script.main(["--games", "15", "--every", "0.5", "--workers", "1", "--write"])
    out = capsys.readouterr().out
    assert "held out: learned: log loss" in out and "hand-made score" in out
    assert "held out: weights before this fit: log loss" in out
    written = copy.read_text(encoding="utf-8")
    assert "--games 15 --every 0.5" in written
    namespace: dict[str, Any] = {}
    exec(compile(written, str(copy), "exec"), namespace)  # the module as rewritten
    assert len(namespace["WEIGHTS"]) == len(NAMES)
    assert namespace["WEIGHTS"] != WEIGHTS  # fitted on other data than the shipped weights
    assert namespace["HEADS_UP_WEIGHTS"] == HEADS_UP_WEIGHTS  # a fit of 2–4 players leaves them
    script.main(["--games", "10", "--every", "0.5", "--players", "2", "--workers", "1", "--write"])
    heads_up: dict[str, Any] = {}
    exec(compile(copy.read_text(encoding="utf-8"), str(copy), "exec"), heads_up)
    assert heads_up["WEIGHTS"] == namespace["WEIGHTS"]
    assert heads_up["HEADS_UP_WEIGHTS"] != HEADS_UP_WEIGHTS
    assert "--players 2" in heads_up["HEADS_UP_FITTED_BY"]
    with pytest.raises(SystemExit, match="table sizes are 2 to 4"):
        script.main(["--games", "1", "--players", "5"])


def test_newton_fits_a_known_logistic_model() -> None:
    """Data drawn from p = σ(−1 + 2x): the fit finds those weights."""
    import math
    import random

    script = _fit_script()
    rng = random.Random(3)
    xs = [[1.0, rng.uniform(-2, 2)] for _ in range(4000)]
    ys = [float(rng.random() < 1 / (1 + math.exp(-(-1 + 2 * x[1])))) for x in xs]
    bias, slope = script.fit(xs, ys, ridge=0.0)
    assert bias == pytest.approx(-1.0, abs=0.2) and slope == pytest.approx(2.0, abs=0.25)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_shipped_weights_rank_a_clearly_winning_seat_first(players: int) -> None:
    """Seat 1 is a floor from winning with a guarded top and a pair in
    hand; the others have one open floor and nothing to build: at every
    table size the weights value.py ships put seat 1 first, by far (the
    refit weights load and still read the table the right way round)."""
    ahead = [["1", "8"], ["2", "7"], ["3", "6"], ["4", "5"]]
    hands = [["2", "2", "6"]] * players
    hands[1] = ["1", "8", "6"]
    towers = [[["4", "5"]]] * players
    towers[1] = ahead
    dogs: list[list[int]] = [[] for _ in range(players)]
    dogs[1] = [3]
    game = table(hands, towers=towers, dogs=dogs, draw=["7"] * 10)
    chances = [win_chance(game, seat) for seat in range(players)]
    assert max(range(players), key=chances.__getitem__) == 1
    assert chances[1] > 0.6 and all(c < 0.3 for s, c in enumerate(chances) if s != 1)
    assert win_share(game, 1) > 0.6
