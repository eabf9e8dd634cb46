"""The bus between servers sharing one PostgreSQL store: LISTEN/NOTIFY.

Each server LISTENs on :data:`~fivetowers.tables.pg_store.CHANNEL` on a
connection of its own (psycopg's async ``notifies()``) and hands every
payload to its listeners on the event loop. What is announced is in the
store already (a move's notification is sent in its append's transaction,
delivered at commit), so a listener reads the store, never the payload,
for anything that must be true; chat lines travel in the payload itself.

The connection may drop (PostgreSQL restarted, the backend terminated, the
network gone: keepalives notice a silent one within seconds). PostgreSQL
keeps no notifications for a session that is gone, so the bus connects
again, waiting longer after each failure (:data:`RETRY_FIRST` doubling to
:data:`RETRY_MAX`), LISTENs, and only then hands every listener
:data:`RECONNECTED`: each reads the store again (a table catches up), and
whatever was announced while the bus was deaf is in what it reads. A chat
line said meanwhile is lost (chat is not kept).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Callable

import psycopg
from psycopg import conninfo

from fivetowers.tables.pg_store import CHANNEL
from fivetowers.tables.store import StoreUnavailable

log = logging.getLogger("fivetowers.store")

Listener = Callable[[str], None]
RECONNECTED = "reconnected"
"""What every listener is handed once the bus listens again after a break:
anything may have changed, read the store. (Not a payload servers send; one
sent by mistake only costs a read.)"""
RETRY_FIRST = 0.1
"""Seconds before the first attempt to connect again ..."""
RETRY_MAX = 5.0
"""... doubling after each failed attempt up to this."""
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 1,
              "keepalives_count": 3}
"""A bus whose server vanished without a word is known deaf within 5 + 3 s
(the URL's own settings win)."""


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


class Bus:
    """One LISTEN connection; :meth:`listen` adds a listener of every payload."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._listeners: list[Listener] = []
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self._task: asyncio.Task[None] | None = None
        self.retry_first = RETRY_FIRST
        self.retry_max = RETRY_MAX
        self.reconnects = 0
        """How often the bus has connected again after a break."""
        self.listening = asyncio.Event()
        """Set while the bus listens (cleared from a break until it listens again)."""

    async def start(self) -> None:
        try:
            self._conn = await self._connect()
        except psycopg.Error as exc:
            raise StoreUnavailable(f"cannot listen to the store: {_one_line(exc)}") from None
        self.listening.set()
        self._task = asyncio.get_running_loop().create_task(self._pump())

    @property
    def backend_pid(self) -> int | None:
        """The PostgreSQL backend process listening for this bus, if connected."""
        conn = self._conn
        return None if conn is None or conn.closed else conn.info.backend_pid

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        params = {**KEEPALIVES, **conninfo.conninfo_to_dict(self.url)}
        conn = await psycopg.AsyncConnection.connect(
            conninfo.make_conninfo("", **params), autocommit=True)
        try:
            await conn.execute(f"LISTEN {CHANNEL}")
        except BaseException:
            await conn.close()
            raise
        return conn

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unlisten(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _hand_out(self, payload: str) -> None:
        for listener in list(self._listeners):
            try:
                listener(payload)
            except Exception:  # one broken listener must not deafen the rest
                log.exception("a bus listener failed on %r", payload)

    async def _pump(self) -> None:
        while True:
            conn = self._conn
            assert conn is not None
            try:
                async for notice in conn.notifies():
                    self._hand_out(notice.payload)
                why = "its connection closed"
            except psycopg.Error as exc:
                why = _one_line(exc)
            self.listening.clear()
            log.warning("the store's bus stopped (%s): listening again", why)
            with contextlib.suppress(psycopg.Error):
                await conn.close()
            self._conn = await self._reconnect()
            self.reconnects += 1
            self.listening.set()
            log.warning("the store's bus listens again; every table reads the store")
            self._hand_out(RECONNECTED)

    async def _reconnect(self) -> psycopg.AsyncConnection[Any]:
        """A listening connection, however long the database takes to come back."""
        delay = self.retry_first
        failures = 0
        while True:
            await asyncio.sleep(delay)
            try:
                return await self._connect()
            except psycopg.Error as exc:
                failures += 1
                if failures == 1:  # once per break, not once per attempt
                    log.error("the store's bus cannot connect again (%s): retrying",
                              _one_line(exc))
            delay = min(self.retry_max, delay * 2)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._conn is not None:
            await self._conn.close()
