"""A full garbage collection's pause with N sessions' Apps alive, in process.

    python scripts/bench_gc_pause.py [--sessions 20 100] [--repeat 5]

Hosts the sessions as ``scripts/bench_games_memory.py`` does (tables of four
players and a watcher at each, the real LobbyApp and table screens on fake
SSH channels), then times ``gc.collect()`` (every generation, nothing
frozen: what the server's collector does when it reclaims, see
``fivetowers/server/collector.py``) and ``gc.collect(1)`` (a settle between
freezes) with ``time.process_time``: CPU milliseconds, the same figure on a
busy machine as on a quiet one, within its noise. Every screen waits for a
full collection: the latency goal is 250 ms a key.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_games_memory import Bench  # noqa: E402


def pauses(generation: int, repeat: int) -> list[float]:
    """CPU milliseconds of ``repeat`` collections of ``generation``."""
    taken = []
    for _ in range(repeat):
        start = time.process_time()
        gc.collect(generation)
        taken.append((time.process_time() - start) * 1000)
    return taken


async def measure(sessions: int, repeat: int) -> None:
    tables = max(1, sessions // 5)
    bench = Bench(tables=tables, seats=4, watchers=1)
    await bench.start()
    try:
        gc.collect()
        tracked = len(gc.get_objects())
        full, middle = pauses(2, repeat), pauses(1, repeat)
        print(f"{len(bench.apps)} sessions: {tracked} objects tracked, "
              f"{sys.getallocatedblocks()} blocks; full collection "
              f"{statistics.median(full):.0f} ms CPU (min {min(full):.0f}, max {max(full):.0f}); "
              f"gc.collect(1) {statistics.median(middle):.1f} ms", flush=True)
    finally:
        await bench.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for sessions in args.sessions:
        asyncio.run(measure(sessions, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
