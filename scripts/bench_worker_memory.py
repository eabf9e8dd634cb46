"""What a worker process's memory does over minutes of work: the jobs a
server's workers get (5 Towers' strong bot and CP-SAT hints, every seat's
position), one after another in this one process.

    python scripts/bench_worker_memory.py [--seconds 300] [--budget 1.0] [--trim]

Prints, every 30 s, the RSS, Python's allocated blocks, glibc's heap (in use,
free inside its arenas) and the sizes of the solver's and the bots' caches;
``--trim`` calls ``malloc_trim(0)`` after every job and prints what it gave back.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from load_memory import malloc_figures, rss_kib, trim  # noqa: E402


def caches() -> dict[str, int]:
    from fivetowers.games.five_towers import solver
    from fivetowers.games.five_towers.bots import plans
    from fivetowers.games.five_towers.rules import search

    sizes = {"hints": len(solver._cache._done), "options": plans.options.cache_info().currsize}
    for name in ("most_placed", "free_rebuild_best", "best_sand", "_best_chain"):
        sizes[name] = getattr(search, name).cache_info().currsize
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--budget", type=float, default=1.0, help="strong bot's seconds a move")
    parser.add_argument("--trim", action="store_true")
    args = parser.parse_args()
    from fivetowers.games.five_towers.bots import GreedyBot, StrongBot
    from fivetowers.games.five_towers.client import compute_hint
    from fivetowers.games.five_towers.rules import Game, Phase, Position, Variant

    bot, greedy = StrongBot(args.budget), GreedyBot()
    started = last = time.monotonic()
    jobs = trimmed = 0
    deal = 0
    print("s rss_MiB blocks malloc_used_MiB malloc_free_MiB jobs caches")
    while time.monotonic() - started < args.seconds:
        deal += 1
        game = Game(["A", "B", "C", "D"], Variant.GREAT_POWERS if deal % 2 else Variant.BASE,
                    seed=deal)
        rng = random.Random(deal)
        while game.to_move is not None and time.monotonic() - started < args.seconds:
            seat = game.to_move
            view = game.view(seat)
            if view.phase is not Phase.OVER and view.display:
                compute_hint(Position.from_view(view))
                jobs += 1
            game.apply((bot if seat == 0 else greedy).choose(view, rng))
            jobs += seat == 0
            if args.trim:
                trimmed += trim()
            if time.monotonic() - last >= 30:
                last = time.monotonic()
                m = malloc_figures()
                print(f"{last - started:.0f} {rss_kib() / 1024:.1f} {sys.getallocatedblocks()} "
                      f"{m.get('malloc_used_kib', 0) / 1024:.1f} "
                      f"{m.get('malloc_free_kib', 0) / 1024:.1f} {jobs} {caches()}"
                      + (f" trimmed {trimmed / 1024:.1f} MiB" if args.trim else ""), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
