"""The rules' search memos are bounded (issue 11: memory stays flat).

The serving process asks the rules for every position's legal bids, game
after game: a memo with no bound kept every hand it ever searched."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from fivetowers.games.five_towers.rules import Game, Variant, search

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from bench_engine import random_move  # noqa: E402


def test_the_chain_and_sand_memos_stay_within_their_bounds_game_after_game() -> None:
    search.clear_caches()
    rng = random.Random(5)
    for i in range(40):
        game = Game([f"P{j}" for j in range(2 + i % 4)],
                    Variant.GREAT_POWERS if i % 2 else Variant.BASE, seed=100 + i)
        while not game.is_terminal():
            random_move(game, rng)
    chain, sand = search._best_chain.cache_info(), search.best_sand.cache_info()
    assert chain.maxsize == search.CHAINS_KEPT and sand.maxsize == search.SANDS_KEPT
    # These games ask more than the bound: it is what stops the memo.
    assert chain.hits + chain.misses > 0 and chain.misses > chain.maxsize
    assert chain.hits > chain.misses  # still a memo: most answers are found again


MEMOS_AT_THEIR_BOUNDS_AT_MOST = 2 << 20
"""Bytes all the search memos hold full, in the server and in each worker:
at 8,192 / 65,536 answers most_placed and free_rebuild_best alone held some
3 and 18 MiB (for the same hits as now, see their bounds' figures)."""


def test_the_search_memos_full_hold_at_most_two_mib() -> None:
    from load_caches import _stop_types, reachable_bytes

    search.clear_caches()
    rng = random.Random(7)
    for i in range(12):
        game = Game([f"P{j}" for j in range(3 + i % 3)], Variant.GREAT_POWERS, seed=200 + i)
        while not game.is_terminal():
            random_move(game, rng)
    stop = _stop_types()
    full = 0
    for memo in (search._best_chain, search.best_sand, search.most_placed,
                 search.free_rebuild_best):
        info = memo.cache_info()
        assert info.maxsize is not None and 0 < info.currsize <= info.maxsize
        full += reachable_bytes(memo, stop) * info.maxsize // info.currsize
    assert full <= MEMOS_AT_THEIR_BOUNDS_AT_MOST, full
