"""Where a table's slow work runs: bots thinking and hints, off the serving loop.

The loop that draws every screen must never run pure-Python work that takes
more than a few milliseconds: a thread is not enough, since the bots and the
hint model's Python hold the GIL (DESIGN.md "slow work off the serving
process"). :class:`Workers` sends that work to a bounded pool of worker
processes (the server), or to threads (``fivetowers play`` and tests, where
one screen shares the process with the bots and nothing need be pickled).

Policies when the pool is busy:

- A timed bot (the strong bot) gets its whole budget in CPU time: it counts
  on its worker thread's CPU clock (``time.thread_time``) from when a worker
  starts its turn, not on the wall clock from when it was asked. A turn that
  waits for a worker, or a worker that gets less of a core (workers are
  niced, so a full machine serves screens first), makes the move later, not
  weaker: it thinks as long, in CPU, as ``fivetowers tournament`` measures
  it for that budget on a quiet machine. Its strength is kept at the cost of
  move time, within two wall-clock bounds after which it answers with what
  it has (the bot reads a :class:`WorkerClock`, which reaches its budget at
  the first of them whatever CPU it had):

  - the *stretch* from when the worker started: ``STRETCH`` budgets plus
    ``STRETCH_SLACK`` (5 Towers' 1 s: 2.7 s);
  - the *ceiling* from the ask (:meth:`Workers.ceiling`: ``CEILING_TIMES``
    budgets plus ``CEILING_MARGIN``; 5 Towers' 1 s: 4 s, GoTown's 0.05 s:
    1.15 s), what a table waits at most for its bot's worker.

  That holds for a bot asked while a worker is free. One asked while every
  worker is busy gets the pool's old policy: its budget of wall clock from
  the ask, so a queue that eats it gets the late bot. A full pool then
  sheds load as it must: the CPU the workers get is all there is, and with
  budgets counted from the worker's start the queue grew without end (40
  and 60 sessions: hints waited p50 1.2 s and GoTown's quick bot, random,
  made 21 of 174 moves, where the wall-clock policy made none).
- A worker that picks up a turn after its ceiling answers at once with the
  *late* bot the table gives (its game's ``late_bot``, 5 Towers' greedy).
- Should no answer come within the ceiling plus ``margin`` (the pool is
  jammed, or a worker died), the table does not wait: the *quick* bot (its
  game's weakest, which answers at once) moves here, and it is logged.
- :meth:`Workers.choose` says which of them made a move (:class:`Move`):
  a bot seat plays any; an adviser's panel shows only the bot's own and
  asks again later (``SeatClient.advice``), a fallback being no advice.
- A table's pacing of its bots (``Table.bot_delay``, so humans can follow)
  overlaps the thinking: a bot moves once both are done.
- A hint is computed once per position for everyone who asks (in flight
  included) and kept in a bounded cache; a screen shows "thinking…" while it
  is on its way and never waits for it.
- The queue is the pool's, not the executor's: a job goes to a worker only
  when one is free, in the order asked, and long jobs (budgets over
  ``SHORT_JOB``: 5 Towers' 1 s search) leave one worker to the short ones
  (GoTown's 0.05 s strong bot, hints, its adviser), the *short lane*: a
  worker process beyond the pool's ``size``, so the long jobs keep the
  workers they had and no job asked after a long one takes a worker that
  long one could have (short ones go ahead of it only in the short lane),
  but a short one no longer waits behind 1 s searches (FIFO, 100 sessions:
  GoTown's strong bot waited p50 0.48 s for a worker and its late bot made
  229-290 of 288-392 moves; hints waited p50 0.5 s). Short first (the order
  of ask plus budget: commit be7be4a's queue) cut short jobs' waits
  further, but at a full pool it made 5 Towers' bot the late bot's 10 times
  in 108, where in the order asked it never was (``python
  scripts/bench_pool_order.py --sessions 100 --seconds 30``, run with each
  queue: commit 1e284aa's message; the bench has no shortest-first policy).
  A job nobody waits for any more when its turn comes is dropped, not run:
  a bot's or an adviser's whose asker gave up, a hint whose every viewer
  moved on or left.

Bots are any game's (the platform's :class:`~fivetowers.games.protocol.Bot`);
:meth:`Workers.hint` runs the hinter a game's client gives it on any
position that has a ``to_json()``. A worker imports what every registered
game lists in ``GameKind.preload`` as it starts.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import copy
import functools
import heapq
import importlib
import itertools
import json
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from collections import OrderedDict
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, NamedTuple, Protocol, TypeVar
from weakref import WeakKeyDictionary, WeakSet, finalize

from fivetowers.compat.futures import pool_processes
from fivetowers.games.protocol import Bot
from fivetowers.tables.pool_stats import BotMove, HintJob, PoolStats

log = logging.getLogger("fivetowers.server")

T = TypeVar("T")


class Hintable(Protocol):
    """A position a hint is asked for: its JSON names it in the hint cache."""

    def to_json(self) -> Any: ...


P = TypeVar("P", bound=Hintable)
H = TypeVar("H")

DEFAULT_BUDGET = 1.0
"""Seconds a bot without a time budget of its own (greedy, random) may take."""
LATE_MARGIN = 1.0
"""Seconds past its ceiling before a bot's answer is no longer waited for."""
CEILING_TIMES = 3.0
CEILING_MARGIN = 1.0
"""A timed bot answers with what it has at the latest ``CEILING_TIMES``
budgets plus ``CEILING_MARGIN`` seconds after it was asked (wall clock): time
for a turn to wait for a worker (under 100 sessions: p99 1.0 s) and to
think, yet a table's bot answers within a few seconds whatever the load."""
STRETCH = 2.5
"""A timed bot answers with what it has at the latest ``STRETCH`` budgets
(wall clock) after a worker started on it: its whole budget of CPU if the
worker gets 40% of a core or more, and no more than that of the pool's
time however starved it is (a machine busy with other work: 7-20% of a
core, measured)."""
STRETCH_SLACK = 0.2
"""Seconds added to every stretch: a short budget (GoTown's 0.05 s) holds
its worker too briefly to hold up the pool, and gets its CPU from a worker
given a fifth of a core."""
HINTS_KEPT = 1024
"""Hints kept at the most (4-8 KiB each). A table's are dropped once its game
has left their positions (see ``Workers.hint``'s ``owner``), and all of them
once the table is gone: this bounds the rest."""
WORKER_NICENESS = 5
"""Workers yield the CPU to the serving process when the machine is short of
it: screens first, then bots and hints."""
HINT_BUDGET = 0.05
"""The budget a hint job is given in the queue (a short job: see the module's
queue): a hint takes its worker about 4 ms of CPU (5 Towers' CP-SAT model,
p50, p90 6 ms) or less (GoTown's search)."""
SHORT_JOB = 0.2
"""Budgets up to this are short jobs (GoTown's strong bot, hints)."""
SHORT_LANE = 1
"""Worker processes added to the pool's ``size`` for short jobs only, the
*short lane*, which long ones (5 Towers' 1 s search) never fill: a quick bot
asked of a full pool gets its budget of wall clock from the ask (0.05 s),
and behind four 1 s searches it waited for one to end and its late bot
moved instead. Long jobs keep the ``size`` workers they had."""
TASKS_PER_WORKER = 2000
"""A worker process is replaced after this many jobs, so no slow growth of
its memory (solver caches, allocator fragmentation) lasts."""


_Key = tuple[Callable[..., Any], str]
"""A hint's key in the cache: its hinter, and its position's JSON."""


class _Asked:
    """The hints one owner asked for at its latest version and the one before."""

    __slots__ = ("version", "latest", "before")

    def __init__(self, version: int, latest: set[_Key], before: set[_Key]) -> None:
        self.version = version
        self.latest = latest
        self.before = before


def machine_size() -> int:
    """Worker processes for this machine: one per core it may use, at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def budget_of(bot: Bot) -> float:
    """How long ``bot`` may think: its own ``time_per_move``, else the default."""
    budget = getattr(bot, "time_per_move", None)
    return float(budget) if isinstance(budget, (int, float)) and budget > 0 else DEFAULT_BUDGET


def within(bot: Bot, seconds: float) -> Bot:
    """``bot``, thinking at most ``seconds`` if it is a timed bot (a copy)."""
    if getattr(bot, "simulations", None) is None and budget_of(bot) > seconds \
            and hasattr(bot, "time_per_move"):
        bot = copy.copy(bot)
        setattr(bot, "time_per_move", seconds)
    return bot


def game_of(module: str) -> str | None:
    """The game a module is of ("gotown" for fivetowers.games.gotown.client), or None."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["fivetowers", "games"] and len(parts) > 2 else None


def bot_name(bot: Bot) -> str:
    """``bot``'s name with its game's ("gotown strong"), for logs and stats."""
    name = str(getattr(bot, "name", type(bot).__name__))
    game = game_of(type(bot).__module__)
    return name if game is None else f"{game} {name}"


def hinter_game(hinter: Callable[..., Any]) -> str:
    """Whose hints ``hinter`` computes ("five_towers"), for the pool's stats."""
    module = str(getattr(hinter, "__module__", ""))
    return game_of(module) or module


class WorkerClock:
    """A timed bot's clock in a worker: the CPU seconds its thread spent since
    the clock was made, or, if more, the share of the wall-clock time to
    ``until`` gone, in budgets. It reaches ``budget`` once the bot had its
    budget of CPU, or at ``until`` whatever it had.

    A bot reads it where it would read ``time.perf_counter`` (its ``timer``),
    so its own arithmetic (a deadline, GoTown's forecast of its deals) holds.
    The thread's CPU, not the process's: with thread workers (local play,
    tests) the serving loop's and the other bots' CPU is not the bot's."""

    def __init__(self, budget: float, until: float,
                 cpu: Callable[[], float] = time.thread_time,
                 wall: Callable[[], float] = time.monotonic) -> None:
        self.budget, self.until = budget, until
        self._cpu, self._wall = cpu, wall
        self.cpu_at, self.wall_at = cpu(), wall()

    def __call__(self) -> float:
        spent = self._cpu() - self.cpu_at
        span = self.until - self.wall_at
        gone = (self._wall() - self.wall_at) / span if span > 0 else 1.0
        return max(spent, gone * self.budget)


def on_the_clock(bot: Bot, until: float, hold: float = float("inf")) -> Bot:
    """``bot`` as it thinks in a worker from now, with ``until`` its ceiling
    (``time.monotonic``): a timed bot that reads a ``timer`` gets a
    :class:`WorkerClock` (a copy) that ends at ``until`` or ``hold`` seconds
    from now, whichever comes first; one that does not, its budget of wall
    clock from now, cut at ``until``; any other, itself."""
    if getattr(bot, "simulations", None) is not None or not hasattr(bot, "time_per_move"):
        return bot
    budget = budget_of(bot)
    if hasattr(bot, "timer"):
        bot = copy.copy(bot)
        setattr(bot, "timer", WorkerClock(budget, min(until, time.monotonic() + hold)))
        return bot
    return within(bot, min(budget, until - time.monotonic()))


class Thought(NamedTuple):
    """A bot's turn as a worker played it."""

    action: Any
    how: str
    """"thought" (the bot itself) or "late" (its ceiling had passed)."""
    started: float
    """``time.monotonic()`` when the worker started on it."""
    cpu: float
    """CPU seconds the worker's thread spent on it."""
    searched: int | None
    """What the bot's search played (its ``searched``, if it has one: see
    :class:`~fivetowers.games.protocol.Bot`)."""


class Move(NamedTuple):
    """A bot's move as :meth:`Workers.choose` made it, and who made it: a bot
    seat plays any of them; the adviser's panel shows only the bot's own."""

    action: Any
    how: str
    """"thought" (the bot asked, searching in its worker), "late" (its
    worker's late bot: the ceiling had passed before a worker started on it)
    or "quick" (no worker answered in time: the quick bot, on this process)."""

    @property
    def own(self) -> bool:
        """Whether the bot asked made it, not a fallback for a busy pool."""
        return self.how == "thought"


def think(bot: Bot, view: Any, seed: int, until: float, late: Bot,
          hold: float = float("inf")) -> Thought:
    """``bot``'s move with its budget of CPU, answered by ``until`` (its
    ceiling, ``time.monotonic``: the same clock in every process of the
    machine) and within ``hold`` seconds from now (its stretch), else
    ``late``'s at once if ``until`` has passed. Runs in a worker."""
    started, cpu_at = time.monotonic(), time.thread_time()
    rng = random.Random(seed)
    if started >= until:  # the pool was jammed past the ceiling: answer now
        return Thought(late.choose(view, rng), "late", started,
                       time.thread_time() - cpu_at, None)
    mind = on_the_clock(bot, until, hold)
    action = mind.choose(view, rng)
    searched = getattr(mind, "searched", None)
    return Thought(action, "thought", started, time.thread_time() - cpu_at,
                   searched if isinstance(searched, int) else None)


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> None:
    """``callback`` on ``loop`` from a pool's thread; nothing once the loop is
    closed (a job that outlived the server)."""
    try:
        loop.call_soon_threadsafe(callback)
    except RuntimeError:
        pass


def timed(fn: Callable[..., T], *args: object) -> tuple[float, float, T]:
    """When a worker started on ``fn(*args)`` (``time.monotonic``), the CPU
    seconds its thread spent on it, and its result."""
    started, cpu_at = time.monotonic(), time.thread_time()
    result = fn(*args)
    return started, time.thread_time() - cpu_at, result


class Dropped(Exception):
    """A job nobody waited for any more when a worker was free for it: not run."""


class _Queued:
    """A job waiting for a free worker, in the pool's order (see the module)."""

    __slots__ = ("seq", "budget", "fn", "args", "answer", "what", "wanted", "state", "pool")

    def __init__(self, seq: int, budget: float, fn: Callable[..., Any],
                 args: tuple[object, ...], answer: asyncio.Future[Any], what: str,
                 wanted: Callable[[], bool] | None) -> None:
        self.seq, self.budget, self.fn, self.args = seq, budget, fn, args
        self.answer, self.what, self.wanted = answer, what, wanted
        self.state = "queued"
        """"queued", "running" (a worker has it) or "gone" (done, or dropped)."""
        self.pool: concurrent.futures.Executor | None = None
        """The executor it was given to (once running): only a job of the
        pool in use tells of a dead worker (see ``Workers._ran``)."""

    def __lt__(self, other: _Queued) -> bool:
        return self.seq < other.seq


PARENT_CHECK = 1.0
"""Seconds between a worker's checks that the server that started it lives."""


def _worker_started(server: int) -> None:
    # Ctrl-C reaches the whole process group; the server stops its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A server killed with SIGKILL cannot stop its workers, and they would
    # wait on their queue for ever (each holds its write end too), keeping
    # ~100 MiB and the server's stderr open. So they watch it themselves.
    threading.Thread(target=_exit_with, args=(server,), name="fivetowers-orphan-watch",
                     daemon=True).start()
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    # What the games' bots and hints load (OR-Tools, about 0.3 s) now, not
    # in the first hint a player waits for.
    from fivetowers.games import game_kinds

    for kind in game_kinds():
        for module in kind.preload:
            importlib.import_module(module)


def _exit_with(server: int) -> None:
    while True:
        time.sleep(PARENT_CHECK)
        try:
            os.kill(server, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # alive, if not ours (cannot happen to a parent)
            pass


def _ready(pause: float) -> int:
    time.sleep(pause)  # held, so that every warm-up job gets a worker of its own
    return os.getpid()


class Workers:
    """A bounded pool for a table's slow work: ``processes`` worker processes
    (default: one per core), or threads with ``threads=True``."""

    def __init__(self, processes: int | None = None, *, threads: bool = False,
                 margin: float = LATE_MARGIN, ceiling_times: float = CEILING_TIMES,
                 ceiling_margin: float = CEILING_MARGIN, stretch: float = STRETCH,
                 hints_kept: int = HINTS_KEPT) -> None:
        if processes is not None and processes < 1:
            raise ValueError(f"worker processes: at least 1, not {processes}")
        self.size = processes or machine_size()
        self.threads = threads
        self.margin = margin
        self.ceiling_times, self.ceiling_margin = ceiling_times, ceiling_margin
        self.stretch = stretch
        self.in_flight = 0
        """Jobs given to the pool and not answered yet (queued or running)."""
        self.width = max(4, self.size) if threads else self.size + SHORT_LANE
        """Jobs the executor runs at once: the rest wait in the pool's queue.
        Worker processes: ``size`` for any job and the short lane's."""
        self._queue: list[_Queued] = []
        self._running = 0
        self._long = 0
        """Jobs running longer than ``SHORT_JOB`` budgets (the short lane)."""
        self._seq = itertools.count()
        self._loop: asyncio.AbstractEventLoop | None = None
        """The loop the queue serves (see ``_serve``)."""
        self._waiting: dict[_Key, int] = {}
        """Per hint in flight, the asks waiting for it now."""
        self.hints_kept = hints_kept
        self._pool: concurrent.futures.Executor | None = None
        self._starting = threading.Lock()
        self._replaced: WeakSet[concurrent.futures.Executor] = WeakSet()
        """Pools stopped for a dead worker: a job they cancel is asked again."""
        self._hints: OrderedDict[tuple[Callable[..., Any], str], Any] = OrderedDict()
        self._asked: dict[tuple[Callable[..., Any], str], asyncio.Future[Any]] = {}
        self._current: WeakKeyDictionary[Any, _Asked] = WeakKeyDictionary()
        """Per owner (a table), the hints asked at its latest version and the
        one before: the only ones of its positions that may be asked again."""
        self._orphaned: list[_Asked] = []
        """Those of owners that are gone, dropped at the next ask: a finished
        table's last hints are never asked again."""
        self.late_moves = 0
        """Bot moves made here because no worker answered in time."""
        self.stats = PoolStats()
        """Every bot move and hint job, timed (the latest ones)."""

    # -- the pool ------------------------------------------------------------
    def _executor(self) -> concurrent.futures.Executor:
        with self._starting:  # the loop, and a thread restarting dead workers
            return self._pool or self._new_pool()

    def _new_pool(self) -> concurrent.futures.Executor:
        pool: concurrent.futures.Executor
        if self.threads:
            # Threads only wait on each other's GIL: enough of them that a
            # bot, the adviser and a hint never queue behind each other.
            pool = concurrent.futures.ThreadPoolExecutor(
                max(4, self.size), thread_name_prefix="fivetowers-worker")
        else:
            # Never fork the server: it has threads (the store writer) and
            # every session's sockets and memory, which a forked worker would
            # inherit. A forkserver forks small clean workers.
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context(
                "forkserver" if "forkserver" in methods else "spawn")
            pool = concurrent.futures.ProcessPoolExecutor(
                self.size + SHORT_LANE, mp_context=context, initializer=_worker_started,
                initargs=(os.getpid(),), max_tasks_per_child=TASKS_PER_WORKER)
        self._pool = pool
        return pool

    def start(self) -> list[int]:
        """Start every worker now and wait for them (blocking: call it before
        serving, or in a thread). Returns their process ids (threads: ours).

        Otherwise a worker starts when first needed, and starting one waits
        on the calling thread — the serving loop."""
        return self._warm_up(0.2)

    def _warm_up(self, hold: float) -> list[int]:
        pool = self._executor()
        jobs = [pool.submit(_ready, hold) for _ in range(self.width)]
        return [job.result() for job in jobs]

    async def run(self, fn: Callable[..., T], *args: object, budget: float = HINT_BUDGET,
                  what: str = "job", wanted: Callable[[], bool] | None = None) -> T:
        """``fn(*args)`` in a worker (picklable, for processes); see :meth:`submit`."""
        return await self.submit(fn, *args, budget=budget, what=what, wanted=wanted)

    def submit(self, fn: Callable[..., T], *args: object, budget: float = HINT_BUDGET,
               what: str = "job", wanted: Callable[[], bool] | None = None
               ) -> asyncio.Future[T]:
        """Queue ``fn(*args)`` for the next free worker (the module's queue: a
        ``budget`` up to ``SHORT_JOB`` may take the short lane). ``what`` names it in the
        stats of jobs dropped: one whose answer is cancelled, or for which
        ``wanted()`` says False, when its turn comes is not run.

        It counts in :attr:`in_flight` until its worker is done with it, not
        until its asker stops waiting: a job whose table gave up on it (the
        quick bot moved) still holds its worker, and the pool is no less
        full for that. A queued one that is dropped counts no more."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._serve(loop)
        answer: asyncio.Future[T] = loop.create_future()
        job = _Queued(next(self._seq), budget, fn, args, answer, what,
                      wanted)
        self.in_flight += 1
        answer.add_done_callback(lambda _: self._forget(job))
        heapq.heappush(self._queue, job)
        self._dispatch(loop)
        return answer

    def _serve(self, loop: asyncio.AbstractEventLoop) -> None:
        """The queue serves ``loop`` from now: the jobs of the loop it served
        before (closed: the process's thread workers outlive a test's loop)
        are not waited for, nor counted, whatever their workers still do."""
        self._loop = loop
        self._queue, self._running, self._long, self.in_flight = [], 0, 0, 0

    def _forget(self, job: _Queued) -> None:
        """``job`` leaves the queue unrun (its answer cancelled, or unwanted)."""
        if job.state == "queued":
            job.state = "gone"
            if job.answer.get_loop() is self._loop:
                self.in_flight -= 1
            self.stats.drop(job.what)

    def _next(self) -> _Queued | None:
        """The first job of the queue a free worker may take: a long one only
        while another worker stays free for short ones (the short lane)."""
        if self.width < 2 or self._long < self.width - SHORT_LANE or not self._queue:
            return heapq.heappop(self._queue) if self._queue else None
        passed: list[_Queued] = []
        found = None
        while self._queue:
            job = heapq.heappop(self._queue)
            if job.budget <= SHORT_JOB:
                found = job
                break
            passed.append(job)
        for job in passed:
            heapq.heappush(self._queue, job)
        return found

    def _dispatch(self, loop: asyncio.AbstractEventLoop) -> None:
        """Give free workers the first jobs of the queue still wanted."""
        while self._running < self.width:
            job = self._next()
            if job is None:
                return
            if job.answer.done():  # cancelled: its asker gave up
                self._forget(job)
                continue
            if job.wanted is not None and not job.wanted():
                self._forget(job)
                job.answer.set_exception(Dropped(job.what))
                job.answer.exception()  # nobody waits: not "never retrieved"
                continue
            try:
                running = self._submitted(job)
            except Exception as exc:  # broken again, or shut down: its asker hears of it
                job.state = "gone"
                self.in_flight -= 1
                if not job.answer.done():
                    job.answer.set_exception(exc)
                continue
            job.state = "running"
            self._running += 1
            self._long += job.budget > SHORT_JOB
            running.add_done_callback(functools.partial(self._told, loop, job))

    def _submitted(self, job: _Queued) -> concurrent.futures.Future[Any]:
        try:
            job.pool = self._executor()
            return job.pool.submit(job.fn, *job.args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
            self._replace_broken(job.pool)
            job.pool = self._executor()
            return job.pool.submit(job.fn, *job.args)

    def _told(self, loop: asyncio.AbstractEventLoop, job: _Queued,
              done: concurrent.futures.Future[Any]) -> None:
        # In the executor's thread: the loop hears of it.
        _call_soon(loop, functools.partial(self._ran, loop, job, done))

    def _ran(self, loop: asyncio.AbstractEventLoop, job: _Queued,
             done: concurrent.futures.Future[Any]) -> None:
        if loop is not self._loop:
            return  # a job of a loop the pool no longer serves (see _serve)
        job.state = "gone"
        self._running -= 1
        self._long -= job.budget > SHORT_JOB
        failed = None if done.cancelled() else done.exception()
        if isinstance(failed, BrokenProcessPool):
            # Every job its pool held hears of it: the first one's replaces
            # the pool, once; the others' pool is gone by then.
            self._replace_broken(job.pool)
        if done.cancelled() and job.pool in self._replaced and not job.answer.done():
            # Never started, stopped with the dead worker's pool: asked again, in its place.
            job.state = "queued"
            heapq.heappush(self._queue, job)
        else:
            self.in_flight -= 1
            if not job.answer.done():  # else its asker gave up on it
                if done.cancelled():  # the pool was closed under it
                    job.answer.set_exception(BrokenProcessPool("the workers were stopped"))
                elif failed is not None:
                    job.answer.set_exception(failed)
                else:
                    job.answer.set_result(done.result())
        self._dispatch(loop)

    def _replace_broken(self, broken: concurrent.futures.Executor | None) -> None:
        """New workers in place of ``broken``, a pool a worker of which died,
        unless it is no longer the pool in use: another of its jobs replaced
        it already, or the pool was closed."""
        if broken is None or broken is not self._pool:
            return
        self._pool = None
        self._replaced.add(broken)
        log.warning("a worker process died; starting new workers")
        broken.shutdown(wait=False, cancel_futures=True)
        # Off the loop: starting a worker waits for it (and it loads OR-Tools).
        threading.Thread(target=self._restart, name="fivetowers-workers",
                         daemon=True).start()

    def _restart(self) -> None:
        # No hold: these go to the executor beside the queue's jobs, outside
        # its count, and held 0.2 s each they took every worker, the short
        # lane's too, from the jobs queued meanwhile. Every worker still
        # starts: all are asked for before the first is up (OR-Tools' import).
        try:
            self._warm_up(0.0)
        except Exception as exc:  # the next job will try again
            log.warning("worker processes could not start: %s", exc)

    def close(self) -> None:
        """Stop the workers; work in hand is dropped (a bot thinking for a
        table that is closing need not finish). A queued job's asker hears
        ``BrokenProcessPool``, as for a job running: a bot waiting makes its
        quick bot's move (:meth:`choose`), not a ``CancelledError``."""
        pool, self._pool = self._pool, None
        queued, self._queue = self._queue, []
        for job in queued:  # as for jobs running: choose() answers with its quick bot
            if not job.answer.done():  # (one whose asker gave up: _forget counts it dropped)
                job.state = "gone"  # stopped, not dropped: _forget leaves it be
                self.in_flight -= 1
                job.answer.set_exception(BrokenProcessPool("the workers were stopped"))
                job.answer.exception()  # its asker may be gone: not "never retrieved"
        if pool is None:
            return
        processes = list(pool_processes(pool).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()

    def pids(self) -> list[int]:
        """The worker processes' ids (none for threads, or before they start)."""
        pool = self._pool
        return [] if pool is None else list(pool_processes(pool))

    # -- bots ----------------------------------------------------------------
    def _free_for(self, budget: float) -> bool:
        """Whether a bot of ``budget`` asked now gets the policy of a free
        pool (its budget in CPU from its worker's start): a long one if fewer
        jobs are in flight than the pool's ``size``; a short one whenever
        the pool has a short lane, where it waits behind short jobs only,
        and its ceiling (GoTown's 0.05 s: 1.15 s) still sheds the load of a
        full one (its worker's late bot answers at once). Given the full
        pool's 0.05 s from the ask instead, GoTown's strong bot lost most
        moves to its late bot at 40 sessions (bench_pool_order.py)."""
        if budget <= SHORT_JOB and self.width >= 2:  # (below 2 only where a test sets it:
            return True                              # no short lane then)
        return self.in_flight < self.size

    def ceiling(self, budget: float) -> float:
        """Seconds from the ask by which a bot of ``budget`` answers with what
        it has (its worker's late bot if none started on it by then)."""
        return budget * self.ceiling_times + self.ceiling_margin

    async def choose(self, bot: Bot, view: Any, rng: random.Random, *, late: Bot,
                     quick: Bot, seat: int | None = None, role: str = "bot") -> Move:
        """``bot``'s move for ``view`` (``seat``'s), with its budget of CPU
        in a worker (within :attr:`stretch` budgets of the worker's start plus
        ``STRETCH_SLACK``), answered within :meth:`ceiling` of now; asked
        while every worker is busy, its budget of wall clock from now. In the
        worker, ``late`` (a fast bot of the same game) answers for it if that
        time passed before a worker started on it; should no worker answer,
        ``quick`` (one that answers at once) moves here.

        ``rng`` gives the worker its seed and advances the same way whoever
        thinks, so a seeded game replays the same (unless the pool was jammed
        and a move had to be made without it, which is logged). ``role``
        names what the move is for in :attr:`stats` ("bot", "advice").

        The :class:`Move` says who made it: a bot seat plays it whoever did,
        an adviser shows only its bot's own (see ``SeatClient.advice``)."""
        seed = rng.getrandbits(64)
        budget = budget_of(bot)
        asked = time.monotonic()
        if self._free_for(budget):  # its budget in CPU from the worker's start
            ceiling, hold = self.ceiling(budget), budget * self.stretch + STRETCH_SLACK
        else:  # a full pool: its budget from the ask (see the module's policies)
            ceiling, hold = budget, float("inf")
        name = bot_name(bot)
        try:
            thought = await asyncio.wait_for(  # counted in flight from now
                self.submit(think, bot, view, seed, asked + ceiling, late, hold,
                            budget=budget, what=role),
                ceiling + self.margin)
        except (asyncio.TimeoutError, BrokenProcessPool) as exc:
            self.late_moves += 1
            took = time.monotonic() - asked
            self.stats.moves.append(BotMove(role, name, budget, asked, took, took, "quick"))
            why = "no answer" if isinstance(exc, asyncio.TimeoutError) else "its worker died"
            if role == "advice":  # (no move is made: the panel says the bot is busy)
                log.info("the %s adviser at seat %s: %s after %.1f s; no advice",
                         name, seat, why, took)
            else:
                log.warning("the %s bot at seat %s: %s after %.1f s; made a quick move instead",
                            name, seat, why, took)
            return Move(quick.choose(view, random.Random(seed)), "quick")
        self.stats.moves.append(BotMove(role, name, budget, asked, thought.started - asked,
                                        time.monotonic() - asked, thought.how, thought.cpu,
                                        thought.searched))
        return Move(thought.action, thought.how)

    # -- hints ---------------------------------------------------------------
    @staticmethod
    def _key(position: Hintable, hinter: Callable[[P], H]) -> tuple[Callable[..., Any], str]:
        return hinter, json.dumps(position.to_json(), sort_keys=True)

    def known_hint(self, position: P, hinter: Callable[[P], H]) -> H | None:
        """The hint for ``position`` if it has been computed, without waiting."""
        found: H | None = self._hints.get(self._key(position, hinter))
        return found

    async def hint(self, position: P, hinter: Callable[[P], H], owner: Any = None,
                   version: int = 0) -> H:
        """The hint for ``position``: computed once however many ask, even at
        the same time; one that gives up waiting leaves it to the others.

        ``owner`` (a table) at ``version``: a hint of its that was asked
        neither at its latest version nor at the one before is dropped. Every
        screen showing hints asks again at each version, so a position that
        stays (a seat's board and display while the others bid) is kept, and
        one the game left never comes back. Those filled the cache: at 20
        sessions 100 hints a minute, 4-8 KiB each, until HINTS_KEPT."""
        key = self._key(position, hinter)
        if self._orphaned:
            self._drop_orphans()
        if owner is not None:
            self._now_asked(owner, version, key)
        done: H | None = self._hints.get(key)
        if done is not None:
            self._hints.move_to_end(key)
            self.stats.hints_known += 1
            return done
        loop = asyncio.get_running_loop()
        asked = self._asked.get(key)
        if asked is not None and asked.get_loop() is loop:
            self.stats.hints_joined += 1
        else:
            asked = self._asked[key] = loop.create_future()
            task = loop.create_task(self._compute(key, position, hinter, asked, owner))
            asked.add_done_callback(lambda _: task)  # keeps the task referenced
        self._waiting[key] = self._waiting.get(key, 0) + 1
        try:
            answer: H = await asyncio.shield(asked)
        finally:
            left = self._waiting[key] - 1
            if left:
                self._waiting[key] = left
            else:
                del self._waiting[key]
        return answer

    def _awaited(self, key: _Key, asked: asyncio.Future[Any]) -> bool:
        """Whether anyone still waits for the hint ``asked`` as a worker is
        free for it; if not, the next ask computes it afresh. A screen's
        fetch is cancelled when its table moves on or it closes, so such a
        hint is for a position no screen shows (as its job is dropped,
        before its task hears of it, so no ask joins a dropped job)."""
        if key in self._waiting:
            return True
        if self._asked.get(key) is asked:
            del self._asked[key]
        return False

    def _now_asked(self, owner: Any, version: int, key: _Key) -> None:
        asked = self._current.get(owner)
        if asked is None:
            asked = self._current[owner] = _Asked(version, {key}, set())
            # Not a callback that drops them: an owner may die in a collection
            # on any thread, and the hints are the loop's.
            finalize(owner, self._orphaned.append, asked).atexit = False
        elif version > asked.version:
            for old in asked.before - asked.latest - {key}:
                self._hints.pop(old, None)
            asked.version, asked.before, asked.latest = version, asked.latest, {key}
        elif version == asked.version:
            asked.latest.add(key)

    def _drop_orphans(self) -> None:
        while self._orphaned:
            gone = self._orphaned.pop()
            for key in gone.latest | gone.before:
                self._hints.pop(key, None)

    def _still_current(self, owner: Any, key: _Key) -> bool:
        asked = self._current.get(owner)
        return asked is None or key in asked.latest or key in asked.before

    async def _compute(self, key: tuple[Callable[..., Any], str], position: P,
                       hinter: Callable[[P], H], asked: asyncio.Future[Any],
                       owner: Any = None) -> None:
        start = time.monotonic()
        try:
            started, cpu, result = await self.run(
                timed, hinter, position, what="hint",
                wanted=lambda: self._awaited(key, asked))
        except asyncio.CancelledError:  # the loop is closing
            asked.cancel()
            raise
        except Exception as exc:  # every waiter hears; the next ask tries again
            if not asked.done():
                asked.set_exception(exc)
                asked.exception()  # nobody may be waiting any more: not "never retrieved"
            return
        finally:
            if self._asked.get(key) is asked:
                del self._asked[key]
        self.stats.hints.append(HintJob(start, started - start, time.monotonic() - start, cpu,
                                        hinter_game(hinter)))
        if owner is None or self._still_current(owner, key):  # else its table moved on
            self._hints[key] = result
        while len(self._hints) > self.hints_kept:
            self._hints.popitem(last=False)
        if not asked.done():
            asked.set_result(result)


_threads: Workers | None = None


def threads() -> Workers:
    """The process's thread workers: for tables given no pool (local play, tests)."""
    global _threads
    if _threads is None:
        _threads = Workers(threads=True)
    return _threads
