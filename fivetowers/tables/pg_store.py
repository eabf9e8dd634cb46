"""The :class:`~fivetowers.tables.store.Store` over PostgreSQL (psycopg 3).

The same guarantees as the SQLite store: a write has been committed, and
with PostgreSQL's default ``synchronous_commit = on`` flushed to its WAL on
disk, when the call returns, so an action is durable before any screen
shows it (the server still calls through
:class:`~fivetowers.tables.store_writer.StoreWriter`: the round trip waits).
Appending an action locks its game's row and checks the action's number
against the actions stored, so a second writer's stale action is refused
(:class:`StoreConflict`), never kept twice or lost.

One connection, guarded by a lock, so any thread may call. An idle
connection found dead by a transaction's BEGIN (the database restarted
meanwhile) is replaced and the transaction begun on the fresh one, so the
first write after a restart is kept. A connection that breaks later in a
transaction (or a database still away) fails that call with
:class:`StoreUnavailable`, nothing written; the next call connects again,
so play resumes by itself once the database is back.

The URL is libpq's (``postgresql://user:password@host:port/database``,
any ``?key=value`` parameters libpq knows); messages name the database
without its password.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict
from contextlib import ExitStack, contextmanager
from typing import Any, Callable, Iterator, Mapping, NoReturn, Sequence

import psycopg
from psycopg import conninfo, errors

from fivetowers.tables.pg_schema import (
    APPLICATION, LOCK_CLASS, MARKER, MIGRATION_LOCK, SCHEMA_VERSION, SERVER_LOCK,
    TABLE_LOCK_CLASS, TABLES, Connection, migrate, write_result,
)
from fivetowers.tables.sqlite_schema import compact
from fivetowers.tables.store import (
    PendingAction, Rating, StaleAction, StoreBusy, StoreConflict, StoredSeat, StoredTable,
    StoreError, StoreMissing, StoreUnavailable, StoreUnreadable, StoreVersionError, TableInfo,
    UnknownTable, is_local,
)
from fivetowers.tables import store_rows
from fivetowers.tables.store_rows import (
    GAME_COLUMNS, actions_of, grown_setup, info_of, seats_by_game, stored_of,
)

log = logging.getLogger("fivetowers.store")
CHANNEL = "fivetowers"
"""The LISTEN/NOTIFY channel servers sharing a store tell each other on
(``move:<table>:<index>``, ``tables``, ``chat:<table>:<json>``)."""
CONNECT_TIMEOUT = 5
"""Seconds to wait for the database when connecting, unless the URL says."""


def describe(url: str) -> str:
    """The database a URL names, for messages: never its password."""
    try:
        parts = conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "a PostgreSQL database (its URL does not parse)"
    host = str(parts.get("host") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    user = f"{parts['user']}@" if parts.get("user") else ""
    return f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}"


def _one_line(exc: BaseException) -> str:
    """libpq's messages span lines (a hint, the server's address): one line."""
    return " ".join(str(exc).split()) or type(exc).__name__


class PgStore:
    """A fivetowers store in a PostgreSQL database (see :class:`Store` for the methods)."""

    def __init__(self, url: str, *, create: bool = True, durable: bool = True,
                 exclusive: bool = False, shared: bool = False,
                 clock: Callable[[], float] = time.time) -> None:
        if exclusive and shared:
            raise ValueError("a store is opened exclusive or shared, not both")
        self.url = url
        self.where = describe(url)
        self._durable = durable
        self._exclusive = exclusive
        self.shared = shared
        """Opened by one of several servers sharing the database: each drives
        the tables it holds the lease of (see :meth:`unfinished_tables`)."""
        self._leases: set[int] = set()
        self._clock = clock
        self._lock = threading.RLock()
        self._conn: Connection | None = None
        try:
            parts = conninfo.conninfo_to_dict(url)
        except psycopg.Error as exc:
            raise StoreError(f"{self.where}: {_one_line(exc)}") from None
        parts.setdefault("connect_timeout", CONNECT_TIMEOUT)
        if shared:
            # A server whose machine vanishes holds its leases until its
            # connection is known dead: keepalives tell within 5 + 3 s.
            for key, value in (("keepalives", 1), ("keepalives_idle", 5),
                               ("keepalives_interval", 1), ("keepalives_count", 3)):
                parts.setdefault(key, value)
        self._conninfo = conninfo.make_conninfo("", **parts)
        conn = self._connect()
        try:
            self._open(conn, create)
        except BaseException:
            self.close()
            raise

    # -- connecting --------------------------------------------------------------
    def _connect(self) -> Connection:
        try:
            conn = psycopg.connect(self._conninfo, autocommit=True)
        except psycopg.Error as exc:
            raise StoreUnavailable(f"cannot reach the store {self.where}: "
                                   f"{_one_line(exc)}") from None
        try:
            if not self._durable:  # tests and benchmarks only
                conn.execute("SET synchronous_commit = off")
            if self._exclusive:
                held = conn.execute("SELECT pg_try_advisory_lock(%s, %s)",
                                    (LOCK_CLASS, SERVER_LOCK)).fetchone()
                if not held or not held[0]:
                    raise StoreBusy(f"another fivetowers server is using the store {self.where}")
            if self._leases:  # connected again: the leases went with the old session
                lost = [table_id for table_id in sorted(self._leases) if not self._lease(
                    conn, "pg_try_advisory_lock", table_id)]
                for table_id in lost:
                    self._leases.discard(table_id)
                    log.error("table %d was taken over by another server while the store "
                              "was unreachable: both may drive it now (stale moves are "
                              "refused)", table_id)
        except BaseException as exc:
            conn.close()
            if isinstance(exc, psycopg.Error):
                raise StoreUnavailable(f"the store {self.where} failed: "
                                       f"{_one_line(exc)}") from None
            raise
        self._conn = conn
        return conn

    @staticmethod
    def _lease(conn: Connection, function: str, table_id: int) -> bool:
        row = conn.execute(f"SELECT {function}(%s, %s)",
                           (TABLE_LOCK_CLASS, table_id)).fetchone()
        return bool(row and row[0] is not False)

    def orphans(self) -> int:
        """How many unfinished tables no server holds the lease of (a cheap
        look before :meth:`unfinished_tables` takes them)."""
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT count(*) FROM games g WHERE finished IS NULL AND NOT EXISTS "
                "(SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' "
                "AND l.classid = %s::oid AND l.objid = g.id::oid AND l.objsubid = 2)",
                (TABLE_LOCK_CLASS,)).fetchone()
        return int(row[0]) if row else 0

    @property
    def leases(self) -> frozenset[int]:
        """The tables this server drives (a shared store's; empty otherwise)."""
        return frozenset(self._leases)

    def _open(self, conn: Connection, create: bool) -> None:
        """Check the database is a fivetowers store this version can use,
        creating or migrating it; one-line errors otherwise."""
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_CLASS, MIGRATION_LOCK))
                tables = {name for (name,) in conn.execute(
                    "SELECT tablename FROM pg_catalog.pg_tables "
                    "WHERE schemaname = current_schema()")}
                if MARKER not in tables:
                    if tables:
                        raise StoreUnreadable(
                            f"the database {self.where} holds other tables and is not a "
                            "fivetowers store: give fivetowers a database of its own")
                    if not create:
                        raise StoreMissing(f"no store in {self.where}: no game has been "
                                           "kept there yet")
                    migrate(conn, 0, SCHEMA_VERSION)
                    return
                row = conn.execute(f"SELECT application, version FROM {MARKER}").fetchone()
                if row is None or row[0] != APPLICATION:
                    raise StoreUnreadable(f"the database {self.where} is not a fivetowers store")
                version = int(row[1])
                if version > SCHEMA_VERSION:
                    raise StoreVersionError(
                        f"{self.where} has store schema version {version}, newer than this "
                        f"fivetowers understands ({SCHEMA_VERSION}): upgrade fivetowers to "
                        "use it")
                if not TABLES.get(version, set()) <= tables:
                    raise StoreUnreadable(f"the store {self.where} has lost some of its "
                                          "tables: restore it from a backup")
                if version < SCHEMA_VERSION:
                    migrate(conn, version, SCHEMA_VERSION)
        except psycopg.Error as exc:
            raise StoreUnreadable(f"cannot use the store {self.where}: "
                                  f"{_one_line(exc)}") from None

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """One transaction under the lock, connecting again if the last
        connection broke; a database failure becomes a
        :class:`StoreUnavailable`, with nothing written."""
        with self._lock:
            conn, transaction = self._begin()
            try:
                with transaction:  # commits, or rolls back on the way out
                    yield conn
            except psycopg.Error as exc:
                if conn.broken or isinstance(exc, psycopg.OperationalError):
                    self._drop(conn)
                raise StoreUnavailable(f"the store {self.where} failed: "
                                       f"{_one_line(exc)}") from None

    def _begin(self) -> tuple[Connection, ExitStack]:
        """A connection and its transaction, begun (BEGIN answered). An idle
        connection is found dead only when used (the database restarted
        meanwhile): a BEGIN it fails has sent nothing of the transaction,
        so it begins again on a fresh connection and the caller's write is
        kept at once instead of refused. Only BEGIN is retried: a failure
        after it is the caller's :class:`StoreUnavailable`, never replayed."""
        conn = self._conn
        if conn is not None and (conn.closed or conn.broken):
            self._drop(conn)
            conn = None
        fresh = conn is None
        if conn is None:
            conn = self._connect()
        transaction = ExitStack()
        try:
            transaction.enter_context(conn.transaction())
        except psycopg.Error as exc:
            self._drop(conn)
            if fresh:  # a connection just made that cannot begin: the database fails
                raise StoreUnavailable(f"the store {self.where} failed: "
                                       f"{_one_line(exc)}") from None
            log.info("the store's idle connection to %s was dead (%s): connecting again",
                     self.where, _one_line(exc))
            return self._begin()
        return conn, transaction

    def _drop(self, conn: Connection) -> None:
        conn.close()
        if self._conn is conn:
            self._conn = None

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A transaction of one's own (``fivetowers migrate`` copies in one)."""
        with self._transaction() as conn:
            yield conn

    # -- writing -----------------------------------------------------------------
    def create_table(self, *, code: str, name: str, kind: str, setup: Mapping[str, Any],
                     seats: Sequence[StoredSeat], actions: Sequence[Mapping[str, Any]] = (),
                     private: bool = False) -> int:
        store_rows.check_new_table(kind, seats)
        with self._transaction() as conn:
            try:
                with conn.transaction():
                    row = conn.execute(
                        "INSERT INTO games (code, name, kind, private, setup, created, kept) "
                        "VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
                        (code, name, kind, private, compact(dict(setup)),
                         self._clock(), len(actions))).fetchone()
            except errors.UniqueViolation:
                raise StoreConflict(f"the join code {code!r} belongs to a live table") from None
            assert row is not None
            table_id = int(row[0])
            if self.shared:
                # Leased before the commit makes the table visible: no other
                # server's look for unleased tables can take it first.
                self._lease(conn, "pg_advisory_lock", table_id)
                self._leases.add(table_id)
                conn.execute("SELECT pg_notify(%s, 'tables')", (CHANNEL,))
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO seats (game, seat, name, fingerprint, bot) "
                    "VALUES (%s, %s, %s, %s, %s)",
                    [(table_id, i, s.name, s.fingerprint, s.bot) for i, s in enumerate(seats)])
                cursor.executemany(
                    "INSERT INTO actions (game, idx, body) VALUES (%s, %s, %s)",
                    [(table_id, i, compact(dict(a))) for i, a in enumerate(actions)])
        return table_id

    def append_action(self, table_id: int, index: int, action: Mapping[str, Any],
                      setup: Mapping[str, Any] | None = None) -> None:
        with self._transaction() as conn:
            self._append(conn, PendingAction(table_id, index, action, setup))

    def append_actions(self, batch: Sequence[PendingAction]) -> list[StoreError | None]:
        results: list[StoreError | None] = []
        with self._transaction() as conn:
            for item in batch:
                # No savepoint needed: _append refuses before it writes.
                try:
                    self._append(conn, item)
                except StoreError as exc:
                    results.append(exc)
                else:
                    results.append(None)
        return results

    def _append(self, conn: Connection, item: PendingAction) -> None:
        """Keep one action, or refuse it having written nothing."""
        table_id, index = item.table_id, item.index
        body = compact(dict(item.action))
        if item.setup is None:
            # One round trip. The UPDATE locks the game's row, and after
            # waiting for another server's append to the same table it
            # checks ``kept`` against that append's result: appends to one
            # table take turns, and a stale one finds no row.
            done = conn.execute(
                "WITH game AS (UPDATE games SET kept = kept + 1 "
                "WHERE id = %s AND finished IS NULL AND kept = %s RETURNING id) "
                "INSERT INTO actions (game, idx, body) SELECT id, %s, %s FROM game "
                "RETURNING idx", (table_id, index, index, body)).fetchone()
            if done is None:
                self._refusal(conn, table_id, index)
            self._moved(conn, table_id, index)
            return
        # A setup to check (an action that revealed a reshuffle): lock first.
        row = conn.execute("SELECT finished, setup, kept FROM games WHERE id = %s FOR UPDATE",
                           (table_id,)).fetchone()
        if row is None or row[0] is not None or row[2] != index:
            self._refusal(conn, table_id, index)
        text = grown_setup(table_id, row[1], item.setup)
        conn.execute("UPDATE games SET kept = kept + 1, setup = COALESCE(%s, setup) "
                     "WHERE id = %s", (text, table_id))
        conn.execute("INSERT INTO actions (game, idx, body) VALUES (%s, %s, %s)",
                     (table_id, index, body))
        self._moved(conn, table_id, index)

    def _moved(self, conn: Connection, table_id: int, index: int) -> None:
        """Tell the other servers sharing the store (PostgreSQL delivers a
        notification at commit only: nobody hears of an action not kept)."""
        if self.shared:
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"move:{table_id}:{index}"))

    def announce(self, payload: str) -> None:
        """Tell every server listening on :data:`CHANNEL` (a chat line, a
        table come or gone)."""
        with self._transaction() as conn:
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))

    @staticmethod
    def _refusal(conn: Connection, table_id: int, index: int) -> NoReturn:
        """Why an action was not kept."""
        row = conn.execute("SELECT finished, kept FROM games WHERE id = %s",
                           (table_id,)).fetchone()
        if row is None:
            raise UnknownTable(f"no table {table_id} in the store")
        if row[0] is not None:
            raise StoreConflict(f"table {table_id} is finished: no more actions")
        raise StaleAction(f"action {index} of table {table_id} is out of order: "
                            f"the store holds {row[1]} actions")

    def finish_table(self, table_id: int, scores: Sequence[int],
                     winners: Sequence[int]) -> bool:
        with self._transaction() as conn:
            row = conn.execute("SELECT finished, (SELECT count(*) FROM seats WHERE game = %s) "
                               "FROM games WHERE id = %s FOR UPDATE",
                               (table_id, table_id)).fetchone()
            if not store_rows.may_finish(row, table_id, scores):
                return False
            write_result(conn, table_id, list(scores), list(winners), self._clock())
        return True

    def abandon_table(self, table_id: int) -> bool:
        with self._transaction() as conn:
            return store_rows.abandon(conn, "%s", table_id, self._clock())

    # -- reading -----------------------------------------------------------------
    def unfinished_tables(self) -> list[StoredTable]:
        """Every unfinished table; a shared store's: only those whose lease
        it has just taken (nobody held it: their server died, or never was),
        so each call hands out tables for this server to drive from now on."""
        with self._transaction() as conn:
            if self.shared:
                # MATERIALIZED: the lock is tried on unfinished, unheld tables only.
                taken = [int(i) for (i,) in conn.execute(
                    "WITH free AS MATERIALIZED (SELECT id FROM games "
                    "WHERE finished IS NULL AND NOT id = ANY(%s) ORDER BY id) "
                    "SELECT id FROM free WHERE pg_try_advisory_lock(%s, id::integer)",
                    (sorted(self._leases), TABLE_LOCK_CLASS))]
                self._leases.update(taken)
            # The seats and actions of exactly the games listed: a game
            # created meanwhile is not half-read.
            games = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE finished IS NULL "
                                 f"{'AND id = ANY(%s) ' if self.shared else ''}ORDER BY id",
                                 (taken,) if self.shared else ()).fetchall()
            ids = [g[0] for g in games]
            seats = self._seats(conn, "SELECT game, seat, name, fingerprint, bot FROM seats "
                                      "WHERE game = ANY(%s) ORDER BY game, seat", (ids,))
            bodies: dict[int, list[str]] = defaultdict(list)
            for game_id, body in conn.execute(
                    "SELECT game, body FROM actions WHERE game = ANY(%s) ORDER BY game, idx",
                    (ids,)):
                bodies[game_id].append(body)
        return [stored_of(row, seats[row[0]], actions_of(row[0], bodies[row[0]], self.where),
                          self.where) for row in games]

    def load_table(self, table_id: int) -> StoredTable:
        with self._transaction() as conn:
            row, seats, bodies = store_rows.read_table(conn, "%s", table_id, self.where)
        return stored_of(row, seats, actions_of(table_id, bodies, self.where), self.where)

    def live_tables(self) -> list[TableInfo]:
        """Every unfinished table of every server sharing the store (the
        lobby lists them all); local games excluded."""
        with self._transaction() as conn:
            games = conn.execute(f"SELECT {GAME_COLUMNS}, kept FROM games "
                                 "WHERE finished IS NULL ORDER BY id").fetchall()
            seats = self._seats(conn, "SELECT game, seat, name, fingerprint, bot FROM seats "
                                      "WHERE game = ANY(%s) ORDER BY game, seat",
                                ([g[0] for g in games],))
        return [info_of(g[:-1], seats[g[0]], g[-1]) for g in games if not is_local(g[1])]

    def games_of(self, fingerprint: str, limit: int = 50) -> list[TableInfo]:
        with self._transaction() as conn:
            games = conn.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE id IN "
                "(SELECT game FROM seats WHERE fingerprint = %s) "
                "ORDER BY created DESC, id DESC LIMIT %s", (fingerprint, limit)).fetchall()
            ids = [g[0] for g in games]
            seats = self._seats(conn, "SELECT game, seat, name, fingerprint, bot FROM seats "
                                      "WHERE game = ANY(%s) ORDER BY game, seat", (ids,))
            counts = dict(conn.execute("SELECT id, kept FROM games WHERE id = ANY(%s)",
                                       (ids,)).fetchall())
        return [info_of(g, seats[g[0]], counts.get(g[0], 0)) for g in games]

    def leaderboard(self, limit: int = 20, kind: str | None = None) -> list[Rating]:
        with self._transaction() as conn:
            return store_rows.leaderboard(conn, "%s", limit, kind)

    def preference(self, identity: str, name: str) -> str | None:
        with self._transaction() as conn:
            return store_rows.preference(conn, "%s", identity, name)

    def set_preference(self, identity: str, name: str, value: str) -> None:
        with self._transaction() as conn:
            store_rows.set_preference(conn, "%s", identity, name, value)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                try:
                    # The locks would go with the session too, but only once the
                    # server notices it ended, a moment after the close: another
                    # server looking for orphans then would miss them.
                    self._conn.execute("SELECT pg_advisory_unlock_all()")
                except psycopg.Error:
                    pass  # the connection is gone, and its session with it
                self._conn.close()
                self._conn = None
                self._leases.clear()

    def __enter__(self) -> PgStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @staticmethod
    def _seats(conn: Connection, query: str,
               params: Sequence[Any] = ()) -> dict[int, list[StoredSeat]]:
        return seats_by_game(conn.execute(query, params))
