"""Benchmark: a move made on one server reaches a viewer on another (issue 15's
goal: p99 <= 250 ms), two server processes sharing one PostgreSQL store.

    .venv/bin/python scripts/bench_cross_server.py                 # a throwaway PostgreSQL
    .venv/bin/python scripts/bench_cross_server.py --moves 600 --tables 20 --pace 0.02
    .venv/bin/python scripts/bench_cross_server.py --store postgresql://u:pw@host/db

Server A (a process of its own, this script with ``--drive``) opens
``--tables`` 5 Towers tables on the shared store and drives them as
``fivetowers serve`` does (a :class:`Table` whose moves are kept through a
:class:`StoreWriter`, durable, each announced on LISTEN/NOTIFY at commit);
its players make ``--moves`` random legal moves in turn over the tables,
one every ``--pace`` seconds. Server B (this process) follows every table as
a :class:`RemoteTable` on its bus, as its screens would.

Measured at the tables layer: the SSH lobby does not seat players at
another server's tables yet, so B's viewers are RemoteTables, not SSH
screens. For each move: from the key (A's ``submit``) until B's copy of the
table holds it (read from the store and replayed), p50/p99/max; split into
A's durable commit and the rest (the notification, B's read and replay).
Both processes read the same clock (CLOCK_MONOTONIC). Figures from a busy
machine vary a lot: measure on a quiet one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from load_postgres import TEMPORARY, is_postgres, postgres_url  # noqa: E402

GOAL_P99_MS = 250.0
PLAYERS = ["Anni", "Bo", "Cai"]


# -- server A: drives the tables, makes the moves ---------------------------------
async def drive(url: str, tables: int, moves: int, pace: float, seed: int) -> None:
    from fivetowers.games import game_kind
    from fivetowers.games.protocol import Match
    from fivetowers.tables.pg_bus import Bus
    from fivetowers.tables.pg_store import PgStore
    from fivetowers.tables.remote import Driving
    from fivetowers.tables.seats import Seat
    from fivetowers.tables.store import StoredSeat
    from fivetowers.tables.store_writer import StoreWriter
    from fivetowers.tables.table import Table
    from tests.tables.random_play import random_action
    from tests.tables.test_dummy_game import keeper  # as the lobby's

    store = PgStore(url, shared=True)
    writer = StoreWriter(store)
    bus = Bus(url)
    await bus.start()
    driving = Driving(store)
    bus.listen(driving.heard)
    kind = game_kind("fivetowers")

    driven: list[tuple[int, Table[Match]]] = []
    for t in range(tables):
        game = kind.new_match(PLAYERS, {"variant": "base"}, seed + t)
        table_id = await writer.call(
            store.create_table, code=f"bench{t:03d}", name=f"bench {t}", kind=kind.name,
            setup=game.setup_json(), seats=[StoredSeat(n, f"fp-{n}") for n in PLAYERS])
        table: Table[Match] = Table(game, [Seat(n, identity=f"fp-{n}") for n in PLAYERS],
                                    kind=kind, on_action=keeper(writer, table_id))
        driving.drive(table_id, table)
        driven.append((table_id, table))
    print(json.dumps([table_id for table_id, _ in driven]), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # B follows

    rng = random.Random(seed)
    made: list[tuple[int, int, float, float]] = []  # table, action index, key, kept
    turn = 0
    while len(made) < moves and any(not table.over for _, table in driven):
        table_id, table = driven[turn % len(driven)]
        turn += 1
        if table.over:
            continue
        action = random_action(table.game, rng)  # type: ignore[arg-type]
        index = table.game.action_count()
        key = time.monotonic()
        await table.submit(table.game.to_move or 0, action)
        made.append((table_id, index, key, time.monotonic()))
        await asyncio.sleep(pace)
    print(json.dumps(made), flush=True)
    await bus.close()
    for table_id, _ in driven:
        await writer.call(store.abandon_table, table_id)
    await writer.close()


# -- server B: follows the tables, times each move's arrival -----------------------
async def follow(url: str, args: argparse.Namespace) -> dict[str, Any]:
    from fivetowers.tables.pg_bus import Bus
    from fivetowers.tables.pg_store import PgStore
    from fivetowers.tables.remote import RemoteTable

    driver = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--drive", url, "--tables", str(args.tables),
        "--moves", str(args.moves), "--pace", str(args.pace), "--seed", str(args.seed),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=ROOT)
    assert driver.stdin is not None and driver.stdout is not None
    store = PgStore(url, shared=True)
    bus = Bus(url)
    try:
        ids = json.loads(await asyncio.wait_for(driver.stdout.readline(), 120))
        await bus.start()
        seen: dict[tuple[int, int], float] = {}  # (table, action index) -> when B held it
        for table_id in ids:
            remote = await RemoteTable.load(store, table_id)

            def arrived(remote: RemoteTable = remote) -> None:
                now = time.monotonic()
                for index in range(remote.game.action_count()):
                    seen.setdefault((remote.id, index), now)
            remote.subscribe(arrived)
            bus.listen(remote.heard)
        driver.stdin.write(b"go\n")
        await driver.stdin.drain()
        line = await asyncio.wait_for(driver.stdout.readline(), 60 + args.moves * (args.pace + 1))
        made = json.loads(line)
        deadline = time.monotonic() + 5  # the last moves' way to B
        while time.monotonic() < deadline and any((t, i) not in seen for t, i, _, _ in made):
            await asyncio.sleep(0.01)
        if await asyncio.wait_for(driver.wait(), 60) != 0:
            raise RuntimeError("server A failed (see its stderr above)")
    finally:
        if driver.returncode is None:
            driver.kill()
            await driver.wait()
        await bus.close()
        store.close()
    total = [seen[t, i] - key for t, i, key, _ in made if (t, i) in seen]
    commit = [kept - key for _, _, key, kept in made]
    rest = [seen[t, i] - kept for t, i, _, kept in made if (t, i) in seen]
    return {"moves": len(made), "lost": len(made) - len(total), "total": total,
            "commit": commit, "rest": rest}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered \
        else float("nan")


def line(label: str, values: list[float]) -> str:
    return (f"{label}: p50 {pct(values, 0.5):.1f} ms, p99 {pct(values, 0.99):.1f} ms, "
            f"max {pct(values, 1.0):.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", default=TEMPORARY, metavar=f"{TEMPORARY}|URL",
                        help=f"{TEMPORARY} (default: a throwaway PostgreSQL of the script's "
                             "own) or a postgresql:// URL (an empty database)")
    parser.add_argument("--moves", type=int, default=300, help="moves measured (default 300)")
    parser.add_argument("--tables", type=int, default=10, help="tables on server A (default 10)")
    parser.add_argument("--pace", type=float, default=0.05,
                        help="seconds between two moves on A (default 0.05)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--drive", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive:
        asyncio.run(drive(args.drive, args.tables, args.moves, args.pace, args.seed))
        return 0
    if not is_postgres(args.store):
        parser.error(f"--store must be {TEMPORARY} or a postgresql:// URL")
    if not 1 <= args.moves <= 100_000 or not 1 <= args.tables <= 1000 or args.pace < 0:
        parser.error("--moves 1-100000, --tables 1-1000, --pace >= 0")
    with postgres_url(args.store) as url:
        figures = asyncio.run(follow(url, args))
    print("two server processes on one PostgreSQL; server A drives the tables, server B "
          "follows them as RemoteTables on its bus (the tables layer: the SSH lobby does not "
          "seat players across servers yet)")
    print(f"{figures['moves']} moves over {args.tables} 5 Towers tables, one every "
          f"{args.pace:g} s; not on B within 5 s: {figures['lost']}")
    print(line("key on A to B's copy (the goal's figure)", figures["total"])
          + f" (goal p99 {GOAL_P99_MS:.0f} ms, ratio "
            f"{pct(figures['total'], 0.99) / GOAL_P99_MS:.2f})")
    print(line("  of which A's durable commit", figures["commit"]))
    print(line("  of which the bus, B's read and replay", figures["rest"]))
    print("RESULT " + json.dumps({
        "moves": figures["moves"], "lost": figures["lost"],
        "p50_ms": pct(figures["total"], 0.5), "p99_ms": pct(figures["total"], 0.99),
        "commit_p99_ms": pct(figures["commit"], 0.99), "rest_p99_ms": pct(figures["rest"], 0.99),
        "layer": "tables"}), flush=True)
    return 1 if figures["lost"] else 0


if __name__ == "__main__":
    sys.exit(main())
