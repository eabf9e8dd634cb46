"""Players arriving together: time to each one's first full lobby screen.

    python scripts/bench_arrivals.py [--arrivals 1 20 50] [--tables 10] [--playing 0]

Starts a real server in a subprocess (the lobby as ``fivetowers serve`` runs
it, hints on, ``--tables`` forming tables listed), then for each figure N of
``--arrivals`` connects N asyncssh clients at the same moment, each with a
pty of 80x24, and times (from the common start) until its stream, after the
switch to the alternate screen, shows the whole lobby: the title with the
player's name, the last table's code, the help line and the footer's last
key ("leave"). It prints p50/p99/max of that time, the server's CPU per
session start (from its /proc stat: SSH handshake, session, App, first
frames, divided by N) and how much of it was garbage collection (the
collecting thread's CPU time, so the busy machine's other processes are
not counted in it), the
server's RSS with the N sessions on their lobby (and its growth per
session), and the longest the server's event loop went without
running a 10 ms ticker during the arrivals (a start that does not yield
would show here as a stall every session already playing sees).

Client keys are made before timing. The clients run in this process on the
same machine: their CPU is printed too (they do a key exchange each as well).

Below each burst, ``where the wait went``: each arrival's time split at the
server's marks (its clock and the clients' are the same monotonic clock):
TCP accepted, logged in, session opened, start turn taken (the gate of
``server/hosted.py``), first screen drawn (marked once its bytes are
written), then seen whole by the client;
p50/p99 of each part, and how many took their turn out of the order they
asked for it. Then how long the server's event loop waited for input with
nothing to run between the burst's first connection and its last first
screen: if it hardly waits, the last arrival's wait is the burst's total
server CPU, in whatever order the work is done.

``--profile FILE`` writes the server's cProfile stats of the arrivals
(``--profile-clock cpu``: timed by the process's CPU clock, kernel time of
its sends included, so that what the busy machine's other processes take
is not charged to the function the server was in);
``--cipher NAME`` makes the clients use only that cipher (the client's
preference decides which one a connection uses).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ALT_SCREEN = b"\x1b[?1049h"
# Escape sequences between the glyphs: stripped before looking for text.
ESCAPES = re.compile(rb"\x1b(\[[0-9;?<>=$]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78])")
LAST_KEY = b"leave"  # the compact footer's last binding: drawn after the others
HELP = b"join CODE"


# -- the server side ---------------------------------------------------------
class StallMeter:
    """The longest gap between 10 ms ticks of the event loop since the last
    read, and the time spent collecting garbage."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.collecting = 0.0
        self._since = 0.0
        self.by_generation = [[0, 0.0], [0, 0.0], [0, 0.0]]
        """Collections and seconds, per generation collected."""
        gc.callbacks.append(self._collection)

    def _collection(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._since = time.thread_time()
        else:
            spent = time.thread_time() - self._since
            self.collecting += spent
            self.by_generation[info["generation"]][0] += 1
            self.by_generation[info["generation"]][1] += spent

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        last = loop.time()
        while True:
            await asyncio.sleep(0.01)
            now = loop.time()
            self.worst = max(self.worst, now - last - 0.01)
            last = now

    def take(self) -> tuple[float, float, str]:
        worst, self.worst = self.worst, 0.0
        collecting, self.collecting = self.collecting, 0.0
        generations = ",".join(f"{n}:{t * 1000:.0f}" for n, t in self.by_generation)
        self.by_generation = [[0, 0.0], [0, 0.0], [0, 0.0]]
        return worst, collecting, generations


class IdleMeter:
    """When the server's event loop waited for input with nothing to run.

    If the loop never waits between the burst's first connection and its
    last first screen, the last arrival's wait is the burst's total server
    CPU whatever order the work is done in: serving started sessions before
    later arrivals' handshakes would bring the p50 down, not the p99."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.waits: list[tuple[float, float]] = []
        selector = loop._selector  # type: ignore[attr-defined]
        select = selector.select
        waits = self.waits

        def timed(timeout: float | None = None) -> Any:
            began = time.monotonic()
            ready = select(timeout)
            ended = time.monotonic()
            if ended - began > 0.0002:  # a real wait, not a poll
                waits.append((began, ended))
            return ready
        selector.select = timed

    def idle_between(self, start: float, end: float) -> float:
        """Seconds the loop waited between ``start`` and ``end`` (then forgets them)."""
        idle = sum(max(0.0, min(b, end) - max(a, start)) for a, b in self.waits)
        self.waits.clear()
        return idle


class Timeline:
    """The server's marks of each arrival's start, by the client's port."""

    MARKS = ("accepted", "logged in", "session", "turn", "first screen")

    def __init__(self) -> None:
        self.marks: dict[int, dict[str, float]] = {}
        self.ports: dict[asyncio.Task[Any], int] = {}

    def mark(self, port: int, what: str) -> None:
        self.marks.setdefault(port, {})[what] = time.monotonic()

    def watch(self, server: Any) -> None:
        from fivetowers.server import hosted
        from fivetowers.server.session import Session

        timeline = self

        def port_of(thing: Any) -> int:
            return int((thing.get_extra_info("peername") or ("", 0))[1])

        def wrap(name: str, what: str, of: Any) -> None:
            original = getattr(server, name)

            def marked(*args: Any, **kwargs: Any) -> Any:
                port = port_of(of(args))
                timeline.mark(port, what)
                task = asyncio.current_task()
                if name == "handle_session" and task is not None:
                    timeline.ports[task] = port
                return original(*args, **kwargs)
            setattr(server, name, marked)

        wrap("admit_connection", "accepted", lambda args: args[0])
        wrap("login_completed", "logged in", lambda args: args[0])
        wrap("handle_session", "session", lambda args: args[0])

        class TimedTurns(asyncio.Semaphore):
            async def acquire(self) -> Literal[True]:
                taken = await super().acquire()
                task = asyncio.current_task()
                if task in timeline.ports:
                    timeline.mark(timeline.ports[task], "turn")
                return taken

        hosted._turns[asyncio.get_running_loop()] = TimedTurns(hosted.STARTING)
        first_screen = getattr(Session, "_first_screen", None)
        if first_screen is None:  # a server from before it (compared with --arrivals)
            return

        def drawn(session: Session) -> None:
            timeline.mark(port_of(session.process), "first screen")
            first_screen(session)
        setattr(Session, "_first_screen", drawn)

    def take(self, idle: IdleMeter) -> str:
        marks, self.marks = self.marks, {}
        self.ports.clear()
        firsts = [each["accepted"] for each in marks.values() if "accepted" in each]
        lasts = [each["first screen"] for each in marks.values() if "first screen" in each]
        span = (min(firsts), max(lasts)) if firsts and lasts else (0.0, 0.0)
        return json.dumps({"marks": {str(port): each for port, each in marks.items()},
                           "span": span[1] - span[0], "idle": idle.idle_between(*span)})


def where_the_wait_went(marks: dict[str, dict[str, float]],
                        seen: dict[int, tuple[float, float]]) -> str:
    """Per part of an arrival's wait, p50/p99 in ms; turns taken out of order."""
    parts: dict[str, list[float]] = {}
    names = ("connect", *Timeline.MARKS[1:], "to the client")
    asked, taken = [], []
    for port, (t0, done) in seen.items():
        each = marks.get(str(port), {})
        if any(mark not in each for mark in Timeline.MARKS):
            continue
        times = [t0] + [each[mark] for mark in Timeline.MARKS] + [done]
        for name, (a, b) in zip(names, zip(times, times[1:])):
            parts.setdefault(name, []).append(b - a)
        asked.append((each["session"], port))
        taken.append((each["turn"], port))
    if not asked:
        return ("  where the wait went: no arrival has every mark (a server from"
                " before the first-screen mark cannot split its wait)")
    order = [port for _, port in sorted(asked)]
    turns = [port for _, port in sorted(taken)]
    out_of_order = sum(1 for a, b in zip(order, turns) if a != b)
    labels = {"connect": "to TCP accepted", "logged in": "to logged in",
              "session": "to session opened", "turn": "App made and waiting for a start turn",
              "first screen": "start to first screen",
              "to the client": "to seen whole (sent just before the mark)"}
    return ("  where the wait went (p50 / p99 ms): " + ", ".join(
        f"{labels[name]} {pct(values, 0.5) * 1000:.0f} / {pct(values, 0.99) * 1000:.0f}"
        for name, values in parts.items())
        + f"; turns taken out of the asking order: {out_of_order} of {len(order)}")


async def serve(tables: int, data_dir: Path, profile: str | None,
                profile_clock: str = "wall") -> None:
    from fivetowers.games import game_kind
    from fivetowers.lobby.model import HostedTable, Lobby
    from fivetowers.lobby.app import lobby_factory
    from fivetowers.server.serve import GameServer, ServerConfig
    from fivetowers.tables.seats import Seat

    lobby = Lobby()  # as `fivetowers serve` makes it: hints on, strong bots
    for t in range(tables):
        code = f"AR{t:03d}"
        lobby.tables[code] = HostedTable(code, f"arrivals {t}",
                                         game_kind("fivetowers"), {"variant": "base"}, False,
                                         [Seat("", None) for _ in range(4)])
    config = ServerConfig(port=0, data_dir=data_dir, max_sessions=10_000,
                          max_sessions_per_address=10_000, max_logins=10_000,
                          max_logins_per_address=10_000, shutdown_grace=0,
                          idle_timeout=3600)
    server = GameServer(config, lobby_factory(lobby))
    await server.start()
    timeline = Timeline()
    timeline.watch(server)
    idle = IdleMeter(asyncio.get_running_loop())
    meter = StallMeter()
    ticker = asyncio.create_task(meter.run())
    profiler: Any = None
    if profile:
        import cProfile
        profiler = (cProfile.Profile(time.process_time) if profile_clock == "cpu"
                    else cProfile.Profile())
    loop = asyncio.get_running_loop()

    pending = b""

    def command() -> None:
        # One line per request: "stall" (and reset), "profile on"/"profile off".
        # Read raw: a buffered readline would keep a second line from the loop.
        nonlocal pending
        pending += os.read(sys.stdin.fileno(), 4096)
        *lines, pending = pending.split(b"\n")
        for line in lines:
            if line == b"stall":
                print("{:.4f} {:.4f} {}".format(*meter.take()), flush=True)
            elif line == b"timeline":
                print(timeline.take(idle), flush=True)
            elif line == b"profile on" and profiler is not None:
                profiler.enable()
            elif line == b"profile off" and profiler is not None:
                profiler.disable()

    loop.add_reader(sys.stdin.fileno(), command)
    print(server.port, flush=True)
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    ticker.cancel()
    await server.stop()
    if profiler is not None and profile:
        profiler.dump_stats(profile)


# -- the client side ---------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Arrival:
    def __init__(self, name: str, key: Any, last_code: str | None,
                 options: dict[str, Any]) -> None:
        self.name = name
        self.options = options
        self.key = key
        self.markers = [f"you are {name}".encode(), HELP, LAST_KEY]
        if last_code is not None:
            self.markers.append(last_code.encode())
        self.conn: Any = None
        self.port = 0
        """The client's own port: the server's marks of it are keyed on it."""
        self.t0 = self.done = 0.0

    def full(self, raw: bytes) -> bool:
        at = raw.find(ALT_SCREEN)
        if at < 0:
            return False
        text = ESCAPES.sub(b"", raw[at:])
        return all(marker in text for marker in self.markers)

    async def arrive(self, port: int) -> float:
        import asyncssh

        self.t0 = t0 = time.monotonic()
        self.conn = await asyncssh.connect("127.0.0.1", port, username=self.name,
                                           known_hosts=None, client_keys=[self.key],
                                           agent_path=None, **self.options)
        self.port = int(self.conn.get_extra_info("sockname")[1])
        process = await self.conn.create_process(term_type="xterm-256color",
                                                 term_size=(80, 24), encoding=None)
        raw = b""
        while True:
            data = await process.stdout.read(65536)
            if not data:
                raise RuntimeError(f"{self.name}: the server closed before the lobby")
            raw += data
            if self.full(raw):
                self.done = time.monotonic()
                return self.done - t0

    def leave(self) -> None:
        if self.conn is not None:
            self.conn.close()


async def wave(port: int, server: asyncio.subprocess.Process, n: int, tables: int,
               wave_no: int, options: dict[str, Any]) -> None:
    import asyncssh

    assert server.stdin is not None and server.stdout is not None
    last_code = f"AR{tables - 1:03d}" if tables else None
    arrivals = [Arrival(f"p{wave_no}x{i}", asyncssh.generate_private_key("ssh-ed25519"),
                        last_code, options) for i in range(n)]
    await asyncio.sleep(0.3)
    server.stdin.write(b"stall\n")
    await server.stdin.drain()
    await server.stdout.readline()  # reset the stall meter
    server.stdin.write(b"profile on\n")
    cpu0, mine0, rss0 = cpu_seconds(server.pid), time.process_time(), rss_mib(server.pid)
    waits = await asyncio.gather(*(a.arrive(port) for a in arrivals))
    await asyncio.sleep(0.5)  # the last frames' tail (timers, a second frame)
    cpu1, mine1, rss1 = cpu_seconds(server.pid), time.process_time(), rss_mib(server.pid)
    server.stdin.write(b"profile off\nstall\n")
    await server.stdin.drain()
    stall_text, collecting_text, generations = (await server.stdout.readline()).decode().split()
    stall, collecting = float(stall_text), float(collecting_text)
    server.stdin.write(b"timeline\n")
    await server.stdin.drain()
    taken = json.loads(await server.stdout.readline())
    marks = taken["marks"]
    print(f"{n:3d} arriving: first full lobby p50 {pct(waits, 0.5) * 1000:6.0f} ms  "
          f"p99 {pct(waits, 0.99) * 1000:6.0f} ms  max {max(waits) * 1000:6.0f} ms  "
          f"(goal p99 <= 1500 ms: {pct(waits, 0.99) / 1.5:.2f}x)  "
          f"server CPU {(cpu1 - cpu0) / n * 1000:5.0f} ms/session  "
          f"longest loop stall {stall * 1000:4.0f} ms  "
          f"server RSS {rss1:.0f} MiB (+{(rss1 - rss0) / n:.2f} MiB/session)  "
          f"garbage collection (CPU) {collecting / n * 1000:4.1f} ms/session "
          f"(generations 0,1,2: collections:ms {generations})  "
          f"clients' CPU {(mine1 - mine0) / n * 1000:4.0f} ms/session", flush=True)
    print(where_the_wait_went(marks, {a.port: (a.t0, a.done) for a in arrivals}), flush=True)
    print(f"  server loop idle (waiting for input, nothing to run) from the first connection"
          f" to the last first screen: {taken['idle'] * 1000:.0f} ms of"
          f" {taken['span'] * 1000:.0f} ms", flush=True)
    for a in arrivals:
        a.leave()
    await asyncio.sleep(3.0)  # the server closes them (and collects) before the next wave


async def run(counts: list[int], tables: int, profile: str | None,
              cipher: str | None, profile_clock: str = "wall") -> int:
    options: dict[str, Any] = {"encryption_algs": [cipher]} if cipher else {}
    data_dir = tempfile.mkdtemp(prefix="fivetowers-arrivals-")
    env = dict(os.environ, TEXTUAL_DISABLE_KITTY_KEY="1")
    args = [sys.executable, __file__, "--serve", "--tables", str(tables),
            "--data-dir", data_dir]
    if profile:
        args += ["--profile", profile, "--profile-clock", profile_clock]
    server = await asyncio.create_subprocess_exec(
        *args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env)
    assert server.stdout is not None
    port = int((await server.stdout.readline()).decode())
    print(f"server pid {server.pid}, {tables} tables listed, 80x24 clients, "
          f"{os.cpu_count()} cores", flush=True)
    try:
        # One session first: imports and first-use caches are not a start's cost.
        await wave(port, server, 1, tables, 0, options)
        print("  (the line above warmed the server up)")
        for i, n in enumerate(counts, 1):
            await wave(port, server, n, tables, i, options)
    finally:
        server.send_signal(signal.SIGTERM)
        await server.wait()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arrivals", type=int, nargs="+", default=[1, 20, 50])
    parser.add_argument("--tables", type=int, default=10, help="forming tables listed")
    parser.add_argument("--profile", default=None, help="server cProfile stats file")
    parser.add_argument("--profile-clock", choices=("wall", "cpu"), default="wall",
                        help="what the profile's times are: wall clock or the "
                             "server's CPU time")
    parser.add_argument("--cipher", default=None,
                        help="the clients' only cipher (default: asyncssh's list, "
                             "chacha20-poly1305 first, as OpenSSH's)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.tables, Path(args.data_dir), args.profile,
                          args.profile_clock))
        return 0
    if any(n < 1 for n in args.arrivals) or args.tables < 0:
        print("bench_arrivals: --arrivals must be positive and --tables at least 0",
              file=sys.stderr)
        return 2
    return asyncio.run(run(args.arrivals, args.tables, args.profile, args.cipher,
                           args.profile_clock))


if __name__ == "__main__":
    sys.exit(main())
