"""Benchmark the lobby's history screens: opening a kept game, stepping through it.

    .venv/bin/python scripts/bench_history.py [--games 20]

1. Opening a kept game (``load_table`` + every position of a GameHistory),
   by player count: milliseconds, median and worst.
2. What that costs the event loop every session shares: how late a 1 ms
   ticker runs (p99, worst) while games are opened on the loop (the naive
   way) and through Archive (store call and replay in threads), and the ratio.
3. "My games" with 50 kept games, and the leaderboard: milliseconds a query.
4. A replay step in a headless app at 80x24, five players: key press to
   redrawn screen (Pilot), and the screen's own drawing code alone.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Awaitable, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fivetowers.games import game_kind  # noqa: E402
from fivetowers.games.five_towers.rules import Variant  # noqa: E402
from fivetowers.lobby.archive import Archive  # noqa: E402
from fivetowers.games.five_towers.tui.screens.replay import ReplayScreen  # noqa: E402
from fivetowers.tables.history import GameHistory  # noqa: E402
from fivetowers.tables.sqlite_store import SqliteStore  # noqa: E402
from fivetowers.tables.store import StoredSeat  # noqa: E402
from tests.server.history_helpers import ANN, ScreenHost, keep, play  # noqa: E402

NAMES = ["ann", "Hedda (bot)", "Peter (bot)", "Anni (bot)", "Jonas (bot)"]


def fill(store: SqliteStore, games: int) -> dict[int, list[int]]:
    """``games`` finished games per player count (2-5), ann in seat 0; ids by count."""
    ids: dict[int, list[int]] = {}
    for players in range(2, 6):
        seats = [StoredSeat("ann", fingerprint=ANN)] + [
            StoredSeat(n, bot="random") for n in NAMES[1:players]]
        ids[players] = [keep(store, f"G{players}{g:03d}", seats,
                             play(NAMES[:players], Variant.GREAT_POWERS, seed=100 * players + g))
                        for g in range(games)]
    return ids


def ms(seconds: list[float]) -> str:
    return f"median {statistics.median(seconds) * 1e3:6.2f} ms, worst {max(seconds) * 1e3:6.2f} ms"


async def lateness(work: Callable[[], Awaitable[None]]) -> list[float]:
    """How late a 1 ms ticker on the loop runs, tick by tick, while ``work`` runs."""
    loop = asyncio.get_running_loop()
    late: list[float] = []
    done = False

    async def tick() -> None:
        while not done:
            before = loop.time()
            await asyncio.sleep(0.001)
            late.append(max(0.0, loop.time() - before - 0.001))

    ticker = asyncio.create_task(tick())
    await work()
    done = True
    await ticker
    return late


def p99(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.99))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per player count")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, \
            SqliteStore(Path(tmp) / "s.sqlite3", durable=False) as store:
        ids = fill(store, args.games)
        print(f"{args.games} finished games for each player count, great powers")
        print("1. opening a kept game (load_table + GameHistory):")
        for players, games in ids.items():
            times = []
            for table_id in games:
                start = time.perf_counter()
                GameHistory(game_kind("fivetowers"), store.load_table(table_id).record)
                times.append(time.perf_counter() - start)
            print(f"   {players} players: {ms(times)}")

        every = [i for games in ids.values() for i in games]

        async def on_loop() -> None:
            for table_id in every:
                GameHistory(game_kind("fivetowers"), store.load_table(table_id).record)
                await asyncio.sleep(0)

        async def archived() -> None:
            archive = Archive(store)
            for table_id in every:
                await archive.game(table_id, ANN)

        naive, threaded = await lateness(on_loop), await lateness(archived)
        print(f"2. 1 ms ticker lateness opening {len(every)} games: on the loop p99 "
              f"{p99(naive) * 1e3:.2f} ms (worst {max(naive) * 1e3:.2f}), through Archive "
              f"p99 {p99(threaded) * 1e3:.2f} ms (worst {max(threaded) * 1e3:.2f}); "
              f"p99 ratio {p99(naive) / max(p99(threaded), 1e-6):.1f}x")

        times, boards = [], []
        for _ in range(20):
            start = time.perf_counter()
            mine = store.games_of(ANN, 50)
            times.append(time.perf_counter() - start)
            start = time.perf_counter()
            store.leaderboard()
            boards.append(time.perf_counter() - start)
        print(f"3. my games ({len(mine)} of {len(every)} listed): {ms(times)}; "
              f"leaderboard: {ms(boards)}")

        kept = await Archive(store).game(ids[5][0], ANN)
        app = ScreenHost(lambda: kept.kind.screens().replay_screen(
            kept.replay, kept.info.id, kept.names, kept.seat))
        steps, draws = [], []
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            count = min(60, len(kept.replay) - 1)
            for _ in range(count):
                start = time.perf_counter()
                await pilot.press("right")
                await pilot.pause()
                steps.append(time.perf_counter() - start)
            for i in range(count):
                screen.position = i
                start = time.perf_counter()
                await screen.show_position()
                draws.append(time.perf_counter() - start)
        print(f"4. a replay step at 80x24, 5 players ({count} steps): key to redrawn screen "
              f"(Pilot, Textual's layout included) {ms(steps)}; the screen's own drawing "
              f"code {ms(draws)}")

if __name__ == "__main__":
    asyncio.run(main())
