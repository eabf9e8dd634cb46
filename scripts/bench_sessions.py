"""Server CPU per table change per session, without SSH or a second process.

    python scripts/bench_sessions.py [--sessions 10] [--actions 40] [--size 80x24]
    python scripts/bench_sessions.py --mix realistic --sessions 20


Runs ``--sessions`` hosted sessions (the real LobbyApp, TableScreen and
SSHDriver, colour rewriting included) on fake SSH channels that only count
bytes, seated at five-seat tables like ``scripts/loadtest_ssh.py``. Then it
plays ``--actions`` actions per table (bid 0 when starting, else pass, as the
load test's players do; builds are whatever the engine allows with no card)
and prints, per action: the time until every screen at the table had new
output (p50/p99), and the server CPU spent per session per table change
(mean), plus the bytes sent per session per change. The load test measures
the same thing end to end over SSH; this one isolates the screen's cost and
is quick enough to iterate on (cProfile with ``--profile FILE``).

``--mix realistic`` plays the game as the load test's realistic mix does,
through the players' keys: hints on (computed in one worker process, as the
server does, so their CPU is not counted), tables of four players and a
spectator, players who bid (sometimes raise) with digit keys and who, on
winning, build with the hint's plan (``a``, then ``enter``): the hint panel,
the build panel and guide, round starts and the builder's screen all redraw.
Its CPU per change includes the builder's ``a`` key (a redraw of one screen).

CPU figures on a shared machine are noisy: ``--calls`` also counts the
server's Python function calls per viewer per change (cProfile with a clock
that counts calls, so its figure is the same on a busy machine and a quiet
one; CPU figures are then inflated by the profiler). It also counts the
objects that only the cyclic garbage collector freed (per viewer per
change): on the server, what dies in a cycle after a freeze stays until a
rare full collection (server/collector.py), so that count is RSS growth.
``--json FILE`` keeps a
run's figures and ``--compare FILE`` prints ratios to an earlier run's.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import itertools
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fivetowers.games import game_kind  # noqa: E402
from fivetowers.games.five_towers.rules import Bid, Pass, Phase  # noqa: E402
from fivetowers.server.driver import SessionTerminal  # noqa: E402
from fivetowers.lobby.model import HostedTable, Lobby  # noqa: E402
from fivetowers.lobby.app import LobbyApp  # noqa: E402
from fivetowers.server.session import Visitor, prepare_app  # noqa: E402
from fivetowers.games.five_towers.tui.screens.table import TableScreen  # noqa: E402
from fivetowers.tables.seats import Seat  # noqa: E402
from fivetowers.tables.workers import Workers  # noqa: E402

SEATS = 5
REALISTIC_SEATS = 4
"""Realistic mix: four players and a spectator a table."""


class FakeChannel:
    def get_write_buffer_size(self) -> int:
        return 0


class FakeStdout:
    def __init__(self) -> None:
        self.bytes = 0
        self.writes = 0
        self.last = 0.0

    def write(self, data: bytes) -> None:
        self.bytes += len(data)
        self.writes += 1
        self.last = time.perf_counter()


class FakeStdin:
    """Keys the bench presses (realistic mix); none for the bids-only mix."""

    def __init__(self) -> None:
        self.keys: asyncio.Queue[bytes] = asyncio.Queue()

    async def read(self, n: int) -> bytes:
        return await self.keys.get()


class FakeProcess:
    def __init__(self) -> None:
        self.stdout = FakeStdout()
        self.stdin = FakeStdin()
        self.channel = FakeChannel()


async def open_sessions(lobby: Lobby, sessions: int, prefix: str, tables: int,
                        size: tuple[int, int]) -> tuple[list[FakeProcess], list[LobbyApp],
                                                         list[asyncio.Task[Any]]]:
    """``sessions`` players, each joining table ``prefix``NNN in turn, as the
    server starts them (one every 20 ms)."""
    procs: list[FakeProcess] = []
    apps: list[LobbyApp] = []
    tasks: list[asyncio.Task[Any]] = []
    for i in range(sessions):
        proc = FakeProcess()
        procs.append(proc)
        visitor = Visitor(identity=f"key{i}", name=f"p{i}", address="127.0.0.1",
                          join_code=f"{prefix}{i % tables:03d}", term="xterm-256color",
                          colorterm="")
        terminal = SessionTerminal(proc, size, name=visitor.name)  # type: ignore[arg-type]
        app = LobbyApp(lobby, visitor)
        apps.append(app)
        prepare_app(app, terminal, visitor, sys.stdout, sys.stderr)
        tasks.append(asyncio.create_task(app.run_async(size=size)))
        await asyncio.sleep(0.02)
    return procs, apps, tasks


def keep_figures(figures: dict[str, float], profiler: cProfile.Profile | None,
                 args: argparse.Namespace) -> None:
    """The run's profile (``--profile``), its ratios to an earlier run's
    figures (``--compare``) and its own (``--json``)."""
    if profiler is not None and args.profile:
        profiler.dump_stats(args.profile)
    if args.compare:
        earlier = json.loads(Path(args.compare).read_text())
        print("against " + args.compare + ": " + ", ".join(
            f"{name} {value / earlier[name]:.2f}x" for name, value in figures.items()
            if earlier.get(name)))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def run(sessions: int, actions: int, size: tuple[int, int],
              profiler: cProfile.Profile | None = None, realistic: bool = False
              ) -> dict[str, float]:
    seats = REALISTIC_SEATS if realistic else SEATS
    tables = max(sessions // (seats + realistic), 1)
    pool = Workers(1) if realistic else None
    if pool is not None:  # as the server does: workers started before anyone comes
        await asyncio.to_thread(pool.start)
    lobby = Lobby(hints=realistic, bot_delay=0.0, absence_bot_after=3600, workers=pool)
    for t in range(tables):
        lobby.tables[f"LT{t:03d}"] = HostedTable(f"LT{t:03d}", f"load {t}",
                                                 game_kind("fivetowers"), {"variant": "base"}, False,
                                                 [Seat("", None) for _ in range(seats)])
    procs, apps, tasks = await open_sessions(lobby, sessions, "LT", tables, size)
    await asyncio.sleep(1.5)
    while True:  # until every session has started and drawn: the server idles
        c0, t0 = time.process_time(), time.perf_counter()
        await asyncio.sleep(0.5)
        if time.process_time() - c0 < 0.25 * (time.perf_counter() - t0):
            break
    gc.collect()
    hosted = [lobby.tables[f"LT{t:03d}"] for t in range(tables)]
    assert all(h.table is not None for h in hosted), "tables did not start"
    c0, t0 = time.process_time(), time.perf_counter()
    await asyncio.sleep(1.0)
    idle = (time.process_time() - c0) / (time.perf_counter() - t0)
    every: list[float] = []
    cpu = 0.0
    changes = 0
    sent = sum(p.stdout.bytes for p in procs)
    writes = sum(p.stdout.writes for p in procs)
    # Cyclic garbage the moves leave: what only the cyclic collector frees.
    # The server freezes survivors every few seconds (collector.py), so what
    # dies later in a cycle stays until a rare full collection: RSS growth.
    collected = [0]

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            collected[0] += info["collected"]

    gc.callbacks.append(count)
    if profiler is not None:  # the table changes only, not the sessions starting
        profiler.enable()
    if realistic:
        changes, cpu, every, rng = 0, 0.0, [], random.Random(1)
        for _ in range(actions):
            for t, h in enumerate(hosted):
                made = await realistic_change(h, t, tables, apps, procs, rng)
                if made is not None:
                    changes, cpu = changes + made[0], cpu + made[1]
                    every.append(made[2])
    for _ in range(0 if realistic else actions):
        for t, h in enumerate(hosted):
            table = h.table
            assert table is not None
            game = table.game
            if game.phase is Phase.OVER:
                continue
            seat = game.to_move
            assert seat is not None
            action: Any = Pass(seat) if game.may_pass() else Bid(seat, min(game.legal_bids()))
            if game.phase is Phase.BUILD:
                session = game.build_session()
                session.choose((), 0, None)
                action = session.finish(seat)
            mine = [procs[i] for i in range(sessions) if i % tables == t]
            before = [p.stdout.writes for p in mine]
            c0, t0 = time.process_time(), time.perf_counter()
            await table.submit(seat, action)
            # Until every screen at the table has drawn, then until the loop is quiet.
            while any(p.stdout.writes == b for p, b in zip(mine, before)):
                await asyncio.sleep(0.001)
            every.append(max(p.stdout.last for p in mine) - t0)
            await asyncio.sleep(0.12)
            cpu += time.process_time() - c0
            changes += 1
    if profiler is not None:
        profiler.disable()
    gc.collect()
    gc.callbacks.remove(count)
    sent = sum(p.stdout.bytes for p in procs) - sent
    writes = sum(p.stdout.writes for p in procs) - writes
    per_table = sessions / tables
    print("mix: " + ("realistic: hints on (1 worker process), 4 players + 1 spectator a table, "
                     "bids by key (30% raise), builds with the hint's plan (a, enter)"
                     if realistic else "bids-only: hints off, 5 players a table, bid 0/pass"))
    print(f"{sessions} sessions at {tables} tables, {size[0]}x{size[1]}, {changes} table changes; "
          f"idle server CPU {idle * 100:.0f}%")
    print(f"key-to-every-screen (in process) p50 {pct(every, .5):.1f} ms "
          f"p99 {pct(every, .99):.1f} ms mean {statistics.mean(every) * 1000:.1f} ms")
    print(f"server CPU per session per change {cpu / changes / per_table * 1000:.2f} ms; "
          f"output {sent / changes / per_table:.0f} bytes per session per change in "
          f"{writes / changes / per_table:.2f} writes (an SSH packet each)")
    print(f"cyclic garbage per session per change {collected[0] / changes / per_table:.0f} "
          "objects (freed only by the cyclic collector)")
    figures = {"cpu_ms": cpu / changes / per_table * 1000, "p50_ms": pct(every, .5),
               "p99_ms": pct(every, .99), "bytes": sent / changes / per_table,
               "writes": writes / changes / per_table,
               "cyclic": collected[0] / changes / per_table}
    if profiler is not None:
        import pstats
        stats = pstats.Stats(profiler)
        calls = stats.total_calls  # type: ignore[attr-defined]
        figures["calls"] = calls / changes / per_table
        figures["layouts"] = sum(  # full layouts of a screen (each places every widget)
            counts[1] for (path, _, name), counts in stats.stats.items()  # type: ignore[attr-defined]
            if name == "_refresh_layout" and path.endswith("screen.py")) / changes / per_table
        print(f"screen layouts per session per change {figures['layouts']:.3f}")
    figures.update(drawn_lines(sessions))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await lobby.close()
    if pool is not None:
        pool.close()
    return figures


def drawn_lines(sessions: int) -> dict[str, float]:
    """The drawn lines (Strips) alive per session and the bytes they and
    their caches hold (what a session's screens keep between changes)."""
    from textual.strip import Strip

    from fivetowers.compat.textual import strip_bytes

    strips = [obj for obj in gc.get_objects() if type(obj) is Strip]
    held = sum(strip_bytes(strip) for strip in strips)
    print(f"drawn lines alive per session {len(strips) / sessions:.0f}, holding "
          f"{held / sessions / 1024:.0f} KiB with their caches")
    return {"strips": len(strips) / sessions, "strip_kib": held / sessions / 1024}


def table_screen(app: LobbyApp) -> TableScreen | None:
    screen = app.screen
    return screen if isinstance(screen, TableScreen) else None


async def realistic_change(hosted: HostedTable, t: int, tables: int, apps: list[LobbyApp],
                           procs: list[FakeProcess], rng: random.Random
                           ) -> tuple[int, float, float] | None:
    """One player's move by keys: (table changes, server CPU, key-to-every-screen)."""
    table = hosted.table
    assert table is not None
    game = table.game
    if game.phase is Phase.OVER or game.to_move is None:
        return None
    here = [i for i in range(len(apps)) if i % tables == t]
    seat_of = {}
    for i in here:
        screen = table_screen(apps[i])
        if screen is not None and screen.client.seat is not None:
            seat_of[screen.client.seat] = i
    actor = seat_of[game.to_move]
    screen = table_screen(apps[actor])
    assert screen is not None
    keys = procs[actor].stdin.keys
    version = table.version
    before = [procs[i].stdout.writes for i in here]
    if game.phase is Phase.BUILD:  # the hint first: players wait for it too
        await screen.client.hint()
    c0, t0 = time.process_time(), time.perf_counter()
    if game.phase is Phase.BID:
        bids = game.legal_bids()
        raise_ = bids and (not game.may_pass() or rng.random() < 0.3)
        keys.put_nowait(str(min(bids)).encode() if raise_ else b"p")
    else:
        # The hint's plan, once the builder's screen has the hint.
        # (Polled coarsely: a poll's calls would count as the server's.)
        for _ in range(500):
            if screen.current_hint() is not None:
                break
            await asyncio.sleep(0.02)
        keys.put_nowait(b"a")
        for _ in range(500):
            guide = screen.guide
            if guide is not None and guide.session.done:
                break
            await asyncio.sleep(0.02)
        keys.put_nowait(b"\r")
    for _ in range(2000):
        if table.version > version and all(
                procs[i].stdout.writes > b for i, b in zip(here, before)):
            break
        await asyncio.sleep(0.005)
    every = max(procs[i].stdout.last for i in here) - t0
    await settled([apps[i] for i in here], [procs[i] for i in here])
    return table.version - version, time.process_time() - c0, every


async def settled(apps: list[LobbyApp], procs: list[FakeProcess]) -> None:
    """Until every screen at the table has drawn the move and its hint, and
    has written nothing for a while: on a busy machine a fixed pause let the
    next move come before the last one's hints (other redraws: other counts)."""
    await asyncio.sleep(0.12)
    for _ in range(300):
        screens = [table_screen(app) for app in apps]
        done = all(s is None or (s.drawn() and (not s.show_hints or s.ended
                                                or s.hint_version == s.client.version))
                   for s in screens)
        if done and time.perf_counter() - max(p.stdout.last for p in procs) > 0.05:
            return
        await asyncio.sleep(0.02)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--size", default="80x24")
    parser.add_argument("--profile", default=None, help="write cProfile stats of the run here")
    parser.add_argument("--mix", choices=("bids-only", "realistic"), default="bids-only")
    parser.add_argument("--calls", action="store_true",
                        help="count the server's Python calls per viewer per change")
    parser.add_argument("--json", default=None, help="write the figures here")
    parser.add_argument("--compare", default=None, help="an earlier --json: print ratios")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    profiler = None
    if args.calls:
        # Its clock counts calls and returns: the same on any machine.
        ticks = itertools.count()
        profiler = cProfile.Profile(lambda: next(ticks), 1e-6)
    elif args.profile:
        profiler = cProfile.Profile()
    figures = asyncio.run(run(args.sessions, args.actions, (width, height), profiler,
                              args.mix == "realistic"))
    if "calls" in figures:
        print(f"Python calls per session per change {figures['calls']:.0f}")
    keep_figures(figures, profiler, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
