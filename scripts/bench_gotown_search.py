"""The GoTown strong bot's search under the tournament's clock, measured in
CPU time so that a busy machine's figures hold (issue 13's bot goal).

    python scripts/bench_gotown_search.py [--games 6] [--seed 0] [--budget 0.05]

Plays heads-up games of the strong bot against the greedy bot (seats
alternating) with the bot's clock reading the process's CPU time instead of
the wall clock, so each decision gets ``--budget`` seconds of CPU as it
would get of wall time on a quiet core. Prints, over the decisions that
searched (more than one candidate play, no win or steal made at once): how
many deals each saw (percentiles), the share that reached MIN_DEALS (the
search had its say) and 60 deals; and the CPU µs a playout and a deal cost
inside the search loop, with the time spent before it (the view, the
dealer, greedy+'s play, the candidates). ``--profile N`` instead prints
cProfile's top N functions over those games. ``--count`` instead counts
the Python opcodes run and the calls made (Python and C) by the search's
deals and playouts at the decisions of those games (4 deals each, every
candidate played out): a measure of work that no other process's load
changes, for before/after comparisons on a busy machine.

    python scripts/bench_gotown_search.py --digest-calls [--all]

``--digest-calls`` instead has a fresh ``StrongBot(simulations=60)`` decide
at every position of the strong digest's seeded games
(``tests/gotown/strong_digest.py``, seeds 0-47; heads-up ones only unless
``--all``, which takes every table size) and prints, over the decisions
that searched, cProfile's total calls a deal (Python and C; the same on any
machine) and the CPU a deal of a run without the profiler (the whole
decision's, divided by its deals: noisy on a busy machine, compare side by
side only).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import pstats
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Any, Callable, Iterator
from unittest import mock

from fivetowers.games.gotown.bots import GreedyBot
from fivetowers.games.gotown.rules import Action, Game, PlayerView
from fivetowers.games.gotown.strong import HEADS_UP_SEARCH, MIN_DEALS, Dealer, Search, StrongBot

NAMES = ("An", "Bình")


class Decisions:
    """What the strong bot's searched decisions saw."""

    def __init__(self) -> None:
        self.deals: list[int] = []
        self.playouts = 0
        self.loop_cpu = 0.0  # from the first deal to the answer
        self.before_cpu = 0.0  # from the call to the first deal
        self.all_decisions = 0


class TimedBot(StrongBot):
    """The strong bot, telling when its search loop starts."""

    loop_started = 0.0

    def candidates(self, view: PlayerView, greedy: Action, design: Search) -> list[Action]:
        plays = super().candidates(view, greedy, design)
        self.loop_started = time.process_time()
        return plays


def play(games: int, seed: int, budget: float) -> Decisions:
    found = Decisions()
    for index in range(games):
        game = Game(list(NAMES), 5, seed=seed + index)
        # what the budget alone gives: no cap at MOST_DEALS, no time bank
        bot = TimedBot(budget, heads_up=replace(HEADS_UP_SEARCH, most=0), bank_cap=1.0)
        bots: list[StrongBot | GreedyBot] = \
            [bot, GreedyBot()] if index % 2 == 0 else [GreedyBot(), bot]
        rng = random.Random(seed + index)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            mover = bots[seat]
            start = time.process_time()
            bot.deals, bot.loop_started = 0, 0.0
            action = mover.choose(game.view(seat), rng)
            if mover is bot:
                found.all_decisions += 1
                if bot.deals:
                    end = time.process_time()
                    found.deals.append(bot.deals)
                    found.playouts += bot.playouts
                    found.loop_cpu += end - bot.loop_started
                    found.before_cpu += bot.loop_started - start
            game.apply(action)
    return found


@contextlib.contextmanager
def cpu_clock() -> Iterator[None]:
    """The strong bot's clock reads CPU time (its deadline too): the time
    module's perf_counter is the process's CPU clock while the games play."""
    with mock.patch("time.perf_counter", time.process_time):
        yield


def report(found: Decisions, budget: float) -> None:
    deals = sorted(found.deals)
    searched = len(deals)
    if not searched:
        print("no searched decision")
        return
    cut = statistics.quantiles(deals, n=10) if searched > 1 else deals * 9
    total_deals = sum(deals)
    reached = sum(d >= MIN_DEALS for d in deals)
    print(f"{found.all_decisions} decisions, {searched} searched (CPU clock, "
          f"{budget:g} s a move)")
    print(f"deals a searched decision: p10 {cut[0]:.0f}, p50 {cut[4]:.0f}, p90 {cut[8]:.0f}, "
          f"mean {total_deals / searched:.1f}")
    print(f"reached MIN_DEALS={MIN_DEALS} (the search had its say): {reached} "
          f"({100 * reached / searched:.1f}%); reached 60: "
          f"{sum(d >= 60 for d in deals)} ({100 * sum(d >= 60 for d in deals) / searched:.1f}%)")
    print(f"CPU in the loop: {1e6 * found.loop_cpu / max(found.playouts, 1):.0f} µs a playout "
          f"({found.playouts / total_deals:.2f} a deal), "
          f"{1e6 * found.loop_cpu / total_deals:.0f} µs a deal; before the loop "
          f"{1e3 * found.before_cpu / searched:.2f} ms a decision")


def searched_views(games: int, seed: int) -> list[PlayerView]:
    """The strong bot's views at the decisions of heads-up games of
    greedy+ against greedy where it has more than one play."""
    found: list[PlayerView] = []
    for index in range(games):
        game = Game(list(NAMES), 5, seed=seed + index)
        rng, greedy = random.Random(seed + index), GreedyBot(plan=False)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            if seat == index % 2:
                if len(view.legal) > 1:
                    found.append(view)
                game.apply(StrongBot(search=False).choose(view, rng))
            else:
                game.apply(greedy.choose(view, rng))
    return found


def search_work(views: list[PlayerView], seed: int, deals: int = 4) -> tuple[int, int]:
    """The search's deals and playouts at ``views``: (deals, playouts)."""
    bot, rng = StrongBot(), random.Random(seed)
    design = bot.design(2)
    dealt = playouts = 0
    for view in views:
        assert view.seat is not None
        dealer = Dealer(view)
        plays = bot.candidates(view, bot.default(view, dealer, rng), design)
        for _ in range(deals):
            deal, playout_seed = dealer.deal(rng), rng.randrange(1 << 30)
            for action in plays:
                bot._playout(deal, action, view.seat, random.Random(playout_seed), design)
            dealt, playouts = dealt + 1, playouts + len(plays)
    return dealt, playouts


def count_work(games: int, seed: int) -> None:
    """Print the opcodes and calls a deal of :func:`search_work`."""
    views = searched_views(games, seed)
    opcodes = calls = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
        nonlocal opcodes, calls
        frame.f_trace_opcodes = True
        if event == "opcode":
            opcodes += 1
        elif event == "call":
            calls += 1
        return trace

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal calls
        calls += event == "c_call"

    sys.setprofile(profile)
    sys.settrace(trace)
    try:
        deals, playouts = search_work(views, seed)
    finally:
        sys.settrace(None)
        sys.setprofile(None)
    print(f"search work over {len(views)} decisions, {deals} deals, {playouts} playouts: "
          f"{opcodes / deals:.0f} Python opcodes and {calls / deals:.0f} calls a deal "
          f"({opcodes / playouts:.0f} and {calls / playouts:.0f} a playout)")


DIGEST_SEEDS = range(48)
DIGEST_DEALS = 60


def digest_calls(every_size: bool) -> None:
    """Print the calls and CPU a deal of the strong bot's searched decisions
    at the strong digest's positions (see the module's docstring)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.gotown.strong_digest import positions, table

    views = [(seed, i, view) for seed in DIGEST_SEEDS
             if every_size or table(seed).player_count == 2
             for i, view in enumerate(positions(seed))]

    def decide() -> tuple[int, int, int]:
        searched = deals = playouts = 0
        for seed, i, view in views:
            bot = StrongBot(simulations=DIGEST_DEALS)
            bot.choose(view, random.Random(seed * 1000 + i))
            if bot.deals > 1:
                searched, deals, playouts = \
                    searched + 1, deals + bot.deals, playouts + bot.playouts
        return searched, deals, playouts

    start = time.process_time()
    searched, deals, playouts = decide()
    cpu = time.process_time() - start
    profiler = cProfile.Profile()
    profiler.runcall(decide)
    calls: int = pstats.Stats(profiler).total_calls  # type: ignore[attr-defined]
    print(f"{len(views)} positions ({'every table size' if every_size else 'heads-up'}, "
          f"seeds {DIGEST_SEEDS.start}-{DIGEST_SEEDS.stop - 1}), {searched} searched at "
          f"{DIGEST_DEALS} deals: {deals} deals, {playouts} playouts")
    print(f"calls a deal {calls / deals:.0f} ({calls / playouts:.0f} a playout; cProfile, "
          f"every decision's calls over the searched ones' deals)")
    print(f"CPU a deal {1e3 * cpu / deals:.3f} ms (every decision's CPU over the searched "
          f"ones' deals, without the profiler)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=0.05)
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    parser.add_argument("--count", action="store_true",
                        help="count the search's opcodes and calls a deal (fixed work)")
    parser.add_argument("--digest-calls", action="store_true",
                        help="calls and CPU a deal at the strong digest's positions")
    parser.add_argument("--all", action="store_true",
                        help="with --digest-calls: every table size, not heads-up only")
    args = parser.parse_args()
    if args.digest_calls:
        digest_calls(args.all)
        return
    if args.count:
        count_work(args.games, args.seed)
        return
    with cpu_clock():
        if args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(play, args.games, args.seed, args.budget)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)
            return
        report(play(args.games, args.seed, args.budget), args.budget)


if __name__ == "__main__":
    main()
