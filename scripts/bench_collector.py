"""The server collector's pauses and what its freezes keep, game after game, in process.

    python scripts/bench_collector.py [--tables 8] [--seats 4] [--watchers 1]
        [--games 3] [--freeze-every 60] [--walk-every 20] [--no-own-old] [--round 1.0]
        [--young N]
    python scripts/bench_collector.py --walk-every 0 --no-own-old   # the policy before

Hosts tables as ``scripts/bench_games_memory.py`` does (the real LobbyApp
and table screens on fake SSH channels, random bots' moves, game after game
with a rematch) and runs the server's ``QuietCollector`` on a clock of its
own: every round of moves (each table moves once) is ``--round`` seconds
(about the realistic load test's pace), so a settle comes every five of
them and a freeze at most every ``--freeze-every``, whatever the machine's
speed. The screens tell the collector what they leave, as on the server.

It prints, for the settles between freezes: the objects each walked (the
generations it collected, counted before it: independent of the machine)
and the CPU milliseconds it took (this thread's), p50 / max (and p99 from
100 of them: fewer, it is the max); the
full walks (reclaims); the interpreter's own collections by generation
(``--no-own-old``: it walks the oldest one on its own schedule, as it did
before the settles took it over); and what the freezes kept: the cyclic garbage a
full collection of everything frees at the end that the settles had not
(objects that died frozen; on the server they stay until a reclaim), a
(virtual) minute. Run it once per policy (a fresh process each: the
caches a first run fills would flatter the next).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_games_memory import Bench  # noqa: E402

from fivetowers.server.collector import OLD_HELD, QuietCollector  # noqa: E402


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def sizes() -> list[int]:
    """Objects in each generation (frozen ones are in none)."""
    return [len(gc.get_objects(g)) for g in range(3)]


class Watched:
    """A QuietCollector whose settles are counted and timed, and the
    interpreter's own collections beside them."""

    def __init__(self, collector: QuietCollector) -> None:
        self.collector = collector
        self.settles: list[tuple[int, float]] = []
        self.walks: list[tuple[int, float]] = []
        self.own: dict[int, list[float]] = {0: [], 1: [], 2: []}
        """The interpreter's own collections' CPU ms, by generation."""
        self.own_walked: dict[int, int] = {0: 0, 1: 0, 2: 0}
        """The objects they walked (the generations collected, counted before)."""
        self.in_settle = False
        self._began = 0.0
        gc.callbacks.append(self._heard)

    def _heard(self, phase: str, info: dict[str, Any]) -> None:
        if self.in_settle:
            return
        if phase == "start":
            self.own_walked[info["generation"]] += sum(sizes()[:info["generation"] + 1])
            self._began = time.thread_time()
        else:
            self.own[info["generation"]].append((time.thread_time() - self._began) * 1000)

    def stop(self) -> None:
        gc.callbacks.remove(self._heard)

    def settle(self) -> None:
        c = self.collector
        full = not (c.frozen or c.walked)
        heard: list[int] = []

        def listen(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                heard.append(info["generation"])

        before = sizes()  # which generations the settle walks is heard below
        gc.callbacks.append(listen)
        start = time.thread_time()
        self.in_settle = True
        try:
            c.settle()
        finally:
            self.in_settle = False
            gc.callbacks.remove(listen)
        ms = (time.thread_time() - start) * 1000
        count = sum(before[:max(heard, default=-1) + 1])
        (self.walks if full else self.settles).append((count, ms))


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    # A run has some 40 settles: their p99 would be their max.
    shown = f" / p99 {p99:.0f}" if len(ordered) >= 100 else ""
    return f"p50 {statistics.median(ordered):.0f}{shown} / max {ordered[-1]:.0f}"


async def run(args: argparse.Namespace) -> dict[str, Any]:
    clock = Clock()
    bench = Bench(args.tables, args.seats, args.watchers)
    collector = QuietCollector(freeze_every=args.freeze_every, clock=clock, walk_every=args.walk_every,
                               live=lambda: len(bench.apps))
    await bench.start()
    for app in bench.apps:
        app.freezes = lambda: collector.freezes
        app.on_screen_left = lambda shown_at: collector.screen_left(len(bench.apps), shown_at)
    gc.collect()
    collector.settle(freeze=True)  # the starts, settled at their first frames
    watched = Watched(collector)
    if args.young:
        gc.set_threshold(args.young, *gc.get_threshold()[1:])
    if args.own_old:  # as the server's running collector holds it
        OLD_HELD.hold()
    next_settle = clock.now + collector.every
    rounds = 0

    def tick() -> None:
        nonlocal rounds, next_settle
        rounds += 1
        clock.now += args.round
        if clock.now >= next_settle:
            watched.settle()
            next_settle += collector.every

    try:
        for _ in range(args.games):
            await bench.play_round(each_round=tick)
    finally:
        if args.own_old:
            OLD_HELD.release()
    watched.stop()
    minutes = clock.now / 60
    since = (clock.now - collector.last_reclaim) / 60 if collector.reclaims else minutes
    gc.collect()  # what the settles would free anyway
    gc.unfreeze()
    kept = gc.collect()  # what died frozen: on the server, until a reclaim
    await bench.close()
    settles = watched.settles
    figures = {
        "freeze_every": args.freeze_every, "walk_every": args.walk_every, "own_old": args.own_old, "minutes": minutes, "rounds": rounds,
        "settles": len(settles), "freezes": collector.freezes,
        "walked_p50": statistics.median([n for n, _ in settles]) if settles else 0,
        "walked_max": max((n for n, _ in settles), default=0),
        "cpu_ms_p50": statistics.median([m for _, m in settles]) if settles else 0.0,
        "cpu_ms_max": max((m for _, m in settles), default=0.0),
        "walks": len(watched.walks), "reclaims": collector.reclaims, "kept_a_minute": kept / since if since else 0.0,
    }
    print(f"{len(bench.apps)} sessions at {args.tables} tables, {bench.games} games each, "
          f"{rounds} rounds of moves = {minutes:.1f} min (a round {args.round:g} s); "
          f"freeze at most every {args.freeze_every:g} s, walk what is unfrozen every "
          f"{args.walk_every:g} s{', the oldest generation by settles only' if args.own_old else ''}:"
          f" {collector.freezes} freezes, {collector.reclaims} reclaims"
          f" ({collector.ended:g} sessions' worth counted since the last)")
    figures["settle_ms_a_minute"] = sum(m for _, m in settles) / minutes
    print(f"settles {len(settles)}: {figures['settle_ms_a_minute']:.0f} ms CPU a minute; objects walked {spread([n for n, _ in settles])}; "
          f"CPU ms {spread([m for _, m in settles])}")
    print(f"full walks (reclaims) {len(watched.walks)}: objects "
          f"{spread([n for n, _ in watched.walks])}; CPU ms {spread([m for _, m in watched.walks])}")
    for generation, taken in watched.own.items():
        print(f"the interpreter's own collections of generation {generation}: {len(taken)}"
              f" ({len(taken) / minutes:.0f} a minute), {sum(taken) / minutes:.0f} ms CPU a minute,"
              f" CPU ms {spread(taken)}, objects walked"
              f" {watched.own_walked[generation] / minutes:.0f} a minute")
        figures[f"own{generation}_walked_a_minute"] = watched.own_walked[generation] / minutes
        figures[f"own{generation}_ms_a_minute"] = sum(taken) / minutes
        figures[f"own{generation}_max_ms"] = max(taken, default=0.0)
    own_old = figures.get("own2_ms_a_minute", 0.0)
    figures["oldest_ms_a_minute"] = figures["settle_ms_a_minute"] + own_old
    print(f"CPU a minute of the settles (young-only ones included) and the interpreter's own"
          f" walks of the oldest generation: {figures['settle_ms_a_minute']:.0f} + {own_old:.0f}"
          f" = {figures['oldest_ms_a_minute']:.0f} ms")
    print(f"kept by freezes (cyclic garbage that died frozen): {kept} objects, "
          f"{figures['kept_a_minute']:.0f} a minute (over the {since:.1f} min since the last reclaim)")
    print("RESULT " + json.dumps(figures), flush=True)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--watchers", type=int, default=1)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--young", type=int, default=0,
                        help="the interpreter's young threshold while playing (0: its own)")
    parser.add_argument("--freeze-every", type=float, default=60.0)
    parser.add_argument("--walk-every", type=float, default=20.0,
                        help="seconds between settles' walks of all that is unfrozen (0: each)")
    parser.add_argument("--own-old", action=argparse.BooleanOptionalAction, default=True,
                        help="the interpreter never collects the oldest generation itself"
                             " (as QuietCollector.run sets it)")
    parser.add_argument("--round", type=float, default=1.0,
                        help="seconds a round of moves stands for (each table moves once)")
    args = parser.parse_args()
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
