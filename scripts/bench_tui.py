"""The table screen's speed: key to screen, and the table layer's overhead.

    python scripts/bench_tui.py [--games N]

Plays N headless games (3 players, base, 2 random stand-in bots, no pacing)
with the keyboard at 80x24 and 120x40 and prints, per size, the time from a
key going in (Pilot) to the end of the table's redraw showing its effect
(p50/p99), and the cost of one full redraw of the table (p50/p99). Terminal
output time is not included (headless). Then N bots-only games through a Table
(events, persistence hook, worker threads) against the same games applied
directly to the engine: actions per second and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fivetowers.games.five_towers.rules import Game, Phase, Variant  # noqa: E402
from fivetowers.games.five_towers.client import new_local_game  # noqa: E402
from fivetowers.games.five_towers.bots.random_bot import RandomBot  # noqa: E402
from fivetowers.games.five_towers.solver import exhaustive_hint  # noqa: E402
from fivetowers.games.five_towers.tui.app import create_app  # noqa: E402
from fivetowers.games.five_towers.tui.screens.table import TableScreen  # noqa: E402


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] * 1000


async def keyboard_games(games: int, size: tuple[int, int]) -> tuple[list[float], list[float]]:
    presses: list[float] = []
    redraws: list[float] = []
    pressed: list[float] = []  # when the key now being handled went in
    original = TableScreen.refresh_table

    async def timed(self: TableScreen) -> None:
        start = time.perf_counter()
        await original(self)
        end = time.perf_counter()
        redraws.append(end - start)
        if pressed:  # the first redraw after a key shows its effect
            presses.append(end - pressed.pop())

    TableScreen.refresh_table = timed  # type: ignore[method-assign]
    try:
        for g in range(games):
            client = new_local_game(3, 2, Variant.BASE, seed=g, bot_delay=0, advice=False,
                                    hinter=exhaustive_hint,
                                    bots_by_seat={1: RandomBot(), 2: RandomBot()})
            app = create_app(client)
            async with app.run_test(size=size) as pilot:
                while not client.table.over:
                    await client.table.wait_idle()
                    await app.workers.wait_for_complete()
                    await pilot.pause()
                    view = client.view()
                    if view.phase is Phase.OVER:
                        break
                    if view.phase is Phase.BID:
                        keys = [str(view.legal_bids[-1])] if view.legal_bids else ["p"]
                    else:
                        keys = ["a", "enter"]
                    for key in keys:
                        pressed[:] = [time.perf_counter()]
                        await pilot.press(key)
                        pressed.clear()
    finally:
        TableScreen.refresh_table = original  # type: ignore[method-assign]
    return presses, redraws


def direct_games(games: int, actions: float, spent: float) -> tuple[float, float]:
    for g in range(games):
        game, bot, rng = Game(list("ABC"), Variant.BASE, seed=g), RandomBot(), random.Random(g)
        start = time.perf_counter()
        while game.phase is not Phase.OVER:
            assert game.to_move is not None
            game.apply(bot.choose(game.view(game.to_move), rng))
        spent += time.perf_counter() - start
        actions += len(game.actions)
    return actions, spent


async def table_overhead(games: int) -> tuple[float, float]:
    direct_actions = direct_time = 0.0
    for warm_up in (True, False):  # the engine's search caches fill on the first pass
        if not warm_up:
            direct_actions = direct_time = 0.0
        direct_actions, direct_time = direct_games(games, direct_actions, direct_time)
    table_actions = table_time = 0.0
    for g in range(games):
        client = new_local_game(3, 3, Variant.BASE, seed=g, bot_delay=0, advice=False,
                                bots_by_seat={i: RandomBot() for i in range(3)})
        stored: list[object] = []
        client.table.on_action = stored.append
        client.table.subscribe(lambda event: None)
        start = time.perf_counter()
        client.table.start()
        await client.table.wait_idle()
        table_time += time.perf_counter() - start
        table_actions += len(stored)
    return direct_actions / direct_time, table_actions / table_time


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    args = parser.parse_args()
    for size in [(80, 24), (120, 40)]:
        presses, redraws = await keyboard_games(args.games, size)
        print(f"{size[0]}x{size[1]}: {len(presses)} key presses, key to screen "
              f"p50 {pct(presses, .5):.1f} ms p99 {pct(presses, .99):.1f} ms; "
              f"{len(redraws)} redraws p50 {pct(redraws, .5):.1f} ms "
              f"p99 {pct(redraws, .99):.1f} ms (mean {statistics.mean(redraws) * 1000:.1f})")
    direct, table = await table_overhead(max(args.games, 3))
    print(f"bots-only games: engine direct {direct:.0f} actions/s, through a Table "
          f"{table:.0f} actions/s (ratio {direct / table:.1f}x: worker threads and events)")


if __name__ == "__main__":
    asyncio.run(main())
