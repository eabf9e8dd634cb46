"""The worker pool's queue order, replayed in-process with the realistic mix's jobs.

    python scripts/bench_pool_order.py [--sessions 40] [--seconds 40] [--rounds 1]
    python scripts/bench_pool_order.py --sessions 100 --seconds 30   # README's figures

The jobs a load test at ``--sessions`` hands the server's pool (the rates of
``scripts/loadtest_ssh.py --sessions 40``'s realistic mix, 2026-12-02,
scaled by sessions/40: a minute of 5 Towers strong bot moves 98, GoTown
strong bot moves 190, GoTown advice 144, hints 341, half of each game) are
asked at random times (one seeded Poisson stream, the same for every
policy) of real positions (games of random play, both games), against
``Workers()`` (worker processes, as the server's) without any server: no
screens to draw, so what changes between two runs is the pool's policy.

Policies, run in turn (``--rounds`` times each, alternating, so the
machine's load falls on both alike): ``fifo`` (the pool before its queue:
no short lane, a bot asked of a full pool given its budget from the ask
whatever its length) and ``lanes`` (the pool's own: the short lane). Both
run on the pool's queue, so both drop a job nobody waits for any more when
its turn comes (a bot's whose asker gave up, a hint nobody waits for),
where the old pool computed every hint: ``fifo`` is the old order and
policies, not the old pool whole.

Prints, per policy, the pool report (pool_stats.summarise): per bot, moves,
waits p50/p99, the late and quick bots' moves, the CPU it thought and the
deals its search played (p50/p10); hints' waits; jobs dropped; the workers'
CPU by kind of job and its share. A busy machine moves every wall-clock
figure: compare the policies of one run only.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import itertools
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fivetowers.games import game_kind  # noqa: E402
from fivetowers.games.protocol import Bot  # noqa: E402
from fivetowers.tables.pool_stats import summarise  # noqa: E402
from fivetowers.tables.workers import Workers  # noqa: E402

PER_MINUTE_AT_40 = {"five_towers bot": 98, "gotown bot": 190, "gotown advice": 144,
                    "five_towers hint": 170, "gotown hint": 170}
"""Jobs a minute at 40 sessions (the load test's realistic mix, main, 2026-12-02)."""


KIND = {"five_towers": "fivetowers", "gotown": "gotown"}
"""The game kind of each game's package (the stats name games by package)."""


class FifoWorkers(Workers):
    """The pool as it was: no short lane, every bot asked of a full pool
    given its budget from the ask; but on the queue, dropping the jobs
    nobody waits for any more as the pool now does (see the module)."""

    def __init__(self) -> None:
        super().__init__()
        self.width = self.size

    def _free_for(self, budget: float) -> bool:
        return self.in_flight < self.size

    def _next(self) -> Any:
        return heapq.heappop(self._queue) if self._queue else None


def samples(game: str, count: int, seed: int) -> list[tuple[Any, Any]]:
    """(the mover's view, its hint position or None) of ``count`` decisions
    from games of random play with 3 players."""
    kind = game_kind(KIND[game])
    player = kind.make_bot("random")
    out: list[tuple[Any, Any]] = []
    rng = random.Random(seed)
    for g in itertools.count():
        match = kind.new_match(["A", "B", "C"], {}, seed * 1000 + g)
        while match.to_move is not None and len(out) < count:
            seat = match.to_move
            assert seat is not None
            view = match.view(seat)
            out.append((view, position_of(game, view, seat)))
            match.apply(player.choose(view, rng))
        if len(out) >= count:
            return out
    raise AssertionError("unreachable")


def position_of(game: str, view: Any, seat: int) -> Any:
    if game == "gotown":
        from fivetowers.games.gotown.rules.position import Position

        return Position(view.floors_to_win, seat, view.hand,
                        tuple(s.floors for s in view.seats), tuple(s.dogs for s in view.seats))
    from fivetowers.games.five_towers.rules import Position as TowersPosition

    return TowersPosition.from_view(view) if view.display else None


def hinter(game: str) -> Callable[[Any], Any]:
    if game == "gotown":
        from fivetowers.games.gotown.client import compute_hint
        return compute_hint
    from fivetowers.games.five_towers.client import compute_hint as towers_hint
    return towers_hint


class Owner:
    """A table, as far as the hint cache knows one: each hint its own."""


async def one_job(workers: Workers, kind: str, sample: tuple[Any, Any],
                  bots: dict[str, tuple[Bot, Bot, Bot]], seed: int) -> None:
    game, role = kind.split(" ")
    view, position = sample
    if role == "hint":
        if position is not None:
            await workers.hint(position, hinter(game), Owner(), 0)
        return
    strong, late, quick = bots[game]
    await workers.choose(strong, view, random.Random(seed), late=late, quick=quick,
                         role=role)


async def run(policy: str, sessions: int, seconds: float, seed: int,
              jobs_of: dict[str, list[tuple[Any, Any]]]) -> dict[str, Any]:
    workers = FifoWorkers() if policy == "fifo" else Workers()
    await asyncio.to_thread(workers.start)
    bots = {g: (k.make_bot("strong"), k.make_bot(k.late_bot), k.make_bot("random"))
            for g, k in ((g, game_kind(KIND[g])) for g in KIND)}
    rng = random.Random(seed)
    rate = sum(PER_MINUTE_AT_40.values()) * sessions / 40 / 60
    kinds, weights = list(PER_MINUTE_AT_40), list(PER_MINUTE_AT_40.values())
    start = time.monotonic()
    at, tasks, n = 0.0, [], 0
    while True:
        at += rng.expovariate(rate)
        if at > seconds:
            break
        kind = rng.choices(kinds, weights)[0]
        jobs = jobs_of[kind.split(" ")[0]]
        sample = jobs[rng.randrange(len(jobs))]
        delay = start + at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.ensure_future(one_job(workers, kind, sample, bots, n)))
        n += 1
    await asyncio.gather(*tasks, return_exceptions=True)
    summary = summarise([workers.stats.to_json()], since=start)
    workers.close()
    return summary


def print_summary(policy: str, s: dict[str, Any]) -> None:
    print(f"-- {policy}")
    for name, f in s.items():
        if name in ("hints", "cpu", "dropped"):
            continue
        print(f"  {name}: {f['moves']} moves, wait p50 {f['waited_p50']:.2f} s p99 "
              f"{f['waited_p99']:.2f} s; late {f['late']} quick {f['quick']}; CPU p50 "
              f"{f['had_p50']:.3f} s p10 {f['had_p10']:.3f} s; deals p50 "
              f"{f['searched_p50']:g} p10 {f['searched_p10']:g}")
    h = s["hints"]
    print(f"  hints: {h['computed']} computed, wait p50 {h['waited_p50']:.3f} s p99 "
          f"{h['waited_p99']:.3f} s; dropped {s['dropped']}")
    print("  CPU by job: " + "; ".join(
        f"{k} {c['jobs']} jobs {c['cpu_s']:.1f} s ({c['share']:.0%}) p50 "
        f"{c['cpu_p50'] * 1000:.0f} ms" for k, c in s["cpu"].items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the summaries to this file")
    parser.add_argument("--policies", default="fifo,lanes",
                        help="which to run, in turn (fifo, lanes)")
    args = parser.parse_args()
    jobs_of = {g: samples(g, 400, args.seed) for g in ("five_towers", "gotown")}
    policies = args.policies.split(",")
    out: dict[str, list[dict[str, Any]]] = {p: [] for p in policies}
    for r in range(args.rounds):
        for policy in policies if r % 2 == 0 else policies[::-1]:
            summary = asyncio.run(run(policy, args.sessions, args.seconds, args.seed + r,
                                      jobs_of))
            out[policy].append(summary)
            print_summary(f"{policy} (round {r + 1})", summary)
    for key, label in (("gotown bot", "GoTown bot late"), ("five_towers bot", "5 Towers late")):
        late = {p: sum(s.get(f"bot {key.split(' ')[0]} strong", {}).get("late", 0)
                       for s in out[p]) for p in out}
        print(f"{label}: " + ", ".join(f"{p} {n}" for p, n in late.items()))
    if args.json:
        Path(args.json).write_text(json.dumps(out, default=str))


if __name__ == "__main__":
    main()
