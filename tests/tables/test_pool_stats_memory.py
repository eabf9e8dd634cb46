"""The worker pool's record of its jobs is bounded in memory, not only in
count (issue 11, memory stays flat): a server that serves for days fills it."""

from __future__ import annotations

import tracemalloc

from fivetowers.tables.pool_stats import KEPT, MIB_KEPT_AT_MOST, BotMove, HintJob, PoolStats


def test_a_full_record_of_jobs_costs_at_most_its_bound() -> None:
    stats = PoolStats()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(KEPT + 10):  # full, and the oldest forgotten
            stats.moves.append(BotMove("bot", "five_towers strong", 1.0, 1000.0 + i,
                                       0.001 * i, 0.002 * i, "thought", 0.9 + 1e-6 * i,
                                       300 + i % 500))  # its CPU and worlds
            stats.hints.append(HintJob(1000.0 + i, 0.001 * i, 0.3 + i))
        cost = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(stats.moves) == len(stats.hints) == KEPT
    assert cost <= MIB_KEPT_AT_MOST * 2**20
