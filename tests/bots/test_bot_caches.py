"""What a worker process keeps between jobs (issue 11: memory stays flat).

The strong bot's searches cache their answers process-wide. Their hits come
from within one move's search; a cache sized for hours of deals only kept
positions of deals long over (a worker grew about 10 MiB a minute under
load, scripts/bench_worker_memory.py)."""

from __future__ import annotations

import random

from fivetowers.games.five_towers import solver
from fivetowers.games.five_towers.bots import GreedyBot, StrongBot, plans
from fivetowers.games.five_towers.rules import Game, Variant, search


def test_a_worker_keeps_at_most_a_few_thousand_searched_boards() -> None:
    search.clear_caches()
    plans.options.cache_clear()
    bot, greedy = StrongBot(simulations=2), GreedyBot()
    for deal in (1, 2):
        game = Game(["A", "B", "C", "D"], Variant.GREAT_POWERS, seed=deal)
        rng = random.Random(deal)
        while game.to_move is not None:
            seat = game.to_move
            game.apply((bot if seat == 0 else greedy).choose(game.view(seat), rng))
    placed, options = search.most_placed.cache_info(), plans.options.cache_info()
    assert placed.hits > 0 and options.hits > 0  # the caches still serve their searches
    # Bounded to what one move's search reuses (see MOST_PLACED_KEPT's figures).
    assert placed.maxsize is not None and placed.maxsize <= 8192
    assert options.maxsize is not None and options.maxsize <= 512
    assert placed.currsize <= 8192 and options.currsize <= 512
    # The greedy seats' hints: a few MiB at the most, not 24.
    assert 0 < len(solver._cache._done) <= solver.CACHE_SIZE <= 512
