"""The pool's queue (issue 11, the workers' CPU): jobs in the order asked,
with a short lane, so a 0.05 s GoTown move or a hint does not wait behind
1 s 5 Towers searches, and no job asked after a long one takes a worker that
long one could have (short ones go ahead of it only in the short lane); a job nobody waits for any more is dropped when its turn comes, not
run. Thread workers whose width the test sets, held by a job until the test
lets it go: the order is the policy's, not the machine's."""

from __future__ import annotations

import asyncio
import random
import concurrent.futures
import threading
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from fivetowers.tables.pool_stats import BotMove, HintJob, cpu_by_job
from fivetowers.tables import workers as workers_module
from fivetowers.tables.workers import Dropped, Workers


def workers_of(width: int) -> Workers:
    workers = Workers(1, threads=True)
    workers.width = width  # threads run four at once; the queue's order needs fewer
    return workers


def one_worker() -> Workers:
    return workers_of(1)


async def held(workers: Workers, budget: float = 1.0) -> threading.Event:
    """A worker, busy until the returned event is set (a 1 s search)."""
    release = threading.Event()
    workers.submit(release.wait, 60.0, budget=budget)
    await asyncio.sleep(0)
    return release


def job(ran: list[str], name: str) -> Any:
    def run() -> str:
        ran.append(name)
        return name
    return run


async def test_one_worker_serves_jobs_in_the_order_asked() -> None:
    ran: list[str] = []
    workers = one_worker()
    release = await held(workers)
    jobs = [workers.submit(job(ran, "5 Towers search"), budget=1.0),
            workers.submit(job(ran, "GoTown move"), budget=0.05),
            workers.submit(job(ran, "hint"))]  # a hint's budget: HINT_BUDGET
    release.set()
    await asyncio.gather(*jobs)
    assert ran == ["5 Towers search", "GoTown move", "hint"]


async def test_long_jobs_leave_one_worker_to_the_short_ones() -> None:
    """Two workers: a 1 s search takes one, a second search waits though the
    other is free, and a GoTown move and a hint asked after it take that
    worker; the search still goes before any job asked after it once a
    worker for it is free."""
    ran: list[str] = []
    workers = workers_of(2)
    release = await held(workers)
    second = workers.submit(job(ran, "second search"), budget=1.0)
    quick = workers.submit(job(ran, "GoTown move"), budget=0.05)
    hint = workers.submit(job(ran, "hint"))
    assert await quick == "GoTown move" and await hint == "hint"
    assert not second.done()  # the lane is for short jobs only
    lane = await held(workers, budget=0.05)  # the lane busy again
    after = workers.submit(job(ran, "move after it"), budget=0.05)
    release.set()  # a worker for any job: the search asked first
    assert await second == "second search"
    lane.set()
    await after
    assert ran == ["GoTown move", "hint", "second search", "move after it"]


async def test_one_worker_takes_long_jobs_too() -> None:
    ran: list[str] = []
    workers = one_worker()
    assert await workers.submit(job(ran, "search"), budget=1.0) == "search"


async def test_a_queued_job_its_asker_gave_up_on_is_dropped_not_run() -> None:
    ran: list[str] = []
    workers = one_worker()
    release = await held(workers)
    given_up = workers.submit(job(ran, "given up"), budget=1.0, what="advice")
    kept = workers.submit(job(ran, "kept"), budget=1.0)
    assert workers.in_flight == 3
    given_up.cancel()
    await asyncio.sleep(0)
    assert workers.in_flight == 2  # it holds no place in the pool's count
    release.set()
    assert await kept == "kept"
    assert ran == ["kept"] and workers.stats.dropped == {"advice": 1}
    await wait_idle(workers)


async def test_a_job_no_longer_wanted_when_a_worker_is_free_is_dropped() -> None:
    ran: list[str] = []
    workers = one_worker()
    release = await held(workers)
    wanted = [False]
    unwanted = workers.submit(job(ran, "unwanted"), what="hint", wanted=lambda: wanted[0])
    release.set()
    with pytest.raises(Dropped):
        await unwanted
    assert ran == [] and workers.stats.dropped == {"hint": 1}
    await wait_idle(workers)


async def wait_idle(workers: Workers) -> None:
    for _ in range(1000):  # the pool's thread tells the loop once it is done
        if workers.in_flight == 0:
            return
        await asyncio.sleep(0.01)
    assert workers.in_flight == 0


class Owner:
    """A table, as far as the hint cache knows one."""


class Spot:
    def __init__(self, name: str) -> None:
        self.name = name

    def to_json(self) -> Any:
        return self.name


def counted(computed: list[str]) -> Any:
    def hint(spot: Spot) -> str:
        computed.append(spot.name)
        return f"hint for {spot.name}"
    return hint


async def test_a_hint_every_viewer_stopped_waiting_for_is_not_computed() -> None:
    """A screen's fetch is cancelled when its table moves on or its player
    leaves: a hint still queued then is for a position no screen shows."""
    computed: list[str] = []
    workers = one_worker()
    hint = counted(computed)
    release = await held(workers)
    table = Owner()
    screens = [asyncio.ensure_future(workers.hint(Spot("left"), hint, table, 0))
               for _ in range(2)]
    waiting = asyncio.ensure_future(workers.hint(Spot("shown"), hint, table, 0))
    await asyncio.sleep(0)
    for screen in screens:
        screen.cancel()
    await asyncio.sleep(0)
    release.set()
    assert await waiting == "hint for shown"
    assert computed == ["shown"] and workers.stats.dropped == {"hint": 1}
    # Asked again, it is computed: the dropped job left nothing behind.
    assert await workers.hint(Spot("left"), hint, table, 0) == "hint for left"
    assert computed == ["shown", "left"]


async def test_a_hint_one_viewer_still_waits_for_is_computed() -> None:
    computed: list[str] = []
    workers = one_worker()
    hint = counted(computed)
    release = await held(workers)
    table = Owner()
    left = asyncio.ensure_future(workers.hint(Spot("a"), hint, table, 0))
    stays = asyncio.ensure_future(workers.hint(Spot("a"), hint, table, 0))
    await asyncio.sleep(0)
    left.cancel()
    release.set()
    assert await stays == "hint for a" and computed == ["a"]
    assert workers.stats.dropped == {}


async def test_the_pool_records_each_hint_s_cpu_and_game() -> None:
    from fivetowers.games.gotown.client import compute_hint
    from fivetowers.games.gotown.rules import Game
    from fivetowers.games.gotown.kind import GAME

    game = GAME.new_match(["A", "B"], {"floors": "5"}, 3)
    assert isinstance(game, Game)
    from fivetowers.games.gotown.rules.position import Position
    view = game.view(game.to_move)
    position = Position(view.floors_to_win, game.to_move, view.hand,
                        tuple(s.floors for s in view.seats), tuple(s.dogs for s in view.seats))
    workers = Workers(threads=True)
    await workers.hint(position, compute_hint)
    (job_,) = workers.stats.hints
    assert job_.game == "gotown" and job_.cpu is not None and job_.cpu >= 0.0


def test_the_cpu_of_each_kind_of_job_and_its_share() -> None:
    moves = [BotMove("bot", "five_towers strong", 1.0, 0.0, 0.0, 1.0, "thought", 0.9, 200),
             BotMove("bot", "five_towers strong", 1.0, 0.0, 0.0, 1.0, "thought", 0.5, 100),
             BotMove("advice", "gotown strong", 0.05, 0.0, 0.0, 0.1, "thought", 0.05, 40),
             BotMove("bot", "gotown strong", 0.05, 0.0, 1.2, 1.2, "quick")]  # no CPU
    hints = [HintJob(0.0, 0.0, 0.1, 0.03, "five_towers"), HintJob(0.0, 0.0, 0.1, 0.02, "gotown")]
    shares = cpu_by_job(moves, hints)
    assert set(shares) == {"five_towers bot", "gotown advice", "five_towers hint",
                           "gotown hint"}
    assert shares["five_towers bot"]["jobs"] == 2
    assert shares["five_towers bot"]["cpu_s"] == pytest.approx(1.4)
    assert shares["five_towers bot"]["share"] == pytest.approx(1.4 / 1.5)
    assert sum(s["share"] for s in shares.values()) == pytest.approx(1.0)


def test_a_loop_closed_with_jobs_running_leaves_the_queue_to_the_next() -> None:
    """The process's thread workers outlive a loop (each test's): jobs left
    running when one closed must not hold the next loop's queue."""
    workers = Workers(1, threads=True)
    workers.width = 1
    release = threading.Event()

    async def leave_one_running() -> None:
        workers.submit(release.wait, 60.0)
        await asyncio.sleep(0)

    async def ask() -> str:
        return await workers.submit(job([], "next"))

    asyncio.run(leave_one_running())
    try:
        assert asyncio.run(asyncio.wait_for(ask(), 60.0)) == "next"  # a guard, not a measure
    finally:
        release.set()


class Refusing(concurrent.futures.Executor):
    """A pool whose every submit raises ``error`` (broken again, shut down)."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        raise self.error


@pytest.mark.parametrize("error", [BrokenProcessPool("broken again"),
                                   RuntimeError("cannot schedule new futures after shutdown")],
                         ids=["broken twice", "shut down"])
async def test_a_job_no_worker_would_take_fails_and_leaves_the_queue(
        monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    workers = one_worker()
    monkeypatch.setattr(workers, "_executor", lambda: Refusing(error))
    monkeypatch.setattr(workers, "_replace_broken", lambda broken: None)
    for _ in range(2):  # the same job asked again does not join a stuck one
        answer = workers.submit(job([], "hint"))
        with pytest.raises(type(error)):
            await asyncio.wait_for(answer, 5)
        assert workers.in_flight == 0 and workers._queue == []


async def test_a_bot_waiting_when_the_pool_closes_makes_the_quick_bot_s_move() -> None:
    from fivetowers.games.five_towers.bots import StrongBot
    from fivetowers.games.five_towers.rules import Game, Variant

    class Quick:
        def choose(self, view: Any, rng: Any) -> str:
            return "the quick bot's move"

    workers = one_worker()
    release = await held(workers)
    game = Game(["A", "B"], Variant.BASE, seed=2)
    waiting = asyncio.ensure_future(workers.choose(
        StrongBot(time_per_move=30.0), game.view(game.to_move), random.Random(1),
        late=Quick(), quick=Quick()))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    assert len(workers._queue) == 1  # queued behind the busy worker
    workers.close()
    try:
        assert await asyncio.wait_for(waiting, 10) == ("the quick bot's move", "quick")
        assert workers.late_moves == 1 and workers.in_flight == 1  # (the held job's)
        assert workers.stats.dropped == {}  # stopped, not dropped: its asker waited
    finally:
        release.set()


async def test_a_job_the_replaced_pool_stopped_before_it_ran_is_asked_again() -> None:
    """A job given to a pool replaced for a dead worker, stopped there before
    a worker took it, runs on the new workers (in its place in the queue)
    rather than failing as if the pool were closed. Thread workers, one job
    more than the executor's threads, so the last one waits in the executor."""
    ran: list[str] = []
    workers = workers_of(5)  # the executor's 4 threads, and one waiting in it
    releases = [await held(workers) for _ in range(4)]
    waiting = workers.submit(job(ran, "never started"))
    await asyncio.sleep(0)
    assert workers._running == 5 and workers._queue == []
    try:
        workers._replace_broken(workers._pool)  # as the loop does once a worker died
        assert await asyncio.wait_for(waiting, 60) == "never started"  # a guard
        assert ran == ["never started"] and workers.stats.dropped == {}
    finally:
        for release in releases:
            release.set()
    await wait_idle(workers)


def test_a_restart_s_warm_up_holds_no_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """start() holds each warm-up job 0.2 s so that each gets a worker of its
    own; a restart's go to the new workers beside the queue's jobs, outside
    its count, and must not hold them (the short lane's included)."""
    holds: list[float] = []

    def ready(hold: float) -> int:
        holds.append(hold)
        return 0

    monkeypatch.setattr(workers_module, "_ready", ready)
    workers = Workers(1, threads=True)
    try:
        workers._restart()
    finally:
        workers.close()
    assert holds == [0.0] * workers.width
