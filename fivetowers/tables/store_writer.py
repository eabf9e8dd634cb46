"""A :class:`Store` for the event loop: every call on one dedicated thread.

A durable commit waits for the disk (``fsync``): a fraction of a millisecond
on a quiet disk, 4-30 ms on this project's shared machine under load
(scripts/bench_store.py). Made on the loop thread, that wait would freeze
every session's screen; here the loop awaits it instead. Actions that queue
up while a commit is under way are committed together in one transaction
(group commit), so the number of commits per second the disk allows bounds
the batches, not the actions.

The thread is the only user of the store, so the store needs no locking of
its own for this use, and the calls keep their order.

A store that cannot write (a full disk) fails each append at once: the
table refuses the move and retries or lets its player retry. The writer logs
it as an error once per episode, and once more when writes succeed again,
so an operator hears of it without a line per refused move.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from fivetowers.tables.store import (
    PendingAction, StaleAction, Store, StoreError, StoreUnavailable,
)

T = TypeVar("T")
MAX_BATCH = 256
log = logging.getLogger("fivetowers.store")


@dataclass
class _Job:
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    item: PendingAction | None = None  # an append (batched) ...
    call: Callable[[], Any] | None = None  # ... or any other store call


_STOP = object()


class StoreWriter:
    """Await a store's calls from asyncio; ``append`` commits in groups."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._jobs: queue.SimpleQueue[_Job | object] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="fivetowers-store",
                                        daemon=True)
        self._closed = False
        self.failures = 0
        """Writes failed in a row (the current episode; 0 while the store writes)."""
        self._thread.start()

    async def append(self, item: PendingAction) -> None:
        """Return once ``item`` is durably committed; raise its StoreError if refused."""
        await self._submit(_Job(*self._future(), item=item))

    async def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run any store method on the writer thread, in turn: ``await
        writer.call(store.create_table, code=..., ...)``."""
        result: T = await self._submit(_Job(*self._future(), call=lambda: fn(*args, **kwargs)))
        return result

    async def close(self) -> None:
        """Finish the queued work, stop the thread and close the store."""
        if self._closed:
            return
        self._closed = True
        self._jobs.put(_STOP)
        await asyncio.to_thread(self._thread.join)
        self.store.close()

    # -- on the loop --------------------------------------------------------------
    @staticmethod
    def _future() -> tuple[asyncio.AbstractEventLoop, asyncio.Future[Any]]:
        loop = asyncio.get_running_loop()
        return loop, loop.create_future()

    async def _submit(self, job: _Job) -> Any:
        if self._closed:
            raise StoreError("the store is closed")
        self._jobs.put(job)
        return await job.future

    # -- on the writer thread -------------------------------------------------------
    def _run(self) -> None:
        held: _Job | object | None = None
        while True:
            job = held if held is not None else self._jobs.get()
            held = None
            if job is _STOP:
                return
            assert isinstance(job, _Job)
            if job.call is not None:
                try:
                    _settle(job, job.call(), None)
                except BaseException as exc:
                    self._failed(exc)
                    _settle(job, None, exc)
                continue
            batch = [job]
            while len(batch) < MAX_BATCH:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if isinstance(more, _Job) and more.item is not None:
                    batch.append(more)
                else:
                    held = more  # a call or the stop: after this batch, in order
                    break
            try:
                results: list[BaseException | None] = list(
                    self.store.append_actions([j.item for j in batch if j.item]))
            except BaseException as exc:
                self._failed(exc)
                results = [exc] * len(batch)
            else:
                self._wrote()
                for j, error in zip(batch, results):
                    # Stale: another server sharing the store moved first; the
                    # table catches up and checks the move again. Else a bug.
                    if error is not None and j.item is not None:
                        (log.info if isinstance(error, StaleAction) else log.error)("the store refused action %d of table %d: %s",
                                  j.item.index, j.item.table_id, error)
            for j, error in zip(batch, results):
                _settle(j, None, error)

    def _failed(self, exc: BaseException) -> None:
        """Count a failure of the store itself; log the first of an episode."""
        if not isinstance(exc, StoreUnavailable):
            return  # a refusal of one call (a conflict, an unknown table): the caller's
        self.failures += 1
        if self.failures == 1:
            log.error("%s; moves are refused until it can write again (players and bots "
                      "retry)", " ".join(str(exc).split()))

    def _wrote(self) -> None:
        if self.failures:
            log.warning("the store writes again, after %d failed write%s", self.failures,
                        "s" if self.failures != 1 else "")
            self.failures = 0


def _settle(job: _Job, value: Any, error: BaseException | None) -> None:
    def settle() -> None:
        if job.future.done():  # the waiter was cancelled
            return
        if error is not None:
            job.future.set_exception(error)
        else:
            job.future.set_result(value)

    try:
        job.loop.call_soon_threadsafe(settle)
    except RuntimeError:
        pass  # the loop is closed: nobody waits any more
