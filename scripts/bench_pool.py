"""Server memory and responsiveness with hints on and a strong bot at every
table: bots and hints in worker processes (today) or in threads (before).

    python scripts/bench_pool.py [--sessions 20] [--seconds 90] [--threads] [--workers N]

Hosted sessions (the real LobbyApp and screens on fake SSH channels, like
``bench_sessions.py``) sit at tables of three humans and one strong bot, hints
shown. The humans play: the starter bids its highest safe bid and builds the
hint's plan, the others pass. Prints, every 15 s, the server's RSS (worker
processes apart); at the end the RSS growth per minute after a 30 s warm-up,
key-to-every-screen for the humans' moves (p50/p99), the event loop's worst
lag, and the strong bot's move times (asked to answered) with the moves it
had to make late.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fivetowers.games import game_kind  # noqa: E402
from fivetowers.games.five_towers.rules import Bid, Pass, Phase, Position  # noqa: E402
from fivetowers.server.driver import SessionTerminal  # noqa: E402
from fivetowers.lobby.model import HostedTable, Lobby  # noqa: E402
from fivetowers.lobby.app import LobbyApp  # noqa: E402
from fivetowers.server.session import Visitor, prepare_app  # noqa: E402
from fivetowers.tables.seats import Seat  # noqa: E402
from fivetowers.tables.workers import Workers  # noqa: E402

from bench_sessions import FakeProcess, pct  # noqa: E402

HUMANS = 3


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class TimedWorkers(Workers):
    """Workers that note how long each bot move took, asked to answered."""

    moves: list[float] = []

    async def choose(self, bot: Any, view: Any, rng: Any, *, late: Any, quick: Any,
                     seat: int | None = None) -> Any:
        asked = time.monotonic()
        move = await super().choose(bot, view, rng, late=late, quick=quick, seat=seat)
        if getattr(bot, "name", "") == "strong":
            self.moves.append(time.monotonic() - asked)
        return move


async def play(hosted: HostedTable, procs: list[FakeProcess], workers: Workers,
               every: list[float], stop: float) -> None:
    while time.monotonic() < stop:
        await asyncio.sleep(0.3)
        table = hosted.table
        if table is None or table.over:
            return
        game = table.game
        seat = game.to_move
        if seat is None or table.is_bot(seat):
            continue
        view = game.view(seat)
        action: Any
        if game.phase is Phase.BID:
            action = Pass(seat) if view.may_pass else Bid(seat, game.max_bid(seat))
        else:
            hint = await workers.hint(Position.from_view(view))
            assert view.high_bid is not None
            action = hint.plans[view.high_bid].to_build(seat)
        before = [p.stdout.writes for p in procs]
        asked = time.perf_counter()
        try:
            await table.submit(seat, action)
        except Exception:
            continue  # the table moved on meanwhile
        while any(p.stdout.writes == b for p, b in zip(procs, before)) \
                and time.perf_counter() - asked < 10:
            await asyncio.sleep(0.002)
        every.append(max(p.stdout.last for p in procs) - asked)


async def lag(worst: list[float], stop: float) -> None:
    while time.monotonic() < stop:
        asked = time.perf_counter()
        await asyncio.sleep(0.05)
        worst.append(time.perf_counter() - asked - 0.05)


async def run(sessions: int, seconds: float, threads: bool, size: int | None) -> None:
    workers = TimedWorkers(size, threads=threads)
    if not threads:
        await asyncio.to_thread(workers.start)
    tables = max(sessions // HUMANS, 1)
    lobby = Lobby(hints=True, bot_delay=0.8, absence_bot_after=3600, bot_kind="strong",
                  workers=workers)
    for t in range(tables):
        seats = [Seat("", None) for _ in range(HUMANS)] + [Seat("strong (bot)", bot="strong")]
        lobby.tables[f"LT{t:03d}"] = HostedTable(f"LT{t:03d}", f"load {t}",
                                                 game_kind("fivetowers"), {"variant": "base"}, False,
                                                 seats)
    procs: list[FakeProcess] = []
    tasks = []
    for i in range(tables * HUMANS):
        proc = FakeProcess()
        procs.append(proc)
        visitor = Visitor(identity=f"key{i}", name=f"p{i}", address="127.0.0.1",
                          join_code=f"LT{i % tables:03d}", term="xterm-256color", colorterm="")
        terminal = SessionTerminal(proc, (100, 30), name=visitor.name)  # type: ignore[arg-type]
        app = LobbyApp(lobby, visitor)
        prepare_app(app, terminal, visitor, sys.stdout, sys.stderr)
        tasks.append(asyncio.create_task(app.run_async(size=(100, 30))))
        await asyncio.sleep(0.02)
    start = time.monotonic()
    stop = start + seconds
    every: list[float] = []
    lags: list[float] = []
    hosted = [lobby.tables[f"LT{t:03d}"] for t in range(tables)]
    players = [asyncio.create_task(play(h, [procs[i] for i in range(len(procs))
                                             if i % tables == t], workers, every, stop))
               for t, h in enumerate(hosted)]
    ticker = asyncio.create_task(lag(lags, stop))
    samples: list[tuple[float, float]] = []
    print(f"{len(procs)} sessions at {tables} tables (3 humans + a strong bot each, hints on), "
          f"{'threads' if threads else f'{workers.size} worker processes'}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    while time.monotonic() < stop:
        await asyncio.sleep(15)
        now = time.monotonic() - start
        samples.append((now, rss_mib(os.getpid())))
        extra = "".join(f" worker {rss_mib(pid):.0f}" for pid in workers.pids())
        print(f"  {now:5.0f} s: server RSS {samples[-1][1]:.0f} MiB{extra}", flush=True)
    await asyncio.gather(*players, ticker, return_exceptions=True)
    warm = [s for s in samples if s[0] >= 30]
    growth = (warm[-1][1] - warm[0][1]) / ((warm[-1][0] - warm[0][0]) / 60) \
        if len(warm) > 1 else float("nan")
    print(f"server RSS {samples[-1][1]:.0f} MiB = {samples[-1][1] / len(procs):.1f} MiB a "
          f"session; growth after 30 s {growth:.1f} MiB/min")
    if every:
        print(f"humans' moves to every screen at their table: p50 {pct(every, .5):.0f} ms "
              f"p99 {pct(every, .99):.0f} ms ({len(every)} moves)")
    print(f"event loop lag: p99 {pct(lags, .99):.0f} ms, worst {max(lags) * 1000:.0f} ms")
    moves = workers.moves
    if moves:
        print(f"strong bot moves, asked to answered: mean {statistics.mean(moves):.2f} s "
              f"p50 {pct(moves, .5) / 1000:.2f} s max {max(moves):.2f} s ({len(moves)} moves, "
              f"{workers.late_moves} made late)")
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await lobby.close()
    workers.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=21)
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--threads", action="store_true",
                        help="bots and hints in threads of the server (as before issue 11)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes")
    args = parser.parse_args()
    asyncio.run(run(args.sessions, args.seconds, args.threads, args.workers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
