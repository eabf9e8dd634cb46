"""Game after game at hosted tables, the drawn lines alive stay flat
(scripts/bench_games_memory.py, a short run): what a finished game's
screens drew is freed, not kept by a cache of Textual's; and so do the
finished games."""

from __future__ import annotations

import sys
from collections import Counter, OrderedDict
from pathlib import Path

import pytest

from fivetowers.ui import log_lines, shared_lines

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
    # The shared renders and log entries' lines of its own, whatever earlier
    # tests in this process drew.
    monkeypatch.setattr(shared_lines, "_lines", OrderedDict())
    monkeypatch.setattr(log_lines, "_entries", OrderedDict())
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
    # The finished games: each held the next (HostedTable.rematch), and a
    # screen held the first as long as the table played (4 against 2).
    assert later["HostedTable"] <= first["HostedTable"], (first["HostedTable"],
                                                          later["HostedTable"])


def drawn_lines_not_shared() -> Counter[str]:
    """:func:`alive`, less the Strips of the shared renders and of the log
    entries' lines (caches that fill up to their bounds over the first games:
    each game's log is new entries)."""
    counts = alive()
    counts["Strip"] -= len({id(line) for cache in (shared_lines._lines, log_lines._entries)
                            for lines in cache.values() for line in lines})
    return counts
