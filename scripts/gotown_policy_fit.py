"""Fit greedy+'s numbers (fivetowers/games/gotown/plus.py's Knobs: the worths a
play is ranked by, the build rules' limits) by a coordinate search on paired
games against the plain greedy policy.

    python scripts/gotown_policy_fit.py --games 3000 --seed 21 --budget 1500
    python scripts/gotown_policy_fit.py --knobs milkshake=30 --only milkshake,bone

Every variant plays the same deals in the same seats (seed ``--seed``: the
deals of scripts/gotown_policy_arena.py with that seed) against the greedy
policy; a variant's score is its mean share of the wins, and it is compared
with the incumbent's deal by deal (most deals play the same, so the paired
difference has a narrow interval). Each sweep tries every knob one step up
and one step down and keeps the best move whose paired gain is more than
``--sure`` standard errors; a sweep that keeps nothing halves the steps.
Prints every evaluation, and at the end the fitted knobs as ``--knobs`` text
for the arena, whose ``--base`` then validates them on fresh seeds (a fit on
one seed's deals is partly a fit to their noise).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import fields, replace
from multiprocessing import Pool
from multiprocessing.pool import Pool as PoolType
from typing import Iterable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gotown_policy_arena import Policy, _share, knobs_from, play  # noqa: E402

from fivetowers.games.gotown.playout import greedy_play  # noqa: E402
from fivetowers.games.gotown.plus import GREEDY_PLUS, Knobs, plus_play  # noqa: E402

STEPS: dict[str, float] = {
    "steal": 10.0, "steal_height": 3.0, "super_thief": 10.0, "thief": 10.0,
    "thief_size": 0.5, "build": 20.0, "build_spread": 0.2, "donut_truck": 30.0,
    "dog_top": 20.0, "dog_below": 10.0, "milkshake": 20.0, "milk_threat": 5.0,
    "jackhammer": 15.0, "wrecking_ball": 15.0, "bone": 15.0, "hit_threat": 5.0,
    "own_height": 0.5, "risk_p": 0.1, "hoard": 1, "refill_build": 1,
}
"""The first step of each knob fitted (ints stay ints)."""

Job = tuple[Knobs, int, int, int, int]  # knobs, seed, players, first deal, last deal + 1


def _chunk(job: Job) -> list[float]:
    knobs, seed, players, first, stop = job
    mine: Policy = lambda g, r: plus_play(g, r, knobs)
    shares = []
    for i in range(first, stop):
        seat = i % players
        policies: list[Policy] = [greedy_play] * players
        policies[seat] = mine
        shares.append(_share(play(policies, seed * 1_000_003 + i), seat))
    return shares


class Objective:
    """The variant's share of each deal, on fixed deals (common to every call)."""

    def __init__(self, pool: PoolType, seed: int, games: int, players: int, chunks: int) -> None:
        self.pool, self.seed, self.games, self.players = pool, seed, games, players
        size = -(-games // chunks)
        self.bounds = [(a, min(a + size, games)) for a in range(0, games, size)]
        self.calls = 0

    def __call__(self, knobs: Knobs) -> list[float]:
        self.calls += 1
        jobs = [(knobs, self.seed, self.players, a, b) for a, b in self.bounds]
        return [s for part in self.pool.map(_chunk, jobs) for s in part]


def paired_gain(new: list[float], old: list[float]) -> tuple[float, float]:
    """The mean paired difference and its standard error."""
    diffs = [a - b for a, b in zip(new, old)]
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / max(len(diffs) - 1, 1)
    return mean, (var / len(diffs)) ** 0.5


def knobs_text(knobs: Knobs, base: Knobs) -> str:
    """The knobs that differ from ``base``, as the arena's ``--knobs`` text."""
    return ",".join(f"{f.name}={getattr(knobs, f.name)!r}" for f in fields(Knobs)
                    if getattr(knobs, f.name) != getattr(base, f.name))


def moved(knobs: Knobs, name: str, step: float) -> Knobs | None:
    """``knobs`` with ``name`` moved by ``step`` (None if that leaves its range)."""
    value = getattr(knobs, name) + step
    if isinstance(getattr(knobs, name), int):
        value = int(value)
        if value < 0:
            return None
    if name in ("thief_size", "own_height") and value < 0:
        return None
    return replace(knobs, **{name: value})


def fit(objective: Objective, start: Knobs, names: Iterable[str], sure: float,
        budget: float, sweeps: int) -> Knobs:
    steps = {name: STEPS[name] for name in names}
    best, best_shares = start, objective(start)
    began = time.monotonic()
    print(f"start {knobs_text(start, GREEDY_PLUS) or 'greedy+'}: "
          f"{sum(best_shares) / len(best_shares):.2%} of {len(best_shares)} deals", flush=True)
    for sweep in range(sweeps):
        kept = False
        for name, step in steps.items():
            if time.monotonic() - began > budget:
                print("budget spent", flush=True)
                return best
            tried: list[tuple[float, float, Knobs, list[float]]] = []
            for signed in (step, -step):
                candidate = moved(best, name, signed)
                if candidate is None:
                    continue
                shares = objective(candidate)
                gain, se = paired_gain(shares, best_shares)
                print(f"  sweep {sweep} {name}={getattr(candidate, name)!r}: "
                      f"{gain:+.2%} (se {se:.2%}, {sum(a != b for a, b in zip(shares, best_shares))} "
                      f"deals differ)", flush=True)
                tried.append((gain, se, candidate, shares))
            if not tried:
                continue
            gain, se, candidate, shares = max(tried, key=lambda t: t[0])
            if gain > sure * se and gain > 0:
                best, best_shares, kept = candidate, shares, True
                print(f"kept {name}={getattr(best, name)!r}: now "
                      f"{sum(best_shares) / len(best_shares):.2%} "
                      f"[{knobs_text(best, GREEDY_PLUS)}]", flush=True)
        if not kept:
            steps = {n: (s / 2 if not isinstance(s, int) else s) for n, s in steps.items()}
            if all(isinstance(s, int) for s in steps.values()):
                break
            print(f"sweep {sweep}: nothing kept, steps halved", flush=True)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--knobs", default="", help="where to start (greedy+ by default)")
    parser.add_argument("--only", default="", help="the knobs to fit (all of STEPS by default)")
    parser.add_argument("--sure", type=float, default=1.5,
                        help="keep a move only if its paired gain is this many standard errors")
    parser.add_argument("--sweeps", type=int, default=6)
    parser.add_argument("--budget", type=float, default=1800.0, help="seconds of wall clock")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(STEPS)
    unknown = [n for n in names if n not in STEPS]
    if unknown:
        raise SystemExit(f"unknown knobs {unknown}: expected some of {', '.join(STEPS)}")
    start = knobs_from(args.knobs)
    cpu = time.process_time()
    with Pool(args.workers) as pool:
        objective = Objective(pool, args.seed, args.games, args.players, 4 * args.workers)
        best = fit(objective, start, names, args.sure, args.budget, args.sweeps)
    print(f"fitted over {objective.calls} evaluations of {args.games} deals "
          f"(seed {args.seed}, {args.players} players; parent CPU "
          f"{time.process_time() - cpu:.1f} s):")
    print(f"--knobs {knobs_text(best, GREEDY_PLUS) or '(greedy+ as it is)'}")


if __name__ == "__main__":
    main()
