"""Game after game at hosted tables, the drawn lines alive stay flat
(scripts/bench_games_memory.py, a short run): what a finished game's
screens drew is freed, not kept by a cache of Textual's."""

from __future__ import annotations

import sys
from collections import Counter, OrderedDict
from pathlib import Path

import pytest

from fivetowers.ui import shared_lines

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from bench_games_memory import Bench, alive  # noqa: E402

STRIPS_GROWN_AT_MOST = 1200
"""Drawn lines more after two more games (one table, two players and a
watcher), the shared renders' own not counted: what is alive at a game's
end moves by a few hundred from game to game (bench_games_memory: +466 to
+810 over games 2-6 after the first), and StylesCaches kept by upstream's
get_inner_outer cache added some 1,400 a game (+2,729 over two)."""


async def test_drawn_lines_alive_stay_flat_game_after_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # The shared renders of its own, whatever earlier tests in this process drew.
    monkeypatch.setattr(shared_lines, "_lines", OrderedDict())
    bench = Bench(tables=1, seats=2, watchers=1, seed=3)
    await bench.start()
    try:
        await bench.play_round()
        first = drawn_lines_not_shared()
        for _ in range(2):
            await bench.play_round()
        later = drawn_lines_not_shared()
    finally:
        await bench.close()
    # (Counted over the whole process: other tests' leftovers count in both.)
    assert bench.games == 3 and later["screens left"] <= first["screens left"] + 1
    assert later["Strip"] - first["Strip"] <= STRIPS_GROWN_AT_MOST, (first["Strip"], later["Strip"])


def drawn_lines_not_shared() -> Counter[str]:
    """:func:`alive`, less the Strips of the shared renders (a cache that
    fills up to its bound over the first games)."""
    counts = alive()
    counts["Strip"] -= len({id(line) for lines in shared_lines._lines.values() for line in lines})
    return counts
