"""The serving process's bounded caches game after game: hits, misses, entries, bytes.

    python scripts/bench_cache_bounds.py [--tables 4] [--seats 4] [--watchers 1]
        [--games 4] [--bound fivetowers.ui.log_lines.KEPT=512 ...]

Plays ``scripts/bench_games_memory.py``'s hosted tables game after game (the
real LobbyApp and table screens in process, random bots' moves, rematches)
with every cache of ``load_caches.BOUNDS`` counting its lookups and misses,
and prints for each, after each game: its entries against its bound, its
hit rate over that game and the bytes reachable from it (load_caches'
estimate) and what it would hold at its bound (the bytes an entry
now, times the bound). ``--bound MODULE.NAME=N`` sets a module's bound
before the run, or an lru_cache's ``maxsize`` by the function's name, to
see what a smaller one costs in misses (a miss is a render or a lookup
done again: ``scripts/bench_sessions.py --calls`` gives its CPU). The hit
rate of a game after the first is the cache's worth in play: entries that
are never hit again are the cold ones a bound may drop.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import importlib
import sys
from collections import OrderedDict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_games_memory import Bench  # noqa: E402
from load_caches import BOUNDS, bound_of, ceiling_kib, reachable_bytes, _stop_types  # noqa: E402


class _Counting:
    """What a dict cache counts: its lookups by ``get`` and its new keys."""

    lookups = 0
    misses = 0

    def get(self, key: Any, default: Any = None) -> Any:
        self.lookups += 1
        return super().get(key, default)  # type: ignore[misc]

    def __setitem__(self, key: Any, value: Any) -> None:
        if key not in self:  # type: ignore[operator]
            self.misses += 1
        super().__setitem__(key, value)  # type: ignore[misc]


class CountingDict(_Counting, dict):  # type: ignore[type-arg]
    pass


class CountingOrderedDict(_Counting, OrderedDict):  # type: ignore[type-arg]
    pass


def counting(where: str) -> Any:
    """Replace the cache at ``where`` (module.attr) by a counting copy of it."""
    module_name, attr = where.rsplit(".", 1)
    module = importlib.import_module(module_name)
    cache = getattr(module, attr)
    if isinstance(cache, functools._lru_cache_wrapper):
        cache.cache_clear()
        return cache
    kind = CountingOrderedDict if isinstance(cache, OrderedDict) else CountingDict
    cache = kind(cache)  # (copying counts its entries as misses: the counts start after)
    setattr(module, attr, cache)
    return cache


def counts(cache: Any) -> tuple[int, int, int]:
    """Entries, lookups and misses of a counting cache so far."""
    if isinstance(cache, functools._lru_cache_wrapper):
        info = cache.cache_info()
        return info.currsize, info.hits + info.misses, info.misses
    return len(cache), cache.lookups, cache.misses


async def run(args: argparse.Namespace) -> None:
    for setting in args.bound:
        name, _, value = setting.partition("=")
        module_name, attr = name.rsplit(".", 1)
        module = importlib.import_module(module_name)
        cached = getattr(module, attr)
        if isinstance(cached, functools._lru_cache_wrapper):
            # A new cache around the same function, wherever it is found by
            # name: its own module (its recursion) and modules that imported it.
            smaller = functools.lru_cache(int(value))(cached.__wrapped__)
            for holder in list(sys.modules.values()):
                if getattr(holder, attr, None) is cached:
                    setattr(holder, attr, smaller)
        else:
            setattr(module, attr, int(value))
    bench = Bench(args.tables, args.seats, args.watchers)
    await bench.start()
    watched = {where: counting(where) for where in BOUNDS}
    before = {where: counts(cache) for where, cache in watched.items()}
    print(f"{args.tables} tables of {args.seats} players and {args.watchers} watcher(s), "
          f"5 Towers, random bots' moves; {', '.join(args.bound) or 'bounds as they are'}")
    stop = _stop_types()
    for _ in range(args.games):
        await bench.play_round()
        print(f"game {bench.games}: entries/bound, hit rate this game, lookups, KiB, "
              "KiB at the bound")
        ceilings = 0
        for where, cache in watched.items():
            entries, lookups, misses = counts(cache)
            _, was_lookups, was_misses = before[where]
            before[where] = (entries, lookups, misses)
            asked = lookups - was_lookups
            if not asked and not entries:
                continue
            rate = 1 - (misses - was_misses) / asked if asked else float("nan")
            kib = reachable_bytes(cache, stop) // 1024
            ceiling = ceiling_kib(where, entries, kib)
            ceilings += ceiling
            print(f"  {where:48s} {entries:6d}/{bound_of(where):<6d} {rate:6.1%} "
                  f"{asked:7d} {kib:6d} {ceiling:6d}", flush=True)
        print(f"  all at their bounds: {ceilings / 1024:.1f} MiB")
    await bench.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--watchers", type=int, default=1)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--bound", action="append", default=[],
                        help="MODULE.NAME=N: a module's bound set before the run")
    asyncio.run(run(parser.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
