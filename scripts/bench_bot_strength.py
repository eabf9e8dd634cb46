"""The 5 Towers strong bot's strength as a function of the worlds it plays a decision.

    python scripts/bench_bot_strength.py [--worlds 300,160,50] [--games N] [--seed S]
                                         [--matches heads-up,vs-greedy,four] [--workers 1]
                                         [--out results.jsonl]

Machine-independent: each strong bot is ``StrongBot(simulations=N)`` (at most
N worlds a decision; it still stops early on a clear decision, as under a
time budget), so a figure depends on N, not on the CPU it had. The worlds
stand for the think time a bot gets: before the bot was made about twice as
cheap a world, the 1 s budget played about 300 worlds a decision on a quiet
core, about 160 under the load test's 60 sessions, at 100 sessions p50 about
100 and p10 about 30 (now p50 about 200, p10 about 50; README, issue 11's
third goal).

Three kinds of match, each over ``--games`` seeds:

* ``heads-up``: the largest N against each smaller one, 2 players. Every seed
  is played twice with the seats swapped (paired), and the pair is the unit
  of the interval: the larger N's points (a win 1, a shared win 1/2).
* ``vs-greedy``: each N against the greedy bot, 2 players, seats swapped as above.
* ``four``: one strong bot at N and three greedy bots (the load test's
  tables: one strong bot and three humans who play roughly like greedy); the
  strong bot sits at seat ``seed % 4``, and every N plays the same seeds at
  the same seat, so the difference of two N's win rates is paired too.

Results append to ``--out`` one game a line (JSON) and games already there
are not played again, so a run can be stopped and continued; the summary is
printed from the file: each share of the wins (a win 1, a shared win 1/k)
and score margin with its normal 95% interval, over games at 4 players and
over seeds (the mean of a seed's two seatings) heads-up.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from fivetowers.games.five_towers.bots import GreedyBot, StrongBot
from fivetowers.games.five_towers.rules import Game, IllegalAction, Variant
from fivetowers.games.tournament import play_all, play_out

MAX_ACTIONS = 5000


class Counted:
    """A strong bot that notes the worlds and the CPU of each decision."""

    def __init__(self, worlds: int) -> None:
        self.bot = StrongBot(simulations=worlds)
        self.worlds: list[int] = []
        self.cpu = 0.0

    def choose(self, view: Any, rng: random.Random) -> Any:
        started = time.process_time()
        action = self.bot.choose(view, rng)
        self.cpu += time.process_time() - started
        self.worlds.append(self.bot.worlds)
        return action


@dataclass(frozen=True)
class Job:
    match: str  # "heads-up 300/50", "vs-greedy 160", "four 50"
    seed: int
    lineup: tuple[str, ...]  # "strong300", "greedy"

    @property
    def key(self) -> str:
        return f"{self.match}|{self.seed}|{','.join(self.lineup)}"


def _bot(name: str) -> Counted | GreedyBot:
    return GreedyBot() if name == "greedy" else Counted(int(name.removeprefix("strong")))


def play(job: Job) -> dict[str, Any]:
    game = Game([f"{n}-{s}" for s, n in enumerate(job.lineup)], Variant.BASE, seed=job.seed)
    bots = [_bot(name) for name in job.lineup]
    play_out(game, game.is_terminal, [f"{n}@{s}" for s, n in enumerate(job.lineup)], bots,
             job.seed, job.seed, refused=IllegalAction, max_actions=MAX_ACTIONS)
    outcome = game.outcome()
    searched: dict[str, list[int]] = {}  # each strong bot's worlds a decision that searched
    for name, b in zip(job.lineup, bots):
        if isinstance(b, Counted):
            searched.setdefault(name, []).extend(w for w in b.worlds if w > 0)
    return {"key": job.key, "match": job.match, "seed": job.seed, "lineup": list(job.lineup),
            "scores": [s.total for s in outcome.scores], "winners": list(outcome.winners),
            "cpu": sum(b.cpu for b in bots if isinstance(b, Counted)),
            "decisions": sum(len(b.worlds) for b in bots if isinstance(b, Counted)),
            "worlds": searched}


def jobs(kinds: list[str], worlds: list[int], games: int, seed: int) -> list[Job]:
    top = max(worlds)
    out: list[Job] = []
    # Interleaved by seed, so a stopped run has every match at a similar count.
    for g in range(seed, seed + games):
        for kind in kinds:
            if kind == "heads-up":
                for n in worlds:
                    if n != top:
                        a, b = f"strong{top}", f"strong{n}"
                        out += [Job(f"heads-up {top}/{n}", g, (a, b)),
                                Job(f"heads-up {top}/{n}", g, (b, a))]
            elif kind == "vs-greedy":
                for n in worlds:
                    a = f"strong{n}"
                    out += [Job(f"vs-greedy {n}", g, (a, "greedy")),
                            Job(f"vs-greedy {n}", g, ("greedy", a))]
            elif kind == "four":
                for n in worlds:
                    seats = ["greedy"] * 4
                    seats[g % 4] = f"strong{n}"
                    out.append(Job(f"four {n}", g, tuple(seats)))
            else:
                raise SystemExit(f"unknown match kind {kind!r}")
    return out


def points(result: dict[str, Any], name: str) -> float:
    """``name``'s share of the win: 1 alone, 1/k shared by k, else 0."""
    winners = result["winners"]
    mine = sum(1 for s in winners if result["lineup"][s] == name)
    return mine / len(winners) if winners else 0.0


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its normal 95% interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 1.0
    return mean, mean - half, mean + half


def per_seed(results: list[dict[str, Any]], value: Callable[[dict[str, Any]], float]
             ) -> list[float]:
    """``value``'s mean over each seed's two seatings (seeds with only one left out)."""
    pairs: dict[int, list[float]] = {}
    for r in results:
        pairs.setdefault(r["seed"], []).append(value(r))
    return [sum(p) / 2 for p in pairs.values() if len(p) == 2]


def _spent(results: list[dict[str, Any]]) -> str:
    """The worlds a decision that searched, per strong bot, and the CPU a decision."""
    worlds: dict[str, list[int]] = {}
    for r in results:
        # Games written before the worlds were noted per strong bot (the first
        # seeds of the README's run) hold one list for both: shown as "both".
        found = r["worlds"] if isinstance(r["worlds"], dict) else {"both": r["worlds"]}
        for name, ws in found.items():
            worlds.setdefault(name, []).extend(ws)
    cpu = sum(r["cpu"] for r in results) / max(1, sum(r["decisions"] for r in results))
    each = ", ".join(f"{name} p50 {statistics.median(ws):g} mean {statistics.fmean(ws):.0f}"
                     for name, ws in sorted(worlds.items()) if ws)
    return f"worlds a searching decision {each}; {1000 * cpu:.0f} ms CPU a strong decision"


def summary(results: list[dict[str, Any]]) -> list[str]:
    by_match: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        by_match.setdefault(r["match"], []).append(r)
    lines: list[str] = []
    four: dict[int, dict[int, float]] = {}
    for match in sorted(by_match, key=lambda m: (m.split()[0], -int(m.split()[1].split("/")[-1]))):
        rs = by_match[match]
        kind, arg = match.split()
        spent = _spent(rs)
        if kind == "four":
            n = int(arg)
            name = f"strong{n}"
            wins = [points(r, name) for r in rs]
            four[n] = {r["seed"]: w for r, w in zip(rs, wins)}
            # Points (a shared win a fraction), as the paired difference below counts
            # them, so the rows agree; four equal players take 25% each.
            mean, lo, hi = interval(wins)
            lines.append(f"4 players, strong at {n} worlds + 3 greedy: {len(rs)} games, strong "
                         f"took {mean:.1%} of the wins (95% {lo:.1%}–{hi:.1%}), 25% is even; "
                         f"{spent}")
            continue
        a, b = (f"strong{arg.split('/')[0]}", f"strong{arg.split('/')[1]}") \
            if kind == "heads-up" else (f"strong{arg}", "greedy")
        whole = per_seed(rs, lambda r: points(r, a))
        if not whole:
            continue
        mean, lo, hi = interval(whole)
        # The two games of a seed share its deck: the seed's mean margin is the unit.
        m, mlo, mhi = interval(per_seed(rs, lambda r: float(
            r["scores"][r["lineup"].index(a)] - r["scores"][r["lineup"].index(b)])))
        lines.append(f"2 players, {a} v {b}: {len(whole)} seeds x 2 seats, {a} took "
                     f"{mean:.1%} of the wins (95% {lo:.1%}–{hi:.1%}, 50% is even), "
                     f"margin {m:+.1f} points ({mlo:+.1f}..{mhi:+.1f}); {spent}")
    if four:
        top = max(four)
        for n in sorted(four, reverse=True):
            if n == top:
                continue
            seeds = sorted(set(four[top]) & set(four[n]))
            if len(seeds) < 2:
                continue
            mean, lo, hi = interval([four[top][s] - four[n][s] for s in seeds])
            lines.append(f"4 players, share of the wins at {top} worlds minus at {n}, same seeds and "
                         f"seats ({len(seeds)}): {mean:+.1%} (95% {lo:+.1%}..{hi:+.1%})")
    return lines


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", default="300,160,50")
    parser.add_argument("--games", type=int, default=100, help="seeds per match")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--matches", default="heads-up,vs-greedy,four")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("bot_strength.jsonl"))
    parser.add_argument("--summary", action="store_true", help="only print the file's summary")
    args = parser.parse_args()
    worlds = sorted({int(w) for w in args.worlds.split(",")}, reverse=True)
    if not args.summary:
        done = {r["key"] for r in load(args.out)}
        todo = [j for j in jobs(args.matches.split(","), worlds, args.games, args.seed)
                if j.key not in done]
        print(f"{len(todo)} games to play ({len(done)} already in {args.out})", flush=True)
        started = time.perf_counter()
        with args.out.open("a") as out:
            for i, result in enumerate(play_all(play, todo, args.workers), 1):
                out.write(json.dumps(result) + "\n")
                out.flush()
                if i % 20 == 0:
                    print(f"  {i} games, {time.perf_counter() - started:.0f} s", flush=True)
    for line in summary(load(args.out)):
        print(line)


if __name__ == "__main__":
    main()
