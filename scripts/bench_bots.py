"""Bot speed: rollouts per second, the strong bot's cost a world, and decision time per bot.

    python scripts/bench_bots.py [--games N] [--time-per-move T] [--worlds-only]

Prints how many simulated continuations the strong bot's rollout plays per
second (from a game's start, 2 and 4 players); the strong bot's cost a
world: worlds per CPU second and Python function calls per world (the
machine-independent figure: compare two versions by it) over fixed decisions
(``simulations=100`` at 24 positions of greedy games of 2-5 seats, as
``bench_bot_time.py`` deals them); and the mean decision time of each bot
over ``N`` games against the random bot, with the ratio to the strong bot's
budget (it should stay close to 1: the budget is the whole decision).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from fivetowers.games.five_towers.bots import GreedyBot, RandomBot, StrongBot
from fivetowers.games.five_towers.bots.base import Bot
from fivetowers.games.five_towers.bots.determinize import determinize
from fivetowers.games.five_towers.bots.sim import from_game, play_out
from fivetowers.games.five_towers.rules import Game, Variant


def rollouts_per_second(players: int, seconds: float = 1.0) -> float:
    game = Game([f"p{i}" for i in range(players)], Variant.BASE, seed=1)
    view = game.view(0)
    rng = random.Random(0)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        play_out(from_game(determinize(view, rng)), rng)
        count += 1
    return count / (time.perf_counter() - start)


def cost_a_world(decisions: int = 24, worlds: int = 100) -> tuple[int, float, float]:
    """Worlds played, worlds per CPU second, and Python calls per world of the
    strong bot at ``worlds`` a decision over ``decisions`` seeded positions."""
    import cProfile
    import pstats

    from bench_bot_time import positions

    views = positions("fivetowers", decisions, 1)

    def decide() -> int:
        played = 0
        for i, view in enumerate(views):
            bot = StrongBot(simulations=worlds)
            bot.choose(view, random.Random(i))
            played += bot.worlds
        return played

    started = time.process_time()
    played = decide()
    cpu = time.process_time() - started
    profile = cProfile.Profile()
    profile.runcall(decide)
    calls: int = pstats.Stats(profile).total_calls  # type: ignore[attr-defined]
    return played, played / cpu, calls / played


def decision_times(bot: Bot, games: int, variant: Variant) -> list[float]:
    times: list[float] = []
    for seed in range(games):
        game = Game(["bot", "random"], variant, seed=seed)
        rngs = [random.Random(seed), random.Random(seed + 1)]
        players: list[Bot] = [bot, RandomBot()]
        while not game.is_terminal():
            seat = game.to_move
            assert seat is not None
            start = time.perf_counter()
            action = players[seat].choose(game.view(seat), rngs[seat])
            if seat == 0:
                times.append(time.perf_counter() - start)
            game.apply(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--time-per-move", type=float, default=0.05)
    parser.add_argument("--worlds-only", action="store_true",
                        help="only the strong bot's cost a world")
    args = parser.parse_args()
    played, rate, calls = cost_a_world()
    print(f"strong bot, 100 worlds a decision at 24 positions: {played} worlds played, "
          f"{rate:,.0f} worlds a CPU second, {calls:,.0f} Python calls a world")
    if args.worlds_only:
        return
    for players in (2, 4):
        rate = rollouts_per_second(players)
        print(f"rollouts from the start, {players} players: {rate:,.0f}/s "
              f"({1000 / rate:.2f} ms each, determinisation included)")
    for variant in (Variant.BASE, Variant.GREAT_POWERS):
        for name, bot in (("random", RandomBot()), ("greedy", GreedyBot()),
                          ("strong", StrongBot(args.time_per_move))):
            times = decision_times(bot, args.games, variant)
            mean, top = statistics.fmean(times), max(times)
            line = (f"{variant.value:<12} {name:<7} {len(times):>4} decisions, mean "
                    f"{1000 * mean:7.1f} ms, max {1000 * top:7.1f} ms")
            if name == "strong":
                line += f", mean/budget {mean / args.time_per_move:.2f}"
            print(line)


if __name__ == "__main__":
    main()
