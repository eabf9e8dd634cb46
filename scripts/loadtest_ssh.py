"""Load test of ``fivetowers serve``: N SSH sessions at N/5 tables, paced play.

    python scripts/loadtest_ssh.py --sessions 20 --seconds 30

A server process is started (this script with ``--serve``: the real server
and lobby, hints off, five-seat tables prepared with known codes). This
process then opens N SSH sessions with a pty (80x24), each joining its table
with ``join CODE``, and plays like a paced bot: when its screen says it is
its turn, it waits ``--pace`` seconds, then bids 0 (starting player) or
passes. For every action it measures

* key-to-screen: from the key to the acting player's next screen update;
* key-to-every-screen: from the key until every player at that table has
  received a screen update;

and reports p50/p99 of both, the server's RSS per session (RSS at full load
minus RSS before any session, over N) and the server's CPU use. Goals on
this project's 2-core machine: p99 key-to-every-screen <= 250 ms and
<= 3 MiB per session at N = 100.

Clients detect "my turn" in the raw output (no terminal emulator), so the
load generator costs little next to the server it measures. Only keys pressed
after the warm-up count (start-up of many sessions is not play); a key the
table refuses (the client misread "you start") is retried at once and not
counted. It also prints how fast the server's RSS grew while measuring.

For the server process: LOADTEST_LOG=1 shows its log on stderr (garbage
collections over 100 ms are logged); LOADTEST_RECLAIM_AT=S makes it do a
full collection S seconds after start, as when sessions end;
LOADTEST_PROFILE=FILE (with LOADTEST_PROFILE_AFTER=S) writes cProfile stats.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEATS = 5  # per table; --table-size changes it
TURN = b"YOUR TURN to bid"
START = b"you start"
# The status line says whose turn it is; these mean "not mine".
OTHERS = (b" is bidding", b" is building", b"game over")
REFUSED = "✗".encode()  # the bidding panel's mark for a key the rules refused


# -- the server side ---------------------------------------------------------
async def serve(tables: int, seats: int, data_dir: Path) -> None:
    from fivetowers.rules import Variant
    from fivetowers.server.lobby import HostedTable, Lobby
    from fivetowers.server.lobby_app import lobby_factory
    from fivetowers.server.serve import GameServer, ServerConfig
    from fivetowers.tables.seats import Seat

    if os.environ.get("LOADTEST_LOG"):  # the server's own log lines, to stderr
        from fivetowers.server.serve import configure_logging
        configure_logging(sys.stderr)
    lobby = Lobby(hints=False, bot_delay=0.0, absence_bot_after=3600)
    for t in range(tables):
        code = f"LT{t:03d}"
        lobby.tables[code] = HostedTable(code, f"load {t}", Variant.BASE, False,
                                         [Seat("", None) for _ in range(seats)])
    config = ServerConfig(port=0, data_dir=data_dir, max_sessions=10_000,
                          max_sessions_per_address=10_000, shutdown_grace=0,
                          idle_timeout=3600)
    server = GameServer(config, lobby_factory(lobby))
    await server.start()
    reclaim_at = os.environ.get("LOADTEST_RECLAIM_AT")
    if reclaim_at:  # a full garbage collection at S seconds, as when sessions end
        asyncio.get_running_loop().call_later(float(reclaim_at), server.collector.reclaim)
    print(server.port, flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await server.stop()


# -- the client side ---------------------------------------------------------
@dataclass
class TableStats:
    players: list[Player] = field(default_factory=list)
    pending: dict[str, float] = field(default_factory=dict)
    """Per action: key time; cleared as screens report."""


@dataclass
class Results:
    actor: list[float] = field(default_factory=list)
    everyone: list[float] = field(default_factory=list)
    actions: int = 0
    retries: int = 0
    since: float = float("inf")
    """Keys pressed before this (monotonic time) are not measured."""
    """Keys refused (the client misread "you start"): not measured as actions."""


class Player:
    def __init__(self, name: str, table: TableStats, results: Results, pace: float) -> None:
        self.name = name
        self.table = table
        self.results = results
        self.pace = pace
        self.tail = b""
        self.turn_at = self.other_at = self.start_at = self.refused_at = -1
        """Where in the output the last turn / someone else's turn / "you start" /
        a refusal was."""
        self.waiting: dict[int, float] = {}
        """Action id -> key time, for actions this screen has not shown yet."""
        self.total = 0
        """Bytes received so far."""
        self.acted_total = -1
        self.acted_time = 0.0
        self.last_key = b""

    def on_output(self, data: bytes, now: float) -> None:
        for action, t0 in list(self.waiting.items()):
            del self.waiting[action]
            self.table.pending.pop(f"{action}:{self.name}", None)
            if not any(k.startswith(f"{action}:") for k in self.table.pending):
                if t0 >= self.results.since:
                    self.results.everyone.append(now - t0)
        # Scan only the new bytes (and a little overlap for split markers).
        overlap = self.tail + data
        base = self.total - len(self.tail)
        lowered = overlap.lower()
        found = overlap.rfind(TURN)
        if found >= 0:
            self.turn_at = base + found
        for marker in OTHERS:
            found = overlap.rfind(marker)
            if found >= 0:
                self.other_at = max(self.other_at, base + found)
        found = lowered.rfind(START)
        if found >= 0:
            self.start_at = base + found
        found = overlap.rfind(REFUSED)
        if found >= 0:
            self.refused_at = max(self.refused_at, base + found)
        self.total += len(data)
        self.tail = overlap[-32:]

    def key_to_press(self) -> bytes | None:
        """The key for my turn to bid (bid 0 when starting, else pass), or None.

        The status line says whose turn it is. Raw output shows only what
        changed, so "you start" can be missed; a key the table refuses is
        marked refused on screen, and the other key goes at once (a key with
        no answer at all is tried again after 3 s).
        """
        if self.turn_at <= self.other_at:
            return None
        if self.turn_at <= self.acted_total:  # the status I already acted on
            if self.refused_at <= self.acted_total \
                    and time.monotonic() - self.acted_time < 3.0:
                return None
            return b"p" if self.last_key == b"0" else b"0"
        return b"0" if self.start_at > self.other_at else b"p"

    def forget(self, action: int) -> None:
        """A refused key: its action never happened, so nobody waits for it."""
        for other in self.table.players:
            other.waiting.pop(action, None)
            self.table.pending.pop(f"{action}:{other.name}", None)

    async def play(self, process: object, stop: asyncio.Event) -> None:
        import asyncssh
        assert isinstance(process, asyncssh.SSHClientProcess)
        rng = random.Random(self.name)
        while not stop.is_set():
            await asyncio.sleep(0.02)
            if self.key_to_press() is None:
                continue
            if self.turn_at > self.acted_total:  # a new turn: think first (a retry goes at once)
                await asyncio.sleep(self.pace * rng.uniform(0.8, 1.2))
            key = self.key_to_press()
            if key is None:
                continue
            if self.turn_at <= self.acted_total:  # a retry: the last key was refused
                self.forget(self.actor_t0[0])
                self.results.retries += 1
            self.acted_total, self.acted_time, self.last_key = self.total, time.monotonic(), key
            self.results.actions += 1
            action = self.results.actions
            t0 = time.monotonic()
            for other in self.table.players:
                other.waiting[action] = t0
                self.table.pending[f"{action}:{other.name}"] = t0
            self.actor_t0 = (action, t0)
            process.stdin.write(key)


async def run_session(port: int, code: str, player: Player, results: Results,
                      ready: asyncio.Event, stop: asyncio.Event) -> None:
    import asyncssh

    key = asyncssh.generate_private_key("ssh-ed25519")
    async with asyncssh.connect("127.0.0.1", port, username=player.name, known_hosts=None,
                                client_keys=[key], agent_path=None) as conn:
        process = await conn.create_process(f"join {code}", term_type="xterm-256color",
                                            term_size=(80, 24), encoding=None)
        player_task = asyncio.create_task(player.play(process, stop))
        first = True
        while not stop.is_set():
            try:
                data = await asyncio.wait_for(process.stdout.read(65536), 0.5)
            except asyncio.TimeoutError:
                continue
            if not data:
                break
            now = time.monotonic()
            actor = getattr(player, "actor_t0", None)
            if actor is not None and actor[0] in player.waiting:
                if actor[1] >= results.since:
                    results.actor.append(now - actor[1])
            player.on_output(data, now)
            if first:
                first = False
                ready.set()
        player_task.cancel()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def load(sessions: int, seats: int, seconds: float, pace: float, data_dir: Path,
               warmup: float = 2.0) -> int:
    tables = sessions // seats
    server = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--serve", "--tables", str(tables), "--table-size", str(seats),
        "--data-dir", str(data_dir), stdout=asyncio.subprocess.PIPE)
    assert server.stdout is not None
    port = int((await server.stdout.readline()).decode())
    await asyncio.sleep(0.5)
    base_rss = rss_kib(server.pid)
    results = Results()
    stop = asyncio.Event()
    tasks = []
    started = time.monotonic()
    stats = [TableStats() for _ in range(tables)]
    for i in range(sessions):
        table = stats[i % tables]
        player = Player(f"p{i}", table, results, pace)
        table.players.append(player)
    readies = []
    for i in range(sessions):
        ready = asyncio.Event()
        readies.append(ready)
        table_index = i % tables
        player = stats[table_index].players[i // tables]
        tasks.append(asyncio.create_task(
            run_session(port, f"LT{table_index:03d}", player, results, ready, stop)))
        await asyncio.sleep(0.02)  # a crowd arriving, not one burst
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
    connect_time = time.monotonic() - started
    await asyncio.sleep(warmup)  # the sessions' start-up work settles first
    # Only keys pressed from now on count: a key pressed while sessions were
    # still starting measures their start-up, not play.
    results.since = time.monotonic()
    cpu0, t0 = cpu_seconds(server.pid), time.monotonic()
    mine0 = time.process_time()
    rss_full = rss_start = rss_kib(server.pid)
    await asyncio.sleep(seconds)
    cpu = (cpu_seconds(server.pid) - cpu0) / (time.monotonic() - t0)
    client_cpu = (time.process_time() - mine0) / (time.monotonic() - t0)
    rss_end = rss_kib(server.pid)
    rss_full = max(rss_full, rss_end)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    server.send_signal(signal.SIGTERM)
    await server.wait()

    per_session = (rss_full - base_rss) / sessions / 1024
    every99 = pct(results.everyone, 0.99) * 1000
    print(f"sessions {sessions} at {tables} tables of {seats}, pace {pace:.2f}s, measured {seconds:.0f}s "
          f"(all connected in {connect_time:.1f}s, then {warmup:.0f}s warm-up)")
    print(f"actions {len(results.everyone)} (refused keys retried {results.retries})  "
          f"key-to-screen p50 {pct(results.actor, 0.5) * 1000:.0f} ms "
          f"p99 {pct(results.actor, 0.99) * 1000:.0f} ms  "
          f"key-to-every-screen p50 {pct(results.everyone, 0.5) * 1000:.0f} ms "
          f"p99 {every99:.0f} ms (goal 250, ratio {every99 / 250:.2f})")
    print(f"server RSS {base_rss / 1024:.1f} MiB idle, {rss_full / 1024:.1f} MiB loaded: "
          f"{per_session:.2f} MiB per session (goal 3, ratio {per_session / 3:.2f})  "
          f"server CPU {cpu * 100:.0f}% of one core (this client {client_cpu * 100:.0f}%)")
    print(f"server RSS grew {(rss_end - rss_start) / 1024:.1f} MiB while measuring "
          f"({(rss_end - rss_start) / 1024 / seconds * 60:.1f} MiB a minute)")
    if results.everyone:
        print(f"mean key-to-every-screen {statistics.mean(results.everyone) * 1000:.0f} ms")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0, help="measuring time")
    parser.add_argument("--table-size", type=int, default=SEATS,
                        help="seats per table, 2-5 (default 5); --sessions must be a multiple")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="seconds a player waits before acting (default 1)")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds between the last session connecting and measuring "
                             "(default 5 + N/4: every session's start-up is done by then)")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tables", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.data_dir is None:
        import tempfile
        args.data_dir = tempfile.mkdtemp(prefix="fivetowers-load-")
    if args.serve:
        os.environ.setdefault("TEXTUAL_DISABLE_KITTY_KEY", "1")
        profile = os.environ.get("LOADTEST_PROFILE")  # a file for the server's cProfile stats
        if profile:
            # LOADTEST_PROFILE_AFTER=S: profile from S seconds on (the steady
            # state once every session has connected), not the start-up.
            import cProfile
            profiler = cProfile.Profile()
            after = float(os.environ.get("LOADTEST_PROFILE_AFTER", "0"))

            async def profiled() -> None:
                asyncio.get_running_loop().call_later(after, profiler.enable)
                await serve(args.tables, args.table_size, Path(args.data_dir))
                profiler.disable()
            asyncio.run(profiled())
            profiler.dump_stats(profile)
        else:
            asyncio.run(serve(args.tables, args.table_size, Path(args.data_dir)))
        return 0
    if not 2 <= args.table_size <= 5 or args.sessions < args.table_size \
            or args.sessions % args.table_size:
        print("loadtest_ssh: --table-size must be 2-5 and --sessions a multiple of it",
              file=sys.stderr)
        return 2
    return asyncio.run(load(args.sessions, args.table_size, args.seconds, args.pace,
                            Path(args.data_dir),
                            5 + args.sessions / 4 if args.warmup is None else args.warmup))


if __name__ == "__main__":
    sys.exit(main())
