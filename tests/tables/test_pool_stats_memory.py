"""The worker pool's record of its jobs is bounded in memory, not only in
count (issue 11, memory stays flat): a server that serves for days fills it."""

from __future__ import annotations

import tracemalloc

from fivetowers.tables.pool_stats import (
    KEPT, MIB_KEPT_AT_MOST, BotMove, HintJob, PoolStats, summarise,
)


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


def test_drained_chunks_together_are_the_whole_record() -> None:
    """The load test drains the server's record to disk as it goes (so the
    server keeps only what came since): the chunks summarise as the record
    kept whole would, each job and count once."""
    whole, drained = PoolStats(), PoolStats()
    chunks = []
    for i in range(25):
        for stats in (whole, drained):
            stats.moves.append(BotMove("bot", "gotown strong", 0.05, 10.0 + i, 0.01, 0.04 + i / 100,
                                       "thought", 0.03, 60))
            stats.hints.append(HintJob(10.0 + i, 0.0, 0.1 + i / 100, 0.05, "gotown"))
            stats.hints_known += 2
            stats.hints_joined += i % 2
            stats.drop("hint" if i % 3 else "advice")
        if i % 7 == 6:
            chunks.append(drained.drain().to_json())
            assert not drained.moves and not drained.hints and drained.hints_known == 0
            assert drained.dropped == {}
    chunks.append(drained.drain().to_json())
    assert len(chunks) == 4
    assert summarise(chunks) == summarise([whole.to_json()])
    assert summarise(chunks, since=15.0, until=20.0) == summarise([whole.to_json()], 15.0, 20.0)
