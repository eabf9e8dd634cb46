"""``fivetowers tournament``: line-ups, tallies, confidence intervals, output."""

from __future__ import annotations

import json

import pytest

from fivetowers.games.five_towers.bots.tournament import GameResult, Settings, Summary, play_one, wilson
from fivetowers.cli import main
from fivetowers.games.five_towers.rules import Variant


def test_seats_rotate_evenly() -> None:
    s = Settings(("strong", "greedy"), 4, 8)
    lineups = [s.lineup(g) for g in range(4)]
    assert lineups[0] == ["strong", "greedy", "greedy", "greedy"]
    # Over four games the strong bot sits once in every seat.
    assert sorted(lineup.index("strong") for lineup in lineups) == [0, 1, 2, 3]
    two = Settings(("strong", "greedy"), 2, 2)
    assert [two.lineup(g) for g in range(2)] == [["strong", "greedy"], ["greedy", "strong"]]


@pytest.mark.parametrize("bad, message", [
    ((("strong", "clever"), 2, 1), "unknown bot 'clever'"),
    ((("random",), 6, 1), "--players must be 2..5"),
    ((("random", "random", "random"), 2, 1), "3 bots do not fit at 2 seats"),
    ((("random",), 2, 0), "--games must be at least 1"),
])
def test_bad_settings_are_refused(bad: tuple[tuple[str, ...], int, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Settings(*bad)


def test_a_shared_victory_counts_for_each_winner() -> None:
    summary = Summary(Settings(("strong", "greedy"), 2, 2))
    summary.add(GameResult(0, ("strong", "greedy"), (30, 30), (0, 1), {"strong": 2.0,
                           "greedy": 1.0}, {"strong": 10, "greedy": 10}))
    summary.add(GameResult(1, ("greedy", "strong"), (20, 25), (1,), {"strong": 2.0,
                           "greedy": 1.0}, {"strong": 10, "greedy": 10}))
    out = summary.to_json()["results"]
    assert out == {"strong": {"wins": 2, "win_rate": 1.0, "mean_score": 27.5,
                              "mean_move_ms": 200.0},
                   "greedy": {"wins": 1, "win_rate": 0.5, "mean_score": 25.0,
                              "mean_move_ms": 100.0}}


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.404, abs=0.001) and hi == pytest.approx(0.596, abs=0.001)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_one_game_is_reproducible() -> None:
    s = Settings(("random", "random"), 3, 3, Variant.GREAT_POWERS, seed=4)
    assert play_one(s, 1).scores == play_one(s, 1).scores
    assert play_one(s, 1).lineup == tuple(s.lineup(1))


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["tournament", "--bots", "random,random", "--players", "3", "--games", "3",
                   "--variant", "great-powers", "--seed", "2", "--workers", "1", "--json"])
    assert status == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 3 and out["players"] == 3 and out["variant"] == "great-powers"
    result = out["results"]["random"]
    assert set(result) == {"wins", "win_rate", "mean_score", "mean_move_ms"}
    assert result["wins"] == 3 and result["win_rate"] == 1.0  # it fills every seat


def test_cli_text_with_two_workers(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["tournament", "--bots", "strong,random", "--games", "2",
                   "--time-per-move", "0.01"])
    assert status == 0
    text = capsys.readouterr().out
    assert "2 games, 2 players, base" in text and "95% CI" in text
    assert text.splitlines()[2].startswith("strong")


@pytest.mark.parametrize("args, message", [
    (["--bots", "random,nobody"], "unknown bot 'nobody'"),
    (["--bots", "random", "--variant", "huge"], "unknown variant 'huge'"),
    (["--bots", "random", "--time-per-move", "0"], "--time-per-move must be positive"),
])
def test_cli_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                   message: str) -> None:
    assert main(["tournament", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
