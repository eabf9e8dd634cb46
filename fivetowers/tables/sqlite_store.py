"""The :class:`~fivetowers.tables.store.Store` over SQLite (standard library).

WAL journal with ``synchronous=FULL``: a commit has reached the disk when
:meth:`SqliteStore.append_action` returns, so neither ``kill -9`` nor a power
cut loses an action a screen has shown; a half-written transaction is rolled
back when the store next opens, so it is never served. Every write is also
checkpointed into the main file before it returns: after a ``kill -9``
between two writes the main file alone holds every acknowledged action, so
an operator who deletes the ``-wal`` and ``-shm`` files loses nothing
(without the checkpoint, a whole store lived in its ``-wal``, and deleting it
made an empty store). A kill that falls inside a checkpoint leaves the main
file half-copied, and only its ``-wal`` mends it (as SQLite's own "how to
corrupt" page warns): scripts/stress_deleted_wal.py measures how often
deleting it then costs something.

A store file is created complete (schema and all) under a temporary name
and linked into place, so fivetowers never leaves an empty or table-less
store behind: such a file (zero bytes, or its tables lost with a deleted
``-wal``) means the games were lost outside fivetowers, and opening it is
refused with a one-line reason rather than silently starting a new store.
Before SQLite maps anything the data directory and the store's files are
checked writable (an unwritable ``-shm`` once killed the server with SIGBUS).

One connection, guarded by a lock, so any thread may call. A durable commit
waits for the disk, so the server calls the store through
:class:`~fivetowers.tables.store_writer.StoreWriter` (one thread, group
commit) rather than on its event loop: scripts/bench_store.py measures both.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import stat
import tempfile
import threading
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Callable, Iterator, Mapping, Sequence

from fivetowers.tables.sqlite_schema import (
    APPLICATION_ID, SCHEMA_VERSION, compact, migrate, write_result,
)
from fivetowers.tables.store import (
    PendingAction, Rating, StoreBusy, StoreConflict, StoredSeat, StoredTable, StoreError,
    StoreMissing, StoreUnavailable, StoreUnreadable, StoreUnwritable, StoreVersionError,
    TableInfo, UnknownTable,
)
from fivetowers.tables import store_rows
from fivetowers.tables.store_rows import (
    GAME_COLUMNS as _GAME_COLUMNS, actions_of, grown_setup, info_of as _info, seats_by_game,
    stored_of,
)

_TABLES = {1: {"games", "seats", "actions"}, 2: {"games", "seats", "actions", "ratings"},
           3: {"games", "seats", "actions", "ratings"},
           4: {"games", "seats", "actions", "ratings"},
           5: {"games", "seats", "actions", "ratings", "preferences"}}
"""The tables a store of each schema version must hold."""


class SqliteStore:
    """A fivetowers store in one SQLite file (see :class:`Store` for the methods)."""

    def __init__(self, path: Path | str, *, create: bool = True, durable: bool = True,
                 exclusive: bool = False, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.RLock()
        self._owner: IO[bytes] | None = None
        if not create and not self.path.exists():
            raise StoreMissing(f"no store at {self.path}: no game has been kept there yet")
        _check_writable(self.path)
        if exclusive:
            self._owner = _own(self.path)
        try:
            if not os.path.lexists(self.path):
                _create(self.path)
            elif _is_empty_file(self.path):
                raise StoreUnreadable(
                    f"the store {self.path} is empty (0 bytes) and holds no games: restore "
                    "it from a backup, or remove it to start a new store")
            self._conn = sqlite3.connect(self.path, isolation_level=None,
                                         check_same_thread=False, timeout=10.0)
        except sqlite3.Error as exc:
            self.close()
            raise StoreUnreadable(f"cannot open the store {self.path}: {exc}") from None
        except OSError as exc:  # creating it: a full disk, say
            self.close()
            raise StoreError(f"cannot create the store {self.path}: "
                             f"{exc.strerror or exc}") from None
        except BaseException:
            self.close()
            raise
        try:
            self._open(durable)
        except BaseException:
            self.close()
            raise

    def _open(self, durable: bool) -> None:
        conn = self._conn
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise StoreUnreadable(f"{self.path} is not a fivetowers store or is damaged "
                                  f"({exc})") from None
        if app_id == 0 and version == 0 and objects == 0:
            # Stores are created whole (see _create): this one was emptied.
            raise StoreUnreadable(_lost_tables(self.path))
        if app_id != APPLICATION_ID:
            raise StoreUnreadable(f"{self.path} is an SQLite file but not a fivetowers store")
        if version > SCHEMA_VERSION:
            raise StoreVersionError(
                f"{self.path} has store schema version {version}, newer than this "
                f"fivetowers understands ({SCHEMA_VERSION}): upgrade fivetowers to use it")
        try:
            tables = {n for (n,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise StoreUnreadable(f"{self.path} is damaged ({exc})") from None
        if not _TABLES.get(version, set()) <= tables:
            raise StoreUnreadable(_lost_tables(self.path))
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
            problems = [r for (r,) in conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                # quick_check's report spans lines ("*** in database main ***\n
                # Page 5: ..."): the message stays one line.
                detail = " ".join(" ".join(problems[:2]).replace("***", "").split())
                raise StoreUnreadable(f"{self.path} is damaged: {detail}")
            if version < SCHEMA_VERSION:
                # Foreign keys stay off while a migration rebuilds a table
                # (the pragma cannot change inside a transaction); the
                # migration checks them itself.
                conn.execute("BEGIN IMMEDIATE")
                try:
                    # Another process may have migrated while we waited for the lock.
                    now = conn.execute("PRAGMA user_version").fetchone()[0]
                    migrate(conn, now)
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
            conn.execute("PRAGMA foreign_keys = ON")
            self._checkpoint()  # the migration into the main file too
        except sqlite3.DatabaseError as exc:
            raise StoreUnreadable(f"{self.path} is damaged or unusable ({exc})") from None

    # -- transactions ----------------------------------------------------------
    @contextmanager
    def _transaction(self, write: bool) -> Iterator[sqlite3.Connection]:
        """One transaction under the lock; an SQLite failure (a full disk, an
        I/O error) becomes a :class:`StoreUnavailable`, with nothing written.
        A write is checkpointed into the main file before it returns."""
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            except sqlite3.Error as exc:
                raise StoreUnavailable(f"the store {self.path} failed: {exc}") from None
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException as exc:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                if isinstance(exc, sqlite3.Error):
                    raise StoreUnavailable(f"the store {self.path} failed: {exc}") from None
                raise
            if write:
                self._checkpoint()

    def _checkpoint(self) -> None:
        """Copy the committed WAL into the main file (and sync it).

        PASSIVE: it never waits for a reader. The commit is durable in the WAL
        already, so a failed checkpoint (a full disk) loses nothing: the
        next write's checkpoint catches up."""
        try:
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            pass

    # -- writing -----------------------------------------------------------------
    def create_table(self, *, code: str, name: str, kind: str, setup: Mapping[str, Any],
                     seats: Sequence[StoredSeat], actions: Sequence[Mapping[str, Any]] = (),
                     private: bool = False) -> int:
        store_rows.check_new_table(kind, seats)
        with self._transaction(write=True) as conn:
            try:
                cursor = conn.execute(
                    "INSERT INTO games (code, name, kind, private, setup, created) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (code, name, kind, int(private), compact(dict(setup)), self._clock()))
            except sqlite3.IntegrityError:
                raise StoreConflict(f"the join code {code!r} belongs to a live table") from None
            table_id = cursor.lastrowid
            assert table_id is not None
            conn.executemany(
                "INSERT INTO seats (game, seat, name, fingerprint, bot) VALUES (?, ?, ?, ?, ?)",
                [(table_id, i, s.name, s.fingerprint, s.bot) for i, s in enumerate(seats)])
            conn.executemany("INSERT INTO actions (game, idx, body) VALUES (?, ?, ?)",
                             [(table_id, i, compact(dict(a))) for i, a in enumerate(actions)])
        return table_id

    def append_action(self, table_id: int, index: int, action: Mapping[str, Any],
                      setup: Mapping[str, Any] | None = None) -> None:
        item = PendingAction(table_id, index, action, setup)
        with self._transaction(write=True) as conn:
            self._append(conn, item)

    def append_actions(self, batch: Sequence[PendingAction]) -> list[StoreError | None]:
        results: list[StoreError | None] = []
        with self._transaction(write=True) as conn:
            for item in batch:
                conn.execute("SAVEPOINT item")
                try:
                    self._append(conn, item)
                except StoreError as exc:
                    conn.execute("ROLLBACK TO item")
                    results.append(exc)
                else:
                    results.append(None)
                conn.execute("RELEASE item")
        return results

    def _append(self, conn: sqlite3.Connection, item: PendingAction) -> None:
        table_id, index = item.table_id, item.index
        row = conn.execute("SELECT finished, setup FROM games WHERE id = ?",
                           (table_id,)).fetchone()
        if row is None:
            raise UnknownTable(f"no table {table_id} in the store")
        if row[0] is not None:
            raise StoreConflict(f"table {table_id} is finished: no more actions")
        stored = conn.execute("SELECT COALESCE(MAX(idx) + 1, 0) FROM actions "
                              "WHERE game = ?", (table_id,)).fetchone()[0]
        if index != stored:
            raise StoreConflict(f"action {index} of table {table_id} is out of order: "
                                f"the store holds {stored} actions")
        if item.setup is not None:
            text = grown_setup(table_id, row[1], item.setup)
            if text is not None:
                conn.execute("UPDATE games SET setup = ? WHERE id = ?", (text, table_id))
        conn.execute("INSERT INTO actions (game, idx, body) VALUES (?, ?, ?)",
                     (table_id, index, compact(dict(item.action))))

    def finish_table(self, table_id: int, scores: Sequence[int],
                     winners: Sequence[int]) -> bool:
        with self._transaction(write=True) as conn:
            row = conn.execute("SELECT finished, (SELECT count(*) FROM seats WHERE game = ?) "
                               "FROM games WHERE id = ?", (table_id, table_id)).fetchone()
            if not store_rows.may_finish(row, table_id, scores):
                return False
            write_result(conn, table_id, list(scores), list(winners), self._clock())
        return True

    # -- reading -----------------------------------------------------------------
    def unfinished_tables(self) -> list[StoredTable]:
        with self._transaction(write=False) as conn:
            games = conn.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE finished IS NULL "
                                 "ORDER BY id").fetchall()
            seats = self._seats(conn, "SELECT s.game, s.seat, s.name, s.fingerprint, s.bot "
                                      "FROM seats s JOIN games g ON g.id = s.game "
                                      "WHERE g.finished IS NULL ORDER BY s.game, s.seat")
            bodies: dict[int, list[str]] = defaultdict(list)
            for game_id, body in conn.execute(
                    "SELECT a.game, a.body FROM actions a JOIN games g ON g.id = a.game "
                    "WHERE g.finished IS NULL ORDER BY a.game, a.idx"):
                bodies[game_id].append(body)
        return [self._stored(row, seats[row[0]], self._actions(row[0], bodies[row[0]]))
                for row in games]

    def load_table(self, table_id: int) -> StoredTable:
        with self._transaction(write=False) as conn:
            row, seats, bodies = store_rows.read_table(conn, "?", table_id, self.path)
        return self._stored(row, seats, self._actions(table_id, bodies))

    def games_of(self, fingerprint: str, limit: int = 50) -> list[TableInfo]:
        with self._transaction(write=False) as conn:
            games = conn.execute(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE id IN "
                "(SELECT game FROM seats WHERE fingerprint = ?) "
                "ORDER BY created DESC, id DESC LIMIT ?", (fingerprint, limit)).fetchall()
            ids = [g[0] for g in games]
            marks = ",".join("?" * len(ids))
            seats = self._seats(conn, f"SELECT game, seat, name, fingerprint, bot FROM seats "
                                      f"WHERE game IN ({marks}) ORDER BY game, seat", ids)
            counts = dict(conn.execute(f"SELECT game, count(*) FROM actions "
                                       f"WHERE game IN ({marks}) GROUP BY game", ids).fetchall())
        return [_info(g, seats[g[0]], counts.get(g[0], 0)) for g in games]

    def leaderboard(self, limit: int = 20, kind: str | None = None) -> list[Rating]:
        with self._transaction(write=False) as conn:
            return store_rows.leaderboard(conn, "?", limit, kind)

    def preference(self, identity: str, name: str) -> str | None:
        with self._transaction(write=False) as conn:
            return store_rows.preference(conn, "?", identity, name)

    def set_preference(self, identity: str, name: str, value: str) -> None:
        with self._transaction(write=True) as conn:
            store_rows.set_preference(conn, "?", identity, name, value)

    def close(self) -> None:
        with self._lock:
            if getattr(self, "_conn", None) is not None:
                self._conn.close()
            if self._owner is not None:
                self._owner.close()  # releases the lock
                self._owner = None

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- helpers -----------------------------------------------------------------
    @staticmethod
    def _seats(conn: sqlite3.Connection, query: str,
               params: Sequence[Any] = ()) -> dict[int, list[StoredSeat]]:
        return seats_by_game(conn.execute(query, params))

    def _actions(self, table_id: int, bodies: list[str]) -> list[object]:
        return actions_of(table_id, bodies, self.path)

    def _stored(self, row: tuple[Any, ...], seats: list[StoredSeat],
                actions: list[object]) -> StoredTable:
        return stored_of(row, seats, actions, self.path)

    def abandon_table(self, table_id: int) -> bool:
        with self._transaction(write=True) as conn:
            return store_rows.abandon(conn, "?", table_id, self._clock())


def _lost_tables(path: Path) -> str:
    return (f"the store {path} has lost its tables (was its -wal file deleted after a "
            "crash?): restore it from a backup, or move it away to start a new store")


def _is_empty_file(path: Path) -> bool:
    try:
        info = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size == 0


def _check_writable(path: Path) -> None:
    """The data directory and the store's files must be writable, checked
    before SQLite opens (and maps) them: SQLite's fallback for an unwritable
    ``-shm`` ended in SIGBUS, without a word."""
    directory = path.parent
    try:
        fd, probe = tempfile.mkstemp(prefix=".fivetowers-check-", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise StoreUnwritable(f"the data directory {directory} is not writable: "
                              f"{exc.strerror or exc}") from None
    for name in (path.name, path.name + "-wal", path.name + "-shm"):
        file = directory / name
        try:
            if not stat.S_ISREG(os.stat(file).st_mode):
                continue  # absent, or not a file: opening it says what is wrong
            os.close(os.open(file, os.O_RDWR | os.O_CLOEXEC))
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise StoreUnwritable(f"the store file {file} is not writable: "
                                  f"{exc.strerror or exc}") from None


def _create(path: Path) -> None:
    """A new, complete store at ``path``: built under a temporary name (in
    rollback-journal mode, so a crash leaves no half store), synced, then
    linked into place; if another process got there first, theirs stays."""
    fd, temp = tempfile.mkstemp(prefix=path.name + ".new-", dir=path.parent)
    os.close(fd)
    try:
        conn = sqlite3.connect(temp, isolation_level=None)
        try:
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("BEGIN IMMEDIATE")
            migrate(conn, 0)
            conn.execute("COMMIT")
            conn.execute("PRAGMA journal_mode = WAL")
        finally:
            conn.close()  # a clean close folds the WAL back into the file
        file = os.open(temp, os.O_RDONLY)
        try:
            os.fsync(file)
        finally:
            os.close(file)
        try:
            os.link(temp, path)
        except FileExistsError:
            return
        except OSError:  # a file system without hard links: nearly as good
            if os.path.lexists(path):
                return
            os.rename(temp, path)
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    finally:
        for leftover in (temp, temp + "-journal", temp + "-wal", temp + "-shm"):
            try:
                os.unlink(leftover)
            except FileNotFoundError:
                pass


def _own(path: Path) -> IO[bytes]:
    """Lock ``<store>.lock`` for this process's life: two servers appending to
    the same tables would each replay only their own actions."""
    lock_path = path.with_name(path.name + ".lock")
    try:
        owner = open(lock_path, "ab")
    except OSError as exc:
        raise StoreError(f"cannot open {lock_path}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(owner, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        owner.close()
        raise StoreBusy(f"another fivetowers server is using the store {path}") from None
    return owner
