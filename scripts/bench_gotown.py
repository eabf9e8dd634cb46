"""GoTown's engine, replay and hint speed (issue 13's benchmarks).

    python scripts/bench_gotown.py [--games 200] [--positions 2000] [--seed 0]

Prints: random full games per second with 2 and 4 players (random legal
plays through ``legal_actions`` and the one validator, as the random bot
plays); the in-process replay of a record (parse + every action, per
record and per action); and the hint's latency p50/p99/max over positions
taken at the start of real turns of greedy-bot games, with the ratio to
the goal (p99 ≤ 10 ms); and the strong bot's decisions per second at its
default budget in heads-up games against the greedy bot, with the deals
and playouts its searched decisions played. ``--playouts-only`` prints
just the playouts' speed (CPU time, so a busy machine's figure holds): greedy+
self-play games per second, and the strong bot's heads-up deals (a deal and
a playout of each of its candidate plays) per second and per 0.05 s decision.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import replace

from fivetowers.games.gotown.bots import GreedyBot, RandomBot
from fivetowers.games.gotown.hint import hint
from fivetowers.games.gotown.plus import plus_play
from fivetowers.games.gotown.rules import Game, Record, replay
from fivetowers.games.gotown.rules.position import Position
from fivetowers.games.gotown.strong import (
    FORECAST_DEALS, MIN_DEALS, Dealer, StrongBot, read_turn,
)

NAMES = ("An", "Bình", "Chi", "Dũng")
HINT_GOAL_P99_MS = 10.0


def random_games(players: int, count: int, seed: int) -> tuple[float, list[Game]]:
    bot, games = RandomBot(), []
    start = time.perf_counter()
    for i in range(count):
        rng = random.Random(seed + i)
        game = Game(NAMES[:players], rng.choice((4, 5)), seed=seed + i)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            game.apply(bot.choose(game.view(seat), rng))
        games.append(game)
    return time.perf_counter() - start, games


def hint_positions(count: int, seed: int) -> list[Position]:
    rng, bot = random.Random(seed), GreedyBot()
    out: list[Position] = []
    while len(out) < count:
        game = Game(NAMES[:rng.randint(2, 4)], rng.choice((4, 5)), seed=rng.randrange(10**9))
        last_turn = 0
        while not game.over and len(out) < count:
            seat = game.to_move
            assert seat is not None
            if game.turn != last_turn:  # the start of a turn, after its draw
                out.append(Position.from_game(game, seat))
                last_turn = game.turn
            game.apply(bot.choose(game.view(seat), rng))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strong-games", type=int, default=4)
    parser.add_argument("--playouts-only", action="store_true",
                        help="only the playouts' speed (greedy+ games, the strong bot's deals)")
    parser.add_argument("--strong-only", action="store_true",
                        help="the playouts' speed and the strong bot's decisions only")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time the playouts this many times, keep the quickest")
    parser.add_argument("--infer", choices=("design", "on", "off"), default="design",
                        help="the heads-up search's reading of the opponent's last turn "
                             "(Search.infer): as the design has it, or on or off (side by side)")
    args = parser.parse_args()
    infer = None if args.infer == "design" else args.infer == "on"
    playout_speed(args.games, args.seed, args.repeat, infer)
    if args.playouts_only:
        return
    if args.strong_only:
        strong_decisions(args.strong_games, args.seed)
        return

    records = []
    for players in (2, 4):
        spent, games = random_games(players, args.games, args.seed)
        actions = sum(len(g.actions) for g in games)
        print(f"random games, {players} players: {args.games / spent:8.1f} games/s "
              f"({actions / spent:8.0f} plays/s, {actions / args.games:.0f} plays a game)")
        records += [json.dumps(g.record_json()) for g in games]

    start = time.perf_counter()
    actions = 0
    for text in records:
        game, error = replay(Record.from_json(json.loads(text)))
        assert error is None
        actions += len(game.actions)
    spent = time.perf_counter() - start
    print(f"replay in process: {1000 * spent / len(records):.2f} ms a record, "
          f"{1e6 * spent / actions:.1f} µs an action ({len(records)} records)")

    positions = hint_positions(args.positions, args.seed)
    times = []
    for position in positions:
        start = time.perf_counter()
        hint(position)
        times.append(1000 * (time.perf_counter() - start))
    times.sort()
    p50, p99 = statistics.median(times), times[int(0.99 * (len(times) - 1))]
    print(f"hint over {len(positions)} positions from greedy games: p50 {p50:.3f} ms, "
          f"p99 {p99:.3f} ms, max {times[-1]:.3f} ms; p99 / goal "
          f"{p99 / HINT_GOAL_P99_MS:.3f} (goal p99 ≤ {HINT_GOAL_P99_MS:.0f} ms)")
    strong_decisions(args.strong_games, args.seed)


def strong_decisions(games: int, seed: int) -> None:
    """The strong bot at its default budget against the greedy bot, heads-up:
    how many of its decisions dealt at all, how many searched to the end of
    their time (the forecast after FORECAST_DEALS deals reached MIN_DEALS), and how
    many of those reached MIN_DEALS deals (heads-up, the others play greedy+)."""
    decisions = searched = full = trusted = deals = full_deals = playouts = 0
    spent = 0.0
    for index in range(games):
        game = Game(list(NAMES[:2]), 5, seed=seed + index)
        strong = StrongBot()
        bots: list[StrongBot | GreedyBot] = \
            [strong, GreedyBot()] if index % 2 == 0 else [GreedyBot(), strong]
        rng = random.Random(seed + index)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            bot = bots[seat]
            start = time.perf_counter()
            strong.deals = 0
            action = bot.choose(game.view(seat), rng)
            if bot is strong:
                spent += time.perf_counter() - start
                decisions += 1
                searched += strong.deals > 0
                full += strong.deals > FORECAST_DEALS
                trusted += strong.deals >= MIN_DEALS
                deals += strong.deals
                full_deals += strong.deals if strong.deals > FORECAST_DEALS else 0
                playouts += strong.playouts
            game.apply(action)
    print(f"strong bot ({StrongBot().time_per_move:g} s budget): {decisions / spent:.1f} "
          f"decisions/s over {decisions} decisions; {searched} dealt, "
          f"{deals / max(searched, 1):.1f} deals and {playouts / max(searched, 1):.0f} "
          f"playouts each ({playouts / spent:.0f} playouts/s); {full} searched to their "
          f"deadline (MIN_DEALS {MIN_DEALS} forecast), {full_deals / max(full, 1):.1f} deals each; "
          f"{trusted} reached MIN_DEALS (the search had its say)")


DECISION = 0.05
"""The strong bot's budget in the tournament goal (seconds a move)."""


def playout_speed(games: int, seed: int, repeat: int = 1, infer: bool | None = None) -> None:
    """Greedy+ self-play games per CPU second (2-4 players), and the strong
    bot's heads-up deals per CPU second at decisions of greedy+ against
    greedy games: each deal dealt, then played out for every candidate.
    The same work ``repeat`` times, the quickest kept (the least disturbed
    by other processes on a busy machine). ``infer``: the search's
    reading of the opponent's last turn on or off (None: as designed)."""
    self_play = min(_self_play(games, seed) for _ in range(repeat))
    plays, spent = self_play
    print(f"greedy+ self-play: {games / spent:8.1f} games/s ({plays / spent:8.0f} plays/s, "
          f"CPU time, best of {repeat})")
    deals, playouts, spent = min((_search(max(games // 10, 1), seed, infer)
                                  for _ in range(repeat)),
                                 key=lambda run: run[2])
    print(f"strong bot's heads-up search: {deals / spent:8.0f} deals/s ({playouts / spent:8.0f} "
          f"playouts/s, CPU time, best of {repeat}), {DECISION * deals / spent:.1f} deals in a "
          f"{DECISION:g} s decision ({deals} deals)")


def _self_play(games: int, seed: int) -> tuple[int, float]:
    """(plays, CPU seconds) of ``games`` greedy+ self-play games."""
    start, plays = time.process_time(), 0
    for i in range(games):
        rng = random.Random(seed + i)
        game = Game(NAMES[:2 + i % 3], 4 + i % 2, seed=seed + i)
        while not game.over:
            game.apply_trusted(plus_play(game, rng))
        plays += len(game.actions)
    return plays, time.process_time() - start


def _search(games: int, seed: int, infer: bool | None = None) -> tuple[int, int, float]:
    """(deals, playouts, CPU seconds) of the strong bot's search, 4 deals at
    each of its decisions in ``games`` heads-up games against greedy (the
    reading of the opponent's turn, if any, made at the start of each turn)."""
    bot, rng = StrongBot(), random.Random(seed)
    design = bot.design(2)
    if infer is not None:
        design = replace(design, infer=infer)
    deals = playouts = 0
    spent = 0.0
    for i in range(games):
        game = Game(list(NAMES[:2]), 5, seed=seed + i)
        greedy = GreedyBot(plan=False)
        turn, reading = -1, None
        while not game.over:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            if seat == i % 2 and len(view.legal) > 1:
                start = time.process_time()
                if view.turn != turn:
                    turn, reading = view.turn, read_turn(view) if design.infer else None
                dealer = Dealer(view, reading=reading)
                plays = bot.candidates(view, bot.default(view, dealer, rng), design)
                for _ in range(4):
                    deal, playout_seed = dealer.deal(rng), rng.randrange(1 << 30)
                    for play in plays:
                        bot._playout(deal, play, seat, random.Random(playout_seed), design)
                    playouts += len(plays)
                    deals += 1
                spent += time.process_time() - start
                game.apply_trusted(plus_play(game, rng))
            else:
                game.apply(greedy.choose(view, rng))
    return deals, playouts, spent


if __name__ == "__main__":
    main()
