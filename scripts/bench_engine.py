"""Engine speed: random full games per second and replay time per record.

    python scripts/bench_engine.py [--games N] [--fixtures DIR]

Prints figures and their ratio to the goals of issue 2: a 5-player
great-powers record replays in <= 10 ms in-process, and `fivetowers replay`
as a whole process in <= 0.3 s.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path

from fivetowers.games.five_towers.rules import TYPES, Bid, Game, IllegalBuild, Phase, Record, Variant, replay
from fivetowers.games.five_towers.rules import search

ROOT = Path(__file__).resolve().parent.parent


def random_move(game: Game, rng: random.Random) -> None:
    """A cheap random legal move: any bid or pass; a random buildable take, random steps."""
    if game.phase is Phase.BID:
        actions = game.legal_actions()
        bids = [a for a in actions if isinstance(a, Bid)]
        game.apply(rng.choice(bids) if bids and rng.random() < 0.6 else rng.choice(actions))
        return
    assert game.high_bid is not None and game.to_move is not None
    display, bid = game.display, game.high_bid
    options = [(list(c), 0) for k in [bid] if k <= len(display)
               for c in combinations(display, k)]
    tree = game.players[game.to_move].board.towers[TYPES[2]]
    if game.powers and tree and tree[-1] != 0:
        for pay in range(1, len(tree) + 1):
            if 0 <= bid - pay <= len(display):
                options += [(list(c), pay) for c in combinations(display, bid - pay)]
    rng.shuffle(options)
    for take, pay in options:
        for td in rng.sample([None, *TYPES], 6):
            session = game.build_session()
            try:
                session.choose(take, pay, td)
            except IllegalBuild:
                continue
            while not session.done:
                session.place(rng.choice(session.completable_steps()))
            game.apply(session.finish(game.to_move))
            return
    raise AssertionError("no buildable choice for a won bid")


def games_per_second(players: int, variant: Variant, count: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(count):
        game = Game([f"P{j}" for j in range(players)], variant, seed=seed + i)
        while not game.is_terminal():
            random_move(game, rng)
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--fixtures", type=Path, default=ROOT / "tests" / "fixtures" / "records")
    args = parser.parse_args()

    print("random full games (random legal moves, including the move choice):")
    for players, variant in ((2, Variant.BASE), (5, Variant.GREAT_POWERS)):
        rate = games_per_second(players, variant, args.games, 1)
        print(f"  {players}-player {variant.value:13s} {rate:8.1f} games/s")

    print("in-process replay per record (median of 7 runs; cold = caches cleared):")
    cold_times: list[float] = []
    gp5 = 0.0
    for path in sorted(args.fixtures.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        data = json.loads(path.read_text())
        cold, warm = [], []
        for _ in range(7):
            search.clear_caches()
            t = time.perf_counter()
            replay(Record.from_json(data))
            cold.append(time.perf_counter() - t)
            t = time.perf_counter()
            replay(Record.from_json(data))
            warm.append(time.perf_counter() - t)
        c, w = statistics.median(cold) * 1000, statistics.median(warm) * 1000
        cold_times.append(c)
        if path.stem == "gp-5p-seed8":
            gp5 = c
        print(f"  {path.stem:22s} cold {c:6.2f} ms   warm {w:6.2f} ms")
    print(f"  median over {len(cold_times)} records (cold): {statistics.median(cold_times):.2f} ms")
    if gp5:
        print(f"  5-player great-powers: {gp5:.2f} ms = {gp5 / 10:.2f} x the 10 ms goal")

    target = args.fixtures / "gp-5p-seed8.json"
    if target.exists():
        runs = []
        for _ in range(5):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "fivetowers.cli", "replay", str(target)],
                           check=True, capture_output=True)
            runs.append(time.perf_counter() - t)
        whole = statistics.median(runs)
        print(f"`fivetowers replay` whole process (gp-5p-seed8, median of 5): {whole * 1000:.0f} ms"
              f" = {whole / 0.3:.2f} x the 0.3 s goal")


if __name__ == "__main__":
    main()
