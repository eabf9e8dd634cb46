"""The bus between servers sharing one PostgreSQL store: LISTEN/NOTIFY.

Each server LISTENs on :data:`~fivetowers.tables.pg_store.CHANNEL` on a
connection of its own (psycopg's async ``notifies()``) and hands every
payload to its listeners on the event loop. What is announced is in the
store already (a move's notification is sent in its append's transaction,
delivered at commit), so a listener reads the store, never the payload,
for anything that must be true; chat lines travel in the payload itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Callable

import psycopg

from fivetowers.tables.pg_store import CHANNEL
from fivetowers.tables.store import StoreUnavailable

log = logging.getLogger("fivetowers.store")

Listener = Callable[[str], None]


class Bus:
    """One LISTEN connection; :meth:`listen` adds a listener of every payload."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._listeners: list[Listener] = []
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        try:
            self._conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            await self._conn.execute(f"LISTEN {CHANNEL}")
        except psycopg.Error as exc:
            raise StoreUnavailable(f"cannot listen to the store: {' '.join(str(exc).split())}"
                                   ) from None
        self._task = asyncio.get_running_loop().create_task(self._pump())

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unlisten(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    async def _pump(self) -> None:
        assert self._conn is not None
        try:
            async for notice in self._conn.notifies():
                for listener in list(self._listeners):
                    try:
                        listener(notice.payload)
                    except Exception:  # one broken listener must not deafen the rest
                        log.exception("a bus listener failed on %r", notice.payload)
        except psycopg.Error as exc:
            log.error("the store's bus stopped: %s", " ".join(str(exc).split()))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._conn is not None:
            await self._conn.close()
