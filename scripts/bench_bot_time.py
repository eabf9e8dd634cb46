"""A strong bot's search at a given CPU a decision: the deals it plays.

    python scripts/bench_bot_time.py [--game fivetowers|gotown] [--budgets 0.2,1]
                                     [--decisions N] [--seed S]

Plays seeded games of greedy bots (5 Towers: tables of 2-5 seats; GoTown:
2-4) and at each of seat 0's turns lets the strong bot decide with each
budget in CPU time, on the clock a table's worker gives it
(``fivetowers.tables.workers.WorkerClock``, no ceiling in sight): as on a
quiet core, which is what ``fivetowers tournament`` measures at that
``--time-per-move``. Prints, per budget, the deals a decision its search
played (5 Towers' worlds, GoTown's deals; p50, p10, mean, over the decisions
that search, that is with two plays or more to weigh) and the CPU a decision,
each as a ratio to the largest budget's: the figures to set beside the load
test's pool report ("deals its search played"), where a bot thinks under
load. The deals a CPU second are the machine's; their ratios are not.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any, Callable

from fivetowers.tables.pool_stats import pct
from fivetowers.tables.workers import on_the_clock


def positions(game: str, count: int, seed: int) -> list[Any]:
    """``count`` views at seat 0's turn, from greedy games of 2-5 (GoTown 2-4) seats."""
    views: list[Any] = []
    table = 0
    while len(views) < count:
        players = 2 + table % (4 if game == "fivetowers" else 3)
        names = [f"p{i}" for i in range(players)]
        match: Any
        if game == "fivetowers":
            from fivetowers.games.five_towers.bots import GreedyBot
            from fivetowers.games.five_towers.rules import Game, Variant
            match = Game(names, Variant.BASE, seed=seed + table)
            greedy: Any = GreedyBot()
            over: Callable[[], bool] = match.is_terminal
        else:
            from fivetowers.games.gotown.bots import GreedyBot as GoTownGreedy
            from fivetowers.games.gotown.rules import Game as GoTownGame
            match = GoTownGame(names, 5, seed=seed + table)
            greedy = GoTownGreedy()
            over = lambda: bool(match.over)  # noqa: E731
        rng = random.Random(seed + table)
        while not over() and len(views) < count:
            seat = match.to_move
            assert seat is not None
            view = match.view(seat)
            if seat == 0:
                views.append(view)
            match.apply(greedy.choose(view, rng))
        table += 1
    return views


def strong(game: str, budget: float) -> Any:
    if game == "fivetowers":
        from fivetowers.games.five_towers.bots import StrongBot
        return StrongBot(time_per_move=budget)
    from fivetowers.games.gotown.strong import StrongBot as GoTownStrong
    return GoTownStrong(time_per_move=budget)


def searched_at(game: str, views: list[Any], budget: float) -> tuple[list[float], list[float]]:
    """The deals of each decision that searched, and every decision's CPU."""
    deals: list[float] = []
    cpu: list[float] = []
    for i, view in enumerate(views):
        bot = on_the_clock(strong(game, budget), time.monotonic() + 3600.0)  # as a worker does
        started = time.thread_time()
        bot.choose(view, random.Random(i))
        cpu.append(time.thread_time() - started)
        found = getattr(bot, "worlds", getattr(bot, "deals", 0))
        if found > 0:
            deals.append(float(found))
    return deals, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("fivetowers", "gotown"), default="fivetowers")
    parser.add_argument("--budgets", default=None,
                        help="CPU seconds a decision, comma-separated (default: the game's "
                             "time per move and a fifth of it)")
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    default = 1.0 if args.game == "fivetowers" else 0.05
    budgets = sorted({float(b) for b in args.budgets.split(",")} if args.budgets
                     else {default, default / 5}, reverse=True)
    views = positions(args.game, args.decisions, args.seed)
    print(f"{args.game}: strong bot, {len(views)} decisions at seat 0 of greedy games "
          f"(seed {args.seed}), its budget in CPU on a worker's clock")
    base: tuple[float, float] | None = None
    for budget in budgets:
        deals, cpu = searched_at(args.game, views, budget)
        p50, mean = pct(deals, 0.5), statistics.fmean(deals) if deals else float("nan")
        cpu_mean = statistics.fmean(cpu)
        base = base or (mean, cpu_mean)
        print(f"  {budget:g} s: deals a decision that searched ({len(deals)}) p50 {p50:g} "
              f"p10 {pct(deals, 0.1):g} mean {mean:.1f} ({mean / base[0]:.2f} of the "
              f"largest budget's); CPU a decision mean {cpu_mean:.3f} s "
              f"({cpu_mean / base[1]:.2f})")


if __name__ == "__main__":
    main()
