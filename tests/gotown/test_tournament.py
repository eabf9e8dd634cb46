"""``fivetowers tournament --game gotown``: bots against bots, with intervals."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from fivetowers.games.gotown.tournament import Settings, play_one, run, wilson


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fivetowers.cli", "tournament", *args],
                          capture_output=True, text=True, timeout=120)


def test_games_are_seeded_and_seats_rotate() -> None:
    settings = Settings(("greedy", "random"), 3, 6, floors=4, seed=2)
    assert [settings.lineup(g) for g in range(3)] == [
        ["greedy", "random", "random"], ["random", "greedy", "random"],
        ["random", "random", "greedy"]]
    first, again = play_one(settings, 1), play_one(settings, 1)
    assert (first.floors, first.winners) == (again.floors, again.winners)
    assert max(first.floors) == 4 or first.by_limit


def test_summary_counts_every_game() -> None:
    summary = run(Settings(("greedy", "random"), 2, 10), workers=1)
    greedy, rand = summary.tallies["greedy"], summary.tallies["random"]
    assert greedy.games == rand.games == 10
    assert greedy.wins + rand.wins >= 10  # a shared win counts for each
    lo, hi = wilson(greedy.wins, greedy.games)
    assert lo <= greedy.win_rate() <= hi


def test_tournament_command_for_gotown_prints_json() -> None:
    out = cli("--game", "gotown", "--bots", "greedy,random", "--players", "4", "--floors", "4",
              "--games", "4", "--workers", "1", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["game"], data["players"], data["floors"], data["games"]) == ("gotown", 4, 4, 4)
    assert set(data["results"]) == {"greedy", "random"}
    assert len(data["results"]["greedy"]["interval95"]) == 2


@pytest.mark.parametrize("args,words", [
    (("--game", "gotown", "--bots", "clever"), "unknown GoTown bot"),
    (("--game", "gotown", "--bots", "random", "--players", "5"), "2..4"),
    (("--game", "gotown", "--bots", "random", "--variant", "great-powers"), "--floors"),
    (("--bots", "random", "--floors", "4"), "--game gotown"),
])
def test_bad_tournament_options_exit_2(args: tuple[str, ...], words: str) -> None:
    out = cli(*args, "--games", "1")
    assert out.returncode == 2 and words in out.stderr and out.stderr.count("\n") == 1
