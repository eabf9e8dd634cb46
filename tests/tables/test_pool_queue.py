"""The pool's queue (issue 11, the workers' CPU): short jobs first, in the
order of when their budget would end were they started at once, so a 0.05 s
GoTown move or a hint does not wait behind 1 s 5 Towers searches, while a
search asked long enough before goes first; a job nobody waits for any more
is dropped when its turn comes, not run. One worker (``width`` 1), held by a
job until the test lets it go, and a fake clock: the order is the policy's,
not the machine's."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from fivetowers.tables.pool_stats import BotMove, HintJob, cpu_by_job
from fivetowers.tables.workers import Dropped, Workers


class Clock:
    """A clock the test sets."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def one_worker(clock: Clock) -> Workers:
    workers = Workers(1, threads=True, clock=clock)
    workers.width = 1  # threads run four at once; the queue's order needs one
    return workers


async def held(workers: Workers) -> threading.Event:
    """The only worker, busy until the returned event is set."""
    release = threading.Event()
    workers.submit(release.wait, 60.0, budget=1.0)
    await asyncio.sleep(0)
    return release


def job(ran: list[str], name: str) -> Any:
    def run() -> str:
        ran.append(name)
        return name
    return run


async def test_a_short_job_asked_after_a_long_one_runs_first() -> None:
    clock, ran = Clock(), []
    workers = one_worker(clock)
    release = await held(workers)
    search = workers.submit(job(ran, "5 Towers search"), budget=1.0)
    clock.now += 0.1
    quick = workers.submit(job(ran, "GoTown move"), budget=0.05)
    hint = workers.submit(job(ran, "hint"))  # a hint's budget: HINT_BUDGET
    release.set()
    await asyncio.gather(search, quick, hint)
    assert ran == ["GoTown move", "hint", "5 Towers search"]


async def test_a_long_job_asked_a_budget_before_goes_first() -> None:
    """No search waits behind more than its budget's worth of later asks."""
    clock, ran = Clock(), []
    workers = one_worker(clock)
    release = await held(workers)
    search = workers.submit(job(ran, "5 Towers search"), budget=1.0)
    clock.now += 1.0  # its budget would have ended before the short job's
    quick = workers.submit(job(ran, "GoTown move"), budget=0.05)
    release.set()
    await asyncio.gather(search, quick)
    assert ran == ["5 Towers search", "GoTown move"]


async def test_equal_budgets_keep_the_order_they_were_asked_in() -> None:
    clock, ran = Clock(), []
    workers = one_worker(clock)
    release = await held(workers)
    jobs = [workers.submit(job(ran, f"move {i}"), budget=0.05) for i in range(5)]
    release.set()
    await asyncio.gather(*jobs)
    assert ran == [f"move {i}" for i in range(5)]


async def test_long_jobs_leave_one_worker_to_the_short_ones() -> None:
    """Two workers: a 1 s search takes one, a second search waits though the
    other is free, and a GoTown move asked after it takes that worker."""
    clock, ran = Clock(), []
    workers = Workers(1, threads=True, clock=clock)
    workers.width = 2
    release = threading.Event()
    first = workers.submit(release.wait, 60.0, budget=1.0)  # a search
    await asyncio.sleep(0)
    second = workers.submit(job(ran, "second search"), budget=1.0)
    clock.now += 5.0  # asked long after: the search would go first in the order
    quick = workers.submit(job(ran, "GoTown move"), budget=0.05)
    assert await quick == "GoTown move" and ran == ["GoTown move"]
    assert not second.done()  # the lane is for short jobs only
    release.set()
    await asyncio.gather(first, second)
    assert ran == ["GoTown move", "second search"]


async def test_one_worker_takes_long_jobs_too() -> None:
    clock, ran = Clock(), []
    workers = one_worker(clock)
    assert await workers.submit(job(ran, "search"), budget=1.0) == "search"


async def test_a_queued_job_its_asker_gave_up_on_is_dropped_not_run() -> None:
    clock, ran = Clock(), []
    workers = one_worker(clock)
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
    clock, ran = Clock(), []
    workers = one_worker(clock)
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
    clock, computed = Clock(), []
    workers = one_worker(clock)
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
    clock, computed = Clock(), []
    workers = one_worker(clock)
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
