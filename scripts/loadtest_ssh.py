"""Load test of ``fivetowers serve``: the real game, played over SSH.

    python scripts/loadtest_ssh.py --sessions 40 --seconds 30
    python scripts/loadtest_ssh.py --sessions 40 --mix bids-only
    python scripts/loadtest_ssh.py --sessions 40 --flooders 1
    python scripts/loadtest_ssh.py --arrivals 50
    python scripts/loadtest_ssh.py --sessions 40 --store pg-temp                 # PostgreSQL
    python scripts/loadtest_ssh.py --sessions 80 --store pg-temp --processes 2   # two servers

A server process is started (this script with ``--serve``: the real server
and lobby, tables prepared with known codes). This process then opens SSH
sessions with a pty (80x24): players who ``join CODE`` their table and play
at ``--pace``, and spectators who join a started table and watch. The mix
(see scripts/load_mix.py) defaults to the game as players get it: hints on,
a strong bot at each table with the lobby's pacing, humans who build with
the hint's plan, a spectator at every other table, tables of 2-5 seats,
every other table (of up to 4 seats) GoTown (scripts/load_gotown.py).
``--mix bids-only`` is the old cheap mix (hints off, no bots, bid 0/pass).
Realistic tables play game after game (``--no-rematch``: one game each): at
the end screen every player says yes to a rematch (``n``), every spectator's
session ends and a new one joins the next game. The report then gives the
games finished, the server's RSS minute by minute and its growth after
every table finished its first game (the warm-up of "memory stays flat").

For every key a player presses after the warm-up it measures

* key-to-screen: until the player's own screen shows the action;
* key-to-every-screen: until every screen at the table (players and
  spectators) shows it: the action's log line is in the bytes it received.

It reports p50/p99 of both, the server's RSS per session (loaded minus idle,
over the sessions), worker processes under the server separately, RSS
growth a minute after warm-up (least squares over samples; and over the
measurement's second half, to see whether it slows down), the server's,
the workers' and this client's CPU, each with its ratio to the goal; and,
from the server's worker pool (the record it drains to disk as it serves), its bots'
moves while measuring: how many, ask to answer against the budget, the wait
for a worker, the CPU it thought and the deals its search played, how many
the late bot (greedy) or the quick bot made instead;
and the hints computed, their wait and time.
``--flooders N`` adds N clients that flood input during the measurement
(100 KB bursts of 'x', invalid UTF-8, broken escapes), half in the lobby,
half watching a table; dropped by the server, a flooder tries to connect
again every 0.2 s and floods again once let in. Honest sessions' figures
must still meet the goals.
``--arrivals N`` instead connects N sessions at once to the lobby and
reports the time to each one's first full lobby screen.

``--store`` keeps every move in a SQLite store (the default, as ``fivetowers
serve``), in PostgreSQL (``--store postgresql://...``, an empty database; or
``--store pg-temp``: a throwaway PostgreSQL the script starts and deletes,
as the tests do), or nowhere (``--no-store``). ``--processes N`` (PostgreSQL
only) starts N servers sharing the store and ONE port, as ``fivetowers serve
--processes N`` does (SO_REUSEPORT, one lobby over all of them through
lobby/crossing.py, each with its own bot and hint workers): each opens every
N-th table, every client connects to the one port and lands where the kernel
puts it, and joins its table through the lobby as with one process, so the
players of a table are often on different processes. Each client reads its
process from the SSH version string; the report says how many sessions each
process served, how many tables had players on more than one, and for
those tables' keys, key-to-every-screen and the time until every screen on
another process than the key's showed it. Figures are summed over the
servers; keys are measured as with one process. (``--arrivals`` uses one.)

Every loop is bounded in count and time; the server listens on 127.0.0.1.
For the server process: LOADTEST_LOG=1 shows its log on stderr;
LOADTEST_PROFILE=FILE (with LOADTEST_PROFILE_AFTER=S) writes cProfile stats.
LOADTEST_TIMES=FILE writes each measured key's press time (seconds into the
measurement), key-to-every-screen time (ms), press time (wall clock) and what
it was, to see when the slow ones were; scripts/load_tail.py reads it with
the stall log (FIVETOWERS_STALLS, below) and says what the slowest waited behind.
LOADTEST_LAG=MS prints (stderr) each time the server's event loop was blocked
longer than MS, with the wall-clock time; ``--slowest N`` lists the N slowest
keys (kind, player, when pressed). FIVETOWERS_STALLS=MS (the server's own
switch, fivetowers/server/stalls.py) also says what the loop was doing in
each stall longer than MS, and groups them when the server stops.
FIVETOWERS_PROFILE=MS (fivetowers/server/loop_profile.py) samples the
server's loop every MS ms of its CPU and prints its CPU's shares by part
(Textual's drawing, asyncssh, timers, the store...), by loop callback and
by function when it stops; FIVETOWERS_PROFILE_AFTER=S and
FIVETOWERS_PROFILE_FOR=S keep it to the measurement (at 40 sessions: 22
and 55), FIVETOWERS_PROFILE_OUT=FILE writes its stacks folded.
LOADTEST_MEMORY=FILE samples what the server's memory is made of (see
scripts/load_memory.py: RSS, Python's blocks, malloc's heap, tracemalloc);
LOADTEST_LEFT_AFTER=S waits S seconds (default 3) after the last session
ended before sampling the RSS it left, so that the sampler sees it too.
LOADTEST_MISSES=FILE appends, for every missed action, each screen that did
not show it (actor, other seat or spectator) and the text it received since
the key (escapes stripped, cursor moves shown as @row,col).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import time
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from load_mix import PRESETS, MixError, Plan, seat, with_overrides  # noqa: E402
from load_postgres import TEMPORARY, is_postgres, postgres_url  # noqa: E402
from load_proc import (  # noqa: E402
    Sample, cpu_seconds, cpu_wait_seconds, growth_after, sample, slope_per_minute, workers_cpu,
)

if TYPE_CHECKING:
    from fivetowers.tables.pool_stats import PoolStats

GOAL_P99_MS = 250.0
GOAL_MIB_PER_SESSION = 3.0
GOAL_GROWTH_MIB_MIN = 2.0
GOAL_ARRIVAL_S = 1.5
MEMORY_WARMUP = 180.0
"""Seconds of the measurement before its RSS growth counts as growth after
warm-up (``--memory-warmup``): the bounded caches (drawn lines, styles,
hints) fill over the first minutes of play (scripts/load_caches.py)."""
LEFT_AFTER = float(os.environ.get("LOADTEST_LEFT_AFTER", "3"))
"""Seconds after the last session ended that the server's RSS is sampled
(longer lets LOADTEST_MEMORY's sampler note the empty server too)."""


# -- the server side ---------------------------------------------------------
async def serve(plan: Plan, data_dir: Path, store_url: str | None = None, process: int = 0,
                processes: int = 1, port: int = 0) -> None:
    from fivetowers.games import game_kind
    from fivetowers.lobby.model import HostedTable, Lobby
    from fivetowers.lobby.app import lobby_factory
    from fivetowers.server.serve import GameServer, ServerConfig
    from fivetowers.tables.seats import BOT_NAMES, Seat

    if os.environ.get("LOADTEST_LOG"):  # the server's own log lines, to stderr
        from fivetowers.server.serve import configure_logging
        configure_logging(sys.stderr)
    from fivetowers.tables.workers import Workers

    mix = plan.mix
    # Bots and hints in worker processes, started before anyone comes, as
    # `fivetowers serve` does (without a pool they would think in threads of
    # the serving process, holding the GIL its screens need).
    pool = Workers()
    await asyncio.to_thread(pool.start)
    store = None
    if mix.store:  # as `fivetowers serve` keeps every move
        from fivetowers.tables.store import open_store
        store = open_store(data_dir, exclusive=True, url=store_url, shared=processes > 1)
    lobby = Lobby(hints=mix.hints, bot_kind=mix.bot, absence_bot_after=3600, workers=pool,
                  store=store)
    if mix.bot_delay is not None:  # else the lobby's own pacing, as players get it
        lobby.bot_delay = mix.bot_delay
    if processes > 1:  # one lobby over every process, as `fivetowers serve --processes N`,
        # which also looks every second for tables a dead process left (their cost too)
        from fivetowers.lobby.serve_command import adopt_orphans, share_tables
        await share_tables(lobby)
        adopting = asyncio.get_running_loop().create_task(adopt_orphans(lobby))
    for t, table in enumerate(plan.tables):
        if t % processes != process:  # opened on another process (listed here through it)
            continue
        seats = [Seat("", None) for _ in range(table.humans)]
        seats += [Seat(f"{BOT_NAMES[i]} (bot)", bot=mix.bot) for i in range(table.bots)]
        options = {"floors": "5"} if table.game == "gotown" else {"variant": "base"}
        lobby.tables[table.code] = HostedTable(table.code, f"load {t}", game_kind(table.game),
                                               options, False, seats, created=float(t))
    lobby.changed()  # its forming tables told to the other processes
    # With several processes, all on one port (SO_REUSEPORT), each named in
    # its SSH version string, as `serve --processes N`'s children are.
    shared = processes > 1
    config = ServerConfig(host="127.0.0.1", port=port, data_dir=data_dir, max_sessions=10_000,
                          max_sessions_per_address=10_000, shutdown_grace=0,
                          max_logins=10_000, max_logins_per_address=10_000,
                          idle_timeout=3600, reuse_port=shared,
                          process=process + 1 if shared else None)
    server = GameServer(config, lobby_factory(lobby))
    await server.start()
    if os.environ.get("LOADTEST_LAG"):
        asyncio.get_running_loop().create_task(watch_loop_lag(float(os.environ["LOADTEST_LAG"])))
    if os.environ.get("LOADTEST_MEMORY"):  # what the server's memory is made of
        from load_memory import watch_memory
        asyncio.get_running_loop().create_task(watch_memory(os.environ["LOADTEST_MEMORY"]))
    stats_file = data_dir / f"pool-stats.{process}.jsonl"
    served = asyncio.Event()
    draining = asyncio.get_running_loop().create_task(
        drain_pool_stats(pool.stats, stats_file, served))
    print(server.port, flush=True)
    if shared:  # ready once it lists every process's tables: any may be joined here
        codes = {table.code for table in plan.tables}
        for _ in range(600):
            if codes <= lobby.tables.keys():
                break
            await asyncio.sleep(0.1)
        print("ready" if codes <= lobby.tables.keys() else "missing tables", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    stopping = time.monotonic()
    await server.stop()
    if processes > 1:
        adopting.cancel()
    await lobby.close()
    # What the bots and hints did, for the report (see pool_report).
    served.set()
    await draining  # its last drain after the lobby closed: one writer at a time
    pool.close()
    print(f"server stopped in {time.monotonic() - stopping:.1f}s", file=sys.stderr)


POOL_STATS_EVERY = 20.0
"""Seconds between the server's drains of its pool's record to disk: the
server keeps only what came since (a server keeps :data:`~fivetowers.tables.
pool_stats.KEPT` of each kind of job, fewer than a long run makes)."""


async def drain_pool_stats(stats: PoolStats, path: Path, served: asyncio.Event) -> None:
    """Every :data:`POOL_STATS_EVERY` seconds, and once more when ``served``
    is set, append what the pool recorded since the last time to ``path``
    (one JSON line a drain), written in a thread: the serving loop only
    swaps the record for an empty one."""
    while not served.is_set():
        try:
            await asyncio.wait_for(served.wait(), POOL_STATS_EVERY)
        except asyncio.TimeoutError:
            pass
        await asyncio.to_thread(append_pool_stats, path, stats.drain())


def append_pool_stats(path: Path, chunk: PoolStats) -> None:
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(chunk.to_json()) + "\n")


async def watch_loop_lag(threshold_ms: float) -> None:
    """Print to stderr every time the server's event loop was busy for more
    than ``threshold_ms`` (a tick meant for 10 ms came that much late), with the
    wall-clock time, to match stalls with the slowest keys."""
    while True:
        asked = time.monotonic()
        await asyncio.sleep(0.01)
        late = (time.monotonic() - asked - 0.01) * 1000
        if late > threshold_ms:
            print(f"loop lag {late:.0f} ms at {time.time():.3f}", file=sys.stderr, flush=True)


def run_server(plan: Plan, data_dir: Path, store_url: str | None = None, process: int = 0,
               processes: int = 1, port: int = 0) -> None:
    os.environ.setdefault("TEXTUAL_DISABLE_KITTY_KEY", "1")
    profile = os.environ.get("LOADTEST_PROFILE")  # a file for the server's cProfile stats
    if not profile:
        asyncio.run(serve(plan, data_dir, store_url, process, processes, port))
        return
    import cProfile
    profiler = cProfile.Profile()
    after = float(os.environ.get("LOADTEST_PROFILE_AFTER", "0"))

    async def profiled() -> None:
        asyncio.get_running_loop().call_later(after, profiler.enable)
        await serve(plan, data_dir, store_url, process, processes, port)
        profiler.disable()
    asyncio.run(profiled())
    profiler.dump_stats(profile if processes == 1 else f"{profile}.{process}")


async def start_server(plan: Plan, data_dir: Path, store_url: str | None = None,
                       process: int = 0, processes: int = 1, port: int = 0
                       ) -> tuple[asyncio.subprocess.Process, int]:
    server = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--serve", "--plan", plan.to_json(),
        "--data-dir", str(data_dir), *(["--store-url", store_url] if store_url else []),
        "--process", str(process), "--processes", str(processes), "--port", str(port),
        stdout=asyncio.subprocess.PIPE)
    assert server.stdout is not None
    line = await asyncio.wait_for(server.stdout.readline(), 60)
    if not line.strip().isdigit():
        raise RuntimeError("the load test's server did not start (see its stderr above)")
    return server, int(line)


class Servers:
    """The load test's server processes: one, or ``--processes N`` sharing
    one store and one port, as `fivetowers serve --processes N` runs them."""

    def __init__(self, plan: Plan, data_dir: Path, store_url: str | None,
                 processes: int) -> None:
        self.plan, self.data_dir, self.store_url = plan, data_dir, store_url
        self.processes = processes
        self.servers: list[asyncio.subprocess.Process] = []
        self.port = 0

    async def start(self) -> None:
        if self.processes > 1:  # one host key, made before the servers race to make it
            from fivetowers.server.hostkey import load_or_create_host_key
            load_or_create_host_key(self.data_dir)
        for process in range(self.processes):  # the first picks the port, the others share it
            server, self.port = await start_server(self.plan, self.data_dir, self.store_url,
                                                   process, self.processes, self.port)
            self.servers.append(server)
        if self.processes > 1:  # every process lists every table before anyone comes
            for server in self.servers:
                assert server.stdout is not None
                line = await asyncio.wait_for(server.stdout.readline(), 90)
                if line.strip() != b"ready":
                    raise RuntimeError("a server process did not list every table: "
                                       f"{line.decode(errors='replace').strip()!r}")

    @property
    def pids(self) -> list[int]:
        return [server.pid for server in self.servers]

    @property
    def running(self) -> bool:
        return all(server.returncode is None for server in self.servers)

    def sample(self) -> Sample:
        samples = [sample(pid) for pid in self.pids]
        return Sample(sum(s.server_kib for s in samples), sum(s.workers_kib for s in samples),
                      sum(s.workers for s in samples))

    def cpu(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.pids)

    def cpu_wait(self) -> float:
        return sum(cpu_wait_seconds(pid) for pid in self.pids)

    def workers_cpu(self) -> float:
        """The live workers' CPU and the replaced ones' (see ``workers_cpu``),
        so a long run's figure neither goes negative nor counts as the server's."""
        return sum(workers_cpu(pid) for pid in self.pids)

    async def stop(self) -> None:
        await asyncio.gather(*(stop_server(server) for server in self.servers))


async def stop_server(server: asyncio.subprocess.Process) -> None:
    if server.returncode is None:
        server.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(server.wait(), 10)
        except asyncio.TimeoutError:  # its loop is stuck (a flood): say so, and end it
            print("the server did not stop within 10 s of SIGTERM: killed", file=sys.stderr)
            server.kill()
            await server.wait()


# -- figures -----------------------------------------------------------------
def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ratio(value: float, goal: float) -> str:
    return f"ratio {value / goal:.2f}" if value == value else "ratio n/a"


# -- the play measurement ----------------------------------------------------
async def load(plan: Plan, seconds: float, pace: float, warmup: float, flooders: int,
               data_dir: Path, store_url: str | None = None,
               processes: int = 1, slowest: int = 5,
               memory_warmup: float = MEMORY_WARMUP) -> dict[str, object]:
    from load_clients import (
        MISSED_AFTER, FloodReport, Player, Results, Viewer, run_flooder, run_viewer,
    )
    from load_gotown import GoTownPlayer

    servers = Servers(plan, data_dir, store_url, processes)
    try:
        await servers.start()
        await asyncio.sleep(0.5)
        idle = servers.sample()
        results = Results()
        stop, flood_go = asyncio.Event(), asyncio.Event()
        tasks: list[asyncio.Task[None]] = []
        started = time.monotonic()
        tables: list[list[Viewer]] = []
        players: list[Viewer] = []
        n = 0
        for table in plan.tables:  # every table's first player first, and so on
            viewers: list[Viewer] = []
            for _ in range(table.humans):
                viewers.append(
                    GoTownPlayer(f"ld{n:03d}", results, pace, plan.mix.rematch)
                    if table.game == "gotown" else
                    Player(f"ld{n:03d}", results, pace, plan.mix.play, plan.mix.raise_chance,
                           plan.mix.rematch))
                n += 1
            tables.append(viewers)
        for seat_no in range(max(t.humans for t in plan.tables)):
            for t, (table, viewers) in enumerate(zip(plan.tables, tables)):
                if seat_no < table.humans:
                    players.append(viewers[seat_no])
                    tasks.append(asyncio.create_task(
                        run_viewer(servers.port, table.code, viewers[seat_no], stop)))
                    await asyncio.sleep(0.02)  # a crowd arriving, not one burst
        await asyncio.wait_for(asyncio.gather(*(p.received.wait() for p in players)), 180)
        await asyncio.sleep(1.0)  # every table has started: a join now watches
        watchers: list[Viewer] = []
        for t, (table, viewers) in enumerate(zip(plan.tables, tables)):
            for _ in range(table.spectators):
                watcher = Viewer(f"ld{n:03d}", results)
                n += 1
                viewers.append(watcher)
                watchers.append(watcher)
                tasks.append(asyncio.create_task(
                    run_viewer(servers.port, table.code, watcher, stop, plan.mix.rematch)))
                await asyncio.sleep(0.02)
        for viewers in tables:
            for viewer in viewers:
                viewer.table = viewers
        if watchers:
            await asyncio.wait_for(asyncio.gather(*(w.received.wait() for w in watchers)), 180)
        connect_time = time.monotonic() - started
        floods = [FloodReport() for _ in range(flooders)]
        for i, report in enumerate(floods):  # half in the lobby, half watching a table
            t = i % len(plan.tables)
            code = plan.tables[t].code if i % 2 else None
            tasks.append(asyncio.create_task(
                run_flooder(servers.port, i, code, flood_go, stop, report)))
        await asyncio.sleep(warmup)  # the sessions' start-up work settles first

        results.since = t0 = time.monotonic()
        flood_go.set()
        cpu0, wcpu0, mine0 = servers.cpu(), servers.workers_cpu(), time.process_time()
        wait0 = servers.cpu_wait()
        points: list[tuple[float, float, float]] = []
        peak = idle
        first_games: float | None = None
        """When every table had finished its first game (seconds into the
        measurement): the warm-up of the growth after the first game."""
        first_game: float | None = None
        """When the first table finished a game (seconds into the measurement)."""
        while (now := time.monotonic()) - t0 < seconds and servers.running:
            s = servers.sample()
            points.append((now - t0, s.server_kib / 1024, s.workers_kib / 1024))
            if first_games is None and games_done(tables) >= 1:
                first_games = now - t0
            if first_game is None and any(table_games(viewers) for viewers in tables):
                first_game = now - t0
            if s.server_kib > peak.server_kib:
                peak = s
            results.sweep(now)
            await asyncio.sleep(min(2.0, max(0.05, seconds - (now - t0))))
        elapsed = time.monotonic() - t0
        cpu = (servers.cpu() - cpu0) / elapsed
        wcpu = (servers.workers_cpu() - wcpu0) / elapsed
        client_cpu = (time.process_time() - mine0) / elapsed
        cpu_wait = (servers.cpu_wait() - wait0) / elapsed
        end = servers.sample()
        results.sweep(time.monotonic(), after=1.0, at_end=True)  # still waiting: missed
        stop.set()
        t_end = time.monotonic()
        _, late = await asyncio.wait(tasks, timeout=10)  # a frozen server answers no goodbye
        for task in late:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # What the sessions left behind: the server collects everything once
        # the last one has ended (server/collector.py), a second later.
        await asyncio.sleep(LEFT_AFTER)
        left = servers.sample()
        if times_file := os.environ.get("LOADTEST_TIMES"):  # when the slow keys were pressed
            wall = time.time() - time.monotonic()  # for the stall log's times (load_tail.py)
            with open(times_file, "w", encoding="utf-8") as out:
                for pressed, took, who in sorted(zip(results.pressed_at, results.everyone,
                                                     results.who)):
                    out.write(f"{pressed - t0:.3f} {took * 1000:.0f} {pressed + wall:.3f} {who}\n")
        if os.environ.get("LOADTEST_DEBUG"):
            print(f"clients closed in {time.monotonic() - t_end:.1f}s", file=sys.stderr)
    finally:
        await servers.stop()
    pool = pool_report(data_dir, t0, t_end)

    sessions = plan.humans + plan.spectators
    per_session = (peak.server_kib - idle.server_kib) / 1024 / (sessions + flooders)
    growth = slope_per_minute([(t, v) for t, v, _ in points])
    # Whether it slows down: caches that fill (the renders the screens share,
    # Textual's per-widget ones) grow early; a leak grows all along.
    late_growth = slope_per_minute([(t, v) for t, v, _ in points if t >= elapsed / 2])
    # Warm-up as the issue means it: every table has played a game (its
    # caches met every kind of screen); what grows after that grows with play.
    after_first = [(t, v) for t, v, _ in points if first_games is not None and t >= first_games]
    first_growth = slope_per_minute(after_first) if len(after_first) >= 5 else float("nan")
    after_one = [(t, v) for t, v, _ in points if first_game is not None and t >= first_game]
    one_growth = slope_per_minute(after_one) if len(after_one) >= 5 else float("nan")
    wgrowth = slope_per_minute([(t, w) for t, _, w in points])
    settled, settled_minutes = growth_after([(t, v) for t, v, _ in points], memory_warmup)
    every50, every99 = pct(results.everyone, 0.5) * 1000, pct(results.everyone, 0.99) * 1000
    print(plan.mix.describe())
    from load_spread import Spread
    spread = Spread.of(tables)
    print(f"store: {store_kind(plan, store_url)}; "
          + (f"{processes} server processes sharing it and one port (figures summed over "
             f"them): {spread.describe()}" if processes > 1 else "one server process"))
    print(f"{plan.describe()}, pace {pace:g}s"
          + (f", {flooders} flooder{'s' if flooders != 1 else ''}" if flooders else ""))
    print(f"measured {elapsed:.0f}s (all connected in {connect_time:.1f}s, then "
          f"{warmup:.0f}s warm-up)")
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(results.kinds.items())) or "none"
    pressed = sum(results.kinds.values())
    # A frozen server shows as few keys: players press only when their turn shows.
    print(f"keys measured: {kinds} ({pressed / elapsed * 60 / max(plan.humans, 1):.1f} a minute "
          f"a player); shown everywhere {len(results.everyone) - results.missed}, "
          f"missed {results.missed} (mid-run {results.missed - results.missed_at_end}: not on "
          f"every screen after {MISSED_AFTER:g}s; at the end {results.missed_at_end}: still "
          "unseen when the measurement ended; counted at the time waited), keys withdrawn "
          f"{results.retries} (refused or hint not ready)")
    print(f"key-to-screen p50 {pct(results.actor, 0.5) * 1000:.0f} ms "
          f"p99 {pct(results.actor, 0.99) * 1000:.0f} ms  key-to-every-screen p50 "
          f"{every50:.0f} ms p99 {every99:.0f} ms (goal {GOAL_P99_MS:.0f}, "
          f"{ratio(every99, GOAL_P99_MS)})")
    if processes > 1:  # the keys whose screens are on more than one process, apart
        print(f"  of them at tables on more than one process: {len(results.crossing)} keys, "
              f"key-to-every-screen p50 {pct(results.crossing, 0.5) * 1000:.0f} ms "
              f"p99 {pct(results.crossing, 0.99) * 1000:.0f} ms; to the screens on another "
              f"process than the key's: p50 {pct(results.elsewhere, 0.5) * 1000:.0f} ms "
              f"p99 {pct(results.elsewhere, 0.99) * 1000:.0f} ms (goal {GOAL_P99_MS:.0f})")
    if slowest:  # what the tail is made of: p99 of ~50 keys is the slowest one
        worst = sorted(zip(results.everyone, results.pressed_at, results.who), reverse=True)
        wall = time.time() - time.monotonic()  # for LOADTEST_LAG's wall-clock times
        print(f"slowest {min(slowest, len(worst))} keys (to every screen): " + "; ".join(
            f"{took * 1000:.0f} ms {who} at {pressed - t0:.1f}s ({pressed + wall:.3f})"
            for took, pressed, who in worst[:slowest]))
    print(f"server RSS {idle.server_kib / 1024:.1f} MiB idle, {peak.server_kib / 1024:.1f} MiB "
          f"loaded: {per_session:.2f} MiB a session (goal {GOAL_MIB_PER_SESSION:g}, "
          f"{ratio(per_session, GOAL_MIB_PER_SESSION)}); workers: {end.workers} processes, "
          f"{end.workers_kib / 1024:.1f} MiB (idle {idle.workers_kib / 1024:.1f})")
    print(f"server RSS once every session had left: {left.server_kib / 1024:.1f} MiB "
          f"({(left.server_kib - idle.server_kib) / 1024:+.1f} MiB against idle: the caches "
          "shared by sessions, the tables, and what the allocator keeps)")
    print(f"RSS growth over the measurement (caches still filling): server {growth:.1f} "
          f"MiB/min (in its second half {late_growth:.1f}), workers {wgrowth:.1f} MiB/min")
    if settled_minutes:
        print(f"RSS growth after the memory warm-up (--memory-warmup {memory_warmup:.0f}s): "
              f"server {settled:.1f} MiB/min (goal {GOAL_GROWTH_MIB_MIN:g}, "
              f"{ratio(settled, GOAL_GROWTH_MIB_MIN)}); minute by minute after it: "
              + ", ".join(f"{mib:+.1f}" for mib in settled_minutes) + " MiB")
    else:
        print(f"RSS growth after the memory warm-up: not measured (the measurement "
              f"ended before --memory-warmup {memory_warmup:.0f}s and a minute more; "
              f"the caches fill over the first minutes: --seconds "
              f"{memory_warmup + 300:.0f} tells)")
    if plan.mix.rematch:
        games = [table_games(viewers) for viewers in tables]
        print(f"games finished: {sum(games)} at {len(games)} tables (each table: "
              f"{min(games, default=0)} to {max(games, default=0)}); every table had finished "
              "its first game " + (f"{first_games:.0f}s into the measurement" if first_games
                                   is not None else "only after the measurement (or never)"))
        print(f"RSS growth after every table's first game (for information; the goal's "
              f"figure is the one after the memory warm-up): server {first_growth:.1f} MiB/min "
              f"({len(after_first)} samples); after the first game anywhere ("
              + (f"{first_game:.0f}s" if first_game is not None else "none")
              + f"): {one_growth:.1f} MiB/min")
    print("server RSS by minute (MiB, the last sample of each): " + ", ".join(
        f"{minute}: {mib:.1f}" for minute, mib in by_minute(points)))
    print(f"CPU (share of one core): server {cpu:.0%}, workers {wcpu:.0%}, "
          f"this load client {client_cpu:.0%}; the serving loop waited for a CPU "
          f"{cpu_wait:.0%} of the time (its run delay)")
    print_pool(pool)
    if floods:
        sent = sum(f.sent for f in floods) / 2**20
        dropped = sum(f.dropped for f in floods)
        connections = sum(f.connections for f in floods)
        refused = sum(f.refused for f in floods)
        print(f"flooders sent {sent:.1f} MiB in all over {connections} connections; "
              f"the server dropped them {dropped} times and refused {refused} "
              "attempts to connect again")
    figures: dict[str, object] = {
        "mix": plan.mix.name, "sessions": sessions, "flooders": flooders,
        "store": store_kind(plan, store_url), "processes": processes,
        "sessions_per_process": spread.sessions, "tables_across": spread.players_across,
        "crossing_keys": len(results.crossing),
        "crossing_p99_ms": pct(results.crossing, 0.99) * 1000,
        "elsewhere_p99_ms": pct(results.elsewhere, 0.99) * 1000,
        "actions": len(results.everyone), "pressed": pressed, "kinds": results.kinds, "missed": results.missed,
        "missed_at_end": results.missed_at_end,
        "actor_p99_ms": pct(results.actor, 0.99) * 1000,
        "every_p50_ms": every50, "every_p99_ms": every99,
        "mib_per_session": per_session, "growth_mib_min": growth,
        "late_growth_mib_min": late_growth,
        "memory_warmup_s": memory_warmup, "settled_growth_mib_min": settled,
        "settled_by_minute_mib": settled_minutes,
        "first_games_s": first_games, "growth_after_first_game_mib_min": first_growth,
        "first_game_s": first_game, "growth_after_a_first_game_mib_min": one_growth,
        "games": sum(table_games(viewers) for viewers in tables),
        "rss_by_minute": by_minute(points),
        "left_mib": left.server_kib / 1024, "idle_mib": idle.server_kib / 1024,
        "workers": end.workers, "workers_mib": end.workers_kib / 1024,
        "server_cpu": cpu, "workers_cpu": wcpu, "client_cpu": client_cpu,
        "server_cpu_wait": cpu_wait,
        "flood_sent_mib": sum(f.sent for f in floods) / 2**20,
        "flood_connections": sum(f.connections for f in floods),
        "flood_drops": sum(f.dropped for f in floods),
        "flood_refused": sum(f.refused for f in floods),
        "pool": pool,
    }
    print("RESULT " + json.dumps(figures), flush=True)
    return figures


def table_games(viewers: list[Any]) -> int:
    """Games a table finished: the most any of its players said yes after."""
    return max((getattr(v, "games", 0) for v in viewers), default=0)


def games_done(tables: list[list[Any]]) -> int:
    """Games every table has finished (the fewest of any table)."""
    return min((table_games(viewers) for viewers in tables), default=0)


def by_minute(points: list[tuple[float, float, float]]) -> list[tuple[int, float]]:
    """The server's RSS (MiB) at the last sample of each minute of the measurement."""
    last: dict[int, float] = {}
    for t, mib, _ in points:
        last[int(t // 60)] = mib
    return sorted(last.items())


def pool_report(data_dir: Path, since: float, until: float) -> dict[str, object]:
    """The servers' worker pools, from the records each drained to disk as it
    served and at exit: bot moves and hints asked for while measuring
    (``time.monotonic``: one clock for the machine's processes)."""
    from fivetowers.tables.pool_stats import summarise

    chunks = [json.loads(line) for f in sorted(data_dir.glob("pool-stats.*.jsonl"))
              for line in f.read_text(encoding="utf-8").splitlines() if line]
    return summarise(chunks, since, until) if chunks else {}


def print_pool(pool: dict[str, object]) -> None:
    """How the bots fared: their moves' time against their budget, the queue
    before a worker took them, the CPU they thought and the deals their
    search played, and the moves the late and quick bots made."""
    for name, f in pool.items():
        if not isinstance(f, dict) or name in ("hints", "cpu", "dropped"):
            continue
        print(f"{name} bot moves (from the server): {f['moves']}, budget {f['budget_s']:g} s; "
              f"ask to answer p50 {f['took_p50']:.2f} s p99 {f['took_p99']:.2f} s max "
              f"{f['took_max']:.2f} s, {f['over_budget']} over budget; waiting for a worker "
              f"p50 {f['waited_p50']:.2f} s p99 {f['waited_p99']:.2f} s; CPU it thought "
              f"p50 {f['had_p50']:.2f} s p10 {f['had_p10']:.2f} s, its whole budget in "
              f"{f['full_budget']}; deals its search played p50 {f['searched_p50']:g} "
              f"p10 {f['searched_p10']:g}; made by the late bot {f['late']}, the quick bot "
              f"{f['quick']}")
    hints = pool.get("hints")
    if isinstance(hints, dict):
        print(f"hints computed {hints['computed']} (asks answered from the cache "
              f"{hints['known']}, joining one in flight {hints['joined']}); waiting for a "
              f"worker p50 {hints['waited_p50']:.2f} s p99 {hints['waited_p99']:.2f} s, "
              f"ask to answer p50 {hints['took_p50']:.2f} s p99 {hints['took_p99']:.2f} s")
    dropped = pool.get("dropped")
    if isinstance(dropped, dict) and dropped:
        print("jobs dropped unrun (nobody waited any more): " + ", ".join(
            f"{what} {n}" for what, n in sorted(dropped.items())))
    cpu = pool.get("cpu")
    if isinstance(cpu, dict):
        print("workers' CPU by job (the jobs asked while measuring): " + "; ".join(
            f"{kind} {c['jobs']} jobs {c['cpu_s']:.1f} s ({c['share']:.0%}), p50 "
            f"{c['cpu_p50'] * 1000:.0f} ms p90 {c['cpu_p90'] * 1000:.0f} ms"
            for kind, c in cpu.items()))


def store_kind(plan: Plan, store_url: str | None) -> str:
    if not plan.mix.store:
        return "none"
    return "postgresql" if store_url else "sqlite"


# -- the arrivals measurement ---------------------------------------------------
async def arrivals(plan: Plan, count: int, data_dir: Path,
                   store_url: str | None = None) -> dict[str, object]:
    import asyncssh

    from load_clients import Arrivals, arrive
    server, port = await start_server(plan, data_dir, store_url)
    into = Arrivals(count=count)
    try:
        await asyncio.sleep(0.5)
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(count)]
        codes = (plan.tables[-1].code.encode(),) if plan.tables else ()  # the newest row
        go, leave = asyncio.Event(), asyncio.Event()
        tasks = [asyncio.create_task(arrive(port, f"ar{i:03d}", keys[i], go, codes, leave, into))
                 for i in range(count)]
        cpu0, t0, mine0 = cpu_seconds(server.pid, True), time.monotonic(), time.process_time()
        go.set()
        try:
            await asyncio.wait_for(into.done.wait(), 120)
        except asyncio.TimeoutError:
            pass
        cpu = (cpu_seconds(server.pid, True) - cpu0) / (time.monotonic() - t0)
        client_cpu = (time.process_time() - mine0) / (time.monotonic() - t0)
        leave.set()
        await asyncio.wait(tasks, timeout=30)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        await stop_server(server)
    took = into.took
    failed = count - len(took)
    p99 = pct(took, 0.99)
    print(f"arrivals: {count} sessions connecting at once to a lobby of "
          f"{len(plan.tables)} tables ({plan.mix.name} mix)")
    print(f"first full lobby screen p50 {pct(took, 0.5):.2f} s p99 {p99:.2f} s max "
          f"{max(took, default=float('nan')):.2f} s (goal {GOAL_ARRIVAL_S:g} s for 50, "
          f"{ratio(p99, GOAL_ARRIVAL_S)}); failed {failed}"
          + (f" ({into.failed[0]})" if into.failed else "") + f"; CPU (share of one core): server {cpu:.0%}, this load client {client_cpu:.0%}")
    figures: dict[str, object] = {"arrivals": count, "p50_s": pct(took, 0.5), "p99_s": p99,
                                  "failed": failed}
    print("RESULT " + json.dumps(figures), flush=True)
    return figures


# -- the command line ------------------------------------------------------------
def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20,
                        help="players and spectators, together (default 20)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measuring time (max 3600)")
    parser.add_argument("--mix", choices=sorted(PRESETS), default="realistic",
                        help="the preset the knobs below change (default realistic)")
    parser.add_argument("--hints", action=argparse.BooleanOptionalAction, default=None,
                        help="hint panel shown to seated players")
    parser.add_argument("--bots", type=int, default=None, help="bot seats per table")
    parser.add_argument("--bot", default=None, help="strong, greedy or random")
    parser.add_argument("--bot-delay", type=float, default=None,
                        help="seconds a bot waits before moving (default: the lobby's)")
    parser.add_argument("--sizes", default=None,
                        help="seats per table, bots included, in turn: e.g. 4,3,5,2")
    parser.add_argument("--spectators", type=float, default=None,
                        help="spectators per table; 0.5 is one at every other table")
    parser.add_argument("--play", default=None,
                        help="build: bid and build with the hint's plan; bids: bid 0/pass")
    parser.add_argument("--gotown", type=float, default=None,
                        help="share of the tables (of up to 4 seats) that play GoTown, 0 to 1 "
                             "(realistic: 0.5, every other table)")
    parser.add_argument("--raise-chance", type=float, default=None,
                        help="how often a non-starting human raises (build play)")
    parser.add_argument("--rematch", action=argparse.BooleanOptionalAction, default=None,
                        help="tables play game after game: players say yes to a rematch, "
                             "spectators leave and join the next game (realistic: on)")
    parser.add_argument("--flooders", type=int, default=0,
                        help="extra clients that flood input while measuring (default 0)")
    parser.add_argument("--arrivals", type=int, default=0,
                        help="instead of play: N sessions connect at once; time to the lobby")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="seconds a player waits before acting (default 1)")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds between the last session connecting and measuring "
                             "(default 5 + N/4: every session's start-up is done by then)")
    parser.add_argument("--memory-warmup", type=float, default=MEMORY_WARMUP,
                        help="seconds into the measurement before RSS growth counts for "
                             f"'memory stays flat' (default {MEMORY_WARMUP:g}: the caches "
                             "fill over the first minutes)")
    parser.add_argument("--store", nargs="?", const="sqlite", default=None,
                        metavar=f"sqlite|{TEMPORARY}|URL",
                        help="keep every move, as the server does: in a SQLite store "
                             f"(the default), in PostgreSQL (a postgresql:// URL of an empty "
                             f"database, or {TEMPORARY}: a throwaway server of the script's)")
    parser.add_argument("--no-store", dest="store", action="store_const", const="none",
                        help="keep no move")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes sharing a PostgreSQL store (default 1)")
    parser.add_argument("--slowest", type=int, default=5,
                        help="report this many slowest keys: kind, player, when (0: none)")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--plan", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--store-url", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--process", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.data_dir is None and not args.serve:
        import tempfile
        with tempfile.TemporaryDirectory(prefix="fivetowers-load-") as data_dir:
            return main([*(argv if argv is not None else sys.argv[1:]), "--data-dir", data_dir])
    if args.serve:
        run_server(Plan.from_json(args.plan), Path(args.data_dir), args.store_url,
                   args.process, args.processes, args.port)
        return 0
    store = args.store or "sqlite"
    if store not in ("sqlite", "none") and not is_postgres(store):
        print(f"loadtest_ssh: --store {store!r}: sqlite, {TEMPORARY} or a postgresql:// URL",
              file=sys.stderr)
        return 2
    if not 1 <= args.processes <= 16 or (args.processes > 1 and not is_postgres(store)):
        print("loadtest_ssh: --processes 1-16; more than one needs a PostgreSQL --store "
              f"({TEMPORARY} or a URL): the SQLite store serves one process", file=sys.stderr)
        return 2
    try:
        sizes = tuple(int(s) for s in args.sizes.split(",")) if args.sizes else None
    except ValueError:
        print(f"loadtest_ssh: --sizes {args.sizes!r}: numbers 2-5, comma-separated",
              file=sys.stderr)
        return 2
    try:
        mix = with_overrides(PRESETS[args.mix], hints=args.hints, bots=args.bots, bot=args.bot,
                             bot_delay=args.bot_delay, sizes=sizes, spectators=args.spectators,
                             play=args.play, raise_chance=args.raise_chance,
                             store=None if args.store is None else store != "none",
                             gotown=args.gotown, rematch=args.rematch)
        if not 1 <= args.sessions <= 1000 or not 0 <= args.flooders <= 100 \
                or not 0 <= args.arrivals <= 1000 or not 0 < args.seconds <= 3600:
            raise MixError("--sessions 1-1000, --flooders 0-100, --arrivals 0-1000, "
                           "--seconds up to 3600")
        plan = seat(mix, args.sessions)
    except MixError as exc:
        print(f"loadtest_ssh: {exc}", file=sys.stderr)
        return 2
    warmup = 5 + args.sessions / 4 if args.warmup is None else args.warmup
    with postgres_url(store) if is_postgres(store) else nullcontext(None) as store_url:
        if args.arrivals:
            asyncio.run(arrivals(plan, args.arrivals, Path(args.data_dir), store_url))
            return 0
        asyncio.run(load(plan, args.seconds, args.pace, warmup, args.flooders,
                         Path(args.data_dir), store_url, args.processes, args.slowest,
                         args.memory_warmup))
    return 0


if __name__ == "__main__":
    sys.exit(main())
