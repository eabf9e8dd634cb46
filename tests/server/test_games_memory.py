"""Game after game at hosted tables, the drawn lines alive stay flat
(scripts/bench_games_memory.py, a short run): what a finished game's
screens drew is freed, not kept by a cache of Textual's."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from bench_games_memory import Bench, alive  # noqa: E402

STRIPS_GROWN_AT_MOST = 400
"""Drawn lines more after two more games (one table, two players and a
watcher): the shared renders and caches that still fill. StylesCaches kept
by upstream's get_inner_outer cache kept some 1,400 more a game."""


async def test_drawn_lines_alive_stay_flat_game_after_game() -> None:
    bench = Bench(tables=1, seats=2, watchers=1, seed=3)
    await bench.start()
    try:
        await bench.play_round()
        first = alive()
        for _ in range(2):
            await bench.play_round()
        later = alive()
    finally:
        await bench.close()
    # (Counted over the whole process: other tests' leftovers count in both.)
    assert bench.games == 3 and later["screens left"] <= first["screens left"] + 1
    assert later["Strip"] - first["Strip"] <= STRIPS_GROWN_AT_MOST, (first["Strip"], later["Strip"])
