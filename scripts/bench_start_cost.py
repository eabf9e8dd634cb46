"""Server CPU per session start, per input flood and per refused reconnect.

    python scripts/bench_start_cost.py [--starts 20] [--floods 6] [--refusals 40]
    python scripts/bench_start_cost.py --calls      # also Python calls (load-free)

Wall-clock latencies on a shared machine say more about the neighbours than
about the server; the CPU the server process itself spends on one thing does
not (much). A real server (the lobby as ``fivetowers serve`` runs it, hints
on, 10 forming tables listed) runs in a subprocess that reports its own
``time.process_time()`` when asked; this process connects SSH clients one
at a time and charges the server's CPU between two questions to:

* **login only**: an ed25519 client's TCP connect, key exchange and login,
  then it closes the connection (the SSH share of a session start);
* **session start**: the same client from TCP connect to its first full
  lobby screen (80x24) and 0.3 s of settling; then **session end**: the
  client leaves, until the server has let go (one other player stays on
  the lobby throughout, so no end is the last one);
* **flood**: a session on its lobby sends 1 MiB of ``x`` as fast as the
  server reads it, until the server disconnects it (its start not counted);
* **refused reconnect**: the flooder's address (each flood comes from a
  loopback address of its own, so each is a first flood) connects again
  while it may not: TCP connect to the server's refusal.

Each figure is the median over its repetitions, with the mean beside it.
``--calls`` profiles the server (cProfile, per item) and prints, per item,
how many Python function calls it made: its CPU figures are then inflated,
but the call counts are the same on a quiet machine and a busy one, so
before/after ratios of them are not noise. The profiles are kept (their
directory is printed) for ``python -m pstats``; their clock counts calls and
returns (a "second" is a million of them), so where a start's work goes
reads the same on any machine.
``--compare FILE`` prints ratios to an earlier run's ``--json FILE``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncssh  # noqa: E402

FLOOD = b"x" * (1024 * 1024)
LOBBY_MARKERS = (b"you are", b"join CODE", b"leave", b"BC009")
RESIDENT = 1
"""Sessions that stay on the lobby while the others come and go."""


# -- the server side ---------------------------------------------------------
async def serve(data_dir: Path, profiles: Path | None) -> None:
    from fivetowers.games import game_kind
    from fivetowers.lobby.app import lobby_factory
    from fivetowers.lobby.model import HostedTable, Lobby
    from fivetowers.server.serve import GameServer, ServerConfig
    from fivetowers.tables.seats import Seat

    lobby = Lobby()  # as `fivetowers serve` makes it: hints on, strong bots
    for t in range(10):
        code = f"BC{t:03d}"
        lobby.tables[code] = HostedTable(code, f"bench {t}", game_kind("fivetowers"),
                                         {"variant": "base"}, False,
                                         [Seat("", None) for _ in range(4)])
    server = GameServer(ServerConfig(port=0, data_dir=data_dir, shutdown_grace=0,
                                     max_logins_per_address=64), lobby_factory(lobby))
    await server.start()
    profilers: dict[str, Any] = {}
    profiling: Any = None

    loop = asyncio.get_running_loop()
    pending = b""

    def command() -> None:
        # "cpu": the process's CPU seconds and live sessions; "item NAME" and
        # "item -": profile what follows as NAME's (with --calls), or stop.
        nonlocal pending, profiling
        pending += os.read(sys.stdin.fileno(), 4096)
        *lines, pending = pending.split(b"\n")
        for line in lines:
            if line == b"cpu":
                print(f"{time.process_time():.6f} {len(server.sessions)}", flush=True)
            elif line.startswith(b"item ") and profiles is not None:
                if profiling is not None:
                    profiling.disable()
                    profiling = None
                name = line[5:].decode()
                if name != "-":
                    import cProfile
                    import itertools
                    # Its clock counts calls and returns: cumulative "times"
                    # in pstats are then the same on a busy machine.
                    ticks = itertools.count()
                    profiling = profilers.setdefault(
                        name, cProfile.Profile(lambda: next(ticks), 1e-6))
                    profiling.enable()

    loop.add_reader(sys.stdin.fileno(), command)
    print(server.port, flush=True)
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await server.stop()
    for name, profiler in profilers.items():
        assert profiles is not None
        profiler.dump_stats(profiles / f"{name.replace(' ', '_')}.prof")


# -- the client side ---------------------------------------------------------
class Server:
    def __init__(self, process: asyncio.subprocess.Process, port: int) -> None:
        self.process = process
        self.port = port

    async def tell(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()

    async def ask(self) -> tuple[float, int]:
        assert self.process.stdout is not None
        await self.tell("cpu")
        cpu, sessions = (await self.process.stdout.readline()).decode().split()
        return float(cpu), int(sessions)

    async def quiet(self, sessions: int) -> float:
        """Wait until ``sessions`` are live and the server idles; its CPU seconds."""
        for _ in range(300):
            cpu0, live = await self.ask()
            await asyncio.sleep(0.1)
            cpu1, _ = await self.ask()
            if live == sessions and cpu1 - cpu0 < 0.003:
                return cpu1
        raise RuntimeError(f"the server never went quiet ({live} sessions, "
                           f"{(cpu1 - cpu0) * 1000:.1f} ms in 0.1 s)")


class Costs:
    def __init__(self, server: Server, counted: bool = True) -> None:
        self.server = server
        self.counted = counted
        """False for a warm-up: not profiled."""
        self.cpu: dict[str, list[float]] = {}
        self._item = ""
        self._before = 0.0

    async def begin(self, what: str, sessions: int) -> None:
        self._item, self._before = what, await self.server.quiet(sessions)
        if self.counted:
            await self.server.tell(f"item {what}")

    async def end(self, sessions: int) -> None:
        after = await self.server.quiet(sessions)
        if self.counted:
            await self.server.tell("item -")
        self.cpu.setdefault(self._item, []).append(after - self._before)

    def figures(self, profiles: Path | None) -> dict[str, dict[str, float]]:
        figures = {}
        for what, cpu in self.cpu.items():
            figures[what] = {"cpu_ms": statistics.median(cpu) * 1000,
                             "cpu_ms_mean": statistics.mean(cpu) * 1000, "n": len(cpu)}
            if profiles is not None:
                import pstats
                stats = pstats.Stats(str(profiles / f"{what.replace(' ', '_')}.prof"))
                figures[what]["calls"] = stats.total_calls / len(cpu)  # type: ignore[attr-defined]
        return figures


async def connect(port: int, name: str, key: asyncssh.SSHKey, address: str
                  ) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  client_keys=[key], agent_path=None,
                                  local_addr=(address, 0))


async def to_lobby(conn: asyncssh.SSHClientConnection
                   ) -> asyncssh.SSHClientProcess[bytes]:
    process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24),
                                        encoding=None)
    seen = b""
    wanted = set(LOBBY_MARKERS)
    while wanted:
        data = await asyncio.wait_for(process.stdout.read(65536), 30)
        if not data:
            raise RuntimeError("the server closed before the lobby showed")
        seen = seen[-64:] + data
        wanted = {m for m in wanted if m not in seen}
    return process


async def drain(process: asyncssh.SSHClientProcess[bytes]) -> None:
    while await process.stdout.read(65536):
        pass


async def starts(server: Server, costs: Costs, n: int) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    for i in range(n):
        await costs.begin("login only", RESIDENT)
        conn = await connect(server.port, f"start{i}", key, "127.0.0.1")
        conn.close()
        await conn.wait_closed()
        await costs.end(RESIDENT)
        await costs.begin("session start", RESIDENT)
        conn = await connect(server.port, f"start{i}", key, "127.0.0.1")
        await to_lobby(conn)
        await asyncio.sleep(0.3)
        await costs.end(RESIDENT + 1)
        await costs.begin("session end", RESIDENT + 1)
        conn.close()
        await conn.wait_closed()
        await costs.end(RESIDENT)


async def floods(server: Server, costs: Costs, n: int, refusals: int) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    per_flood = max(1, refusals // max(n, 1))
    for i in range(n):
        address = f"127.0.{1 + i // 200}.{2 + i % 200}"  # a first flood each time
        conn = await connect(server.port, f"flood{i}", key, address)
        process = await to_lobby(conn)
        reading = asyncio.create_task(drain(process))
        await costs.begin("flood", RESIDENT + 1)
        process.stdin.write(FLOOD)
        try:
            await asyncio.wait_for(process.wait_closed(), 60)
        except (asyncio.TimeoutError, OSError, asyncssh.Error):
            pass
        reading.cancel()
        conn.close()
        await conn.wait_closed()
        await costs.end(RESIDENT)
        for _ in range(per_flood):
            await costs.begin("refused reconnect", RESIDENT)
            try:
                again = await connect(server.port, f"flood{i}", key, address)
                again.close()
                raise RuntimeError("a flooder's address was let in again at once")
            except (OSError, asyncssh.Error):
                pass
            await costs.end(RESIDENT)


async def run(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    data_dir = tempfile.mkdtemp(prefix="fivetowers-startcost-")
    command = [sys.executable, __file__, "--serve", "--data-dir", data_dir]
    profiles = Path(tempfile.mkdtemp(prefix="fivetowers-startcost-prof-")) if args.calls \
        else None
    if profiles is not None:
        command += ["--profiles", str(profiles)]
    env = dict(os.environ, TEXTUAL_DISABLE_KITTY_KEY="1")
    process = await asyncio.create_subprocess_exec(
        *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env)
    assert process.stdout is not None
    server = Server(process, int((await process.stdout.readline()).decode()))
    costs = Costs(server)
    # One player stays on the lobby throughout: a server with nobody left
    # runs a full garbage collection when the last session ends, which is
    # not what one session's end costs a server in use.
    resident = await connect(server.port, "resident", asyncssh.generate_private_key(
        "ssh-ed25519"), "127.0.0.1")
    try:
        await to_lobby(resident)
        await starts(server, Costs(server, counted=False), 2)  # warm up: imports and first-use caches
        await starts(server, costs, args.starts)
        await floods(server, costs, args.floods, args.refusals)
    finally:
        resident.close()
        process.send_signal(signal.SIGTERM)
        await process.wait()
    if profiles is not None:
        print(f"the server's profiles, one per item: {profiles}")
    return costs.figures(profiles)


def report(figures: dict[str, dict[str, float]], calls: bool,
           earlier: dict[str, dict[str, float]] | None) -> None:
    print(f"server CPU per item (median of n; {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f})")
    for what, f in figures.items():
        line = f"  {what:18s} {f['cpu_ms']:7.1f} ms (mean {f['cpu_ms_mean']:6.1f}, n={f['n']:.0f})"
        if calls:
            line += f"  {f['calls']:9.0f} Python calls"
        if earlier and what in earlier:
            e = earlier[what]
            line += f"  CPU {f['cpu_ms'] / max(e['cpu_ms'], 1e-9):.2f}x"
            if calls and e.get("calls"):
                line += f", calls {f['calls'] / e['calls']:.2f}x"
            line += " of before"
        print(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--floods", type=int, default=6)
    parser.add_argument("--refusals", type=int, default=30, help="in all, over the floods")
    parser.add_argument("--calls", action="store_true",
                        help="count the server's Python calls (cProfile: slower CPU)")
    parser.add_argument("--json", default=None, help="write the figures here")
    parser.add_argument("--compare", default=None, help="an earlier --json: print ratios")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--profiles", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(Path(args.data_dir),
                          Path(args.profiles) if args.profiles else None))
        return 0
    figures = asyncio.run(run(args))
    earlier = json.loads(Path(args.compare).read_text()) if args.compare else None
    report(figures, args.calls, earlier)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
