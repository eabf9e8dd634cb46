"""A bot's time at a busy table (issue 11): a timed bot gets its budget in
CPU time from when a worker starts its turn, whatever the queue or the
machine's load took, within a wall-clock ceiling; the late bot only past
that ceiling; the table's pacing overlaps the thinking."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from typing import Any

import pytest

from fivetowers.games.five_towers.bots import StrongBot
from fivetowers.games.five_towers.bots.random_bot import RandomBot
from fivetowers.games.five_towers.rules import Action, Game, PlayerView, Variant
from fivetowers.games.gotown.rules import Game as GoTownGame
from fivetowers.games.gotown.strong import StrongBot as GoTownStrong
from fivetowers.games.protocol import Bot
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table
from fivetowers.tables import workers as workers_module
from fivetowers.tables.workers import (STRETCH_SLACK, Move, Thought, WorkerClock,
                                       Workers, think)

from tests.tables.slow_helpers import SleepyBot, SpinBot


def first_bid() -> tuple[Game, Any]:
    game = Game(["A", "B"], Variant.BASE, seed=2)
    return game, game.view(game.to_move)


class Ticks:
    """A clock that moves ``step`` at every reading."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_the_worker_clock_reaches_the_budget_in_cpu_or_at_the_ceiling() -> None:
    cpu, wall = [10.0], [100.0]
    clock = WorkerClock(1.0, until=103.0, cpu=lambda: cpu[0], wall=lambda: wall[0])
    assert clock() == 0.0
    cpu[0], wall[0] = 10.4, 101.5  # a slowed worker: 0.4 s of CPU in 1.5 s
    assert clock() == pytest.approx(0.5)  # half the way to its ceiling
    cpu[0], wall[0] = 10.6, 102.0
    assert clock() == pytest.approx(2 / 3) and clock() < 1.0  # thinks on
    cpu[0] = 11.0  # its whole budget of CPU, before the ceiling
    assert clock() == pytest.approx(1.0)
    # Starved of CPU: the ceiling ends it whatever it had.
    starved = WorkerClock(1.0, until=103.0, cpu=lambda: 10.0, wall=lambda: wall[0])
    wall[0] = 103.0
    assert starved() == pytest.approx(1.0)


def test_the_strong_bots_count_their_time_on_the_clock_they_are_given() -> None:
    """A clock that moves a second a reading: a 5 s budget is five readings
    past the first, whatever the wall clock does."""
    game, view = first_bid()
    bot = StrongBot(time_per_move=5.0)
    bot.timer = Ticks(1.0)
    game.apply(bot.choose(view, random.Random(1)))
    assert bot.worlds == 5
    # GoTown's: its time up at the first reading after the first deal.
    searched = 0
    gotown = GoTownGame(["A", "B", "C"], 5, seed=1)
    for seed in range(60):
        if gotown.over:
            break
        seat = gotown.to_move
        assert seat is not None
        ticking = GoTownStrong(time_per_move=1.0)
        ticking.timer = Ticks(1.0)
        action = ticking.choose(gotown.view(seat), random.Random(seed))
        assert ticking.deals <= 1
        searched += ticking.deals
        gotown.apply(action)
    assert searched > 0  # some of those decisions searched


async def test_a_slowed_worker_still_gives_a_bot_its_cpu_budget() -> None:
    """A thread worker shares the GIL with a busy thread, which takes about
    half of it: the bot still thinks its whole 0.3 s, in CPU."""
    workers = Workers(threads=True, ceiling_margin=600.0, stretch=600.0)  # no bound in sight
    stop = threading.Event()

    def rival() -> None:
        while not stop.is_set():
            sum(i * i for i in range(200))  # pure Python: holds the GIL

    hog = threading.Thread(target=rival)
    hog.start()
    try:
        game, view = first_bid()
        move = await workers.choose(SpinBot(0.3), view, random.Random(1), late=RandomBot(),
                                    quick=RandomBot())
    finally:
        stop.set()
        hog.join()
    game.apply(move.action)
    assert move.own
    (move,) = workers.stats.moves
    assert move.how == "thought" and move.cpu is not None and move.cpu >= 0.3


class Holds:
    """What :func:`think` was given by :meth:`Workers.choose`: its ceiling
    (from the ask) and its stretch (from the worker's start)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.ceilings: list[float] = []
        self.holds: list[float] = []
        real = workers_module.think

        def spy(bot: Bot, view: Any, seed: int, until: float, late: Bot,
                hold: float = float("inf")) -> Thought:
            self.ceilings.append(until - time.monotonic())
            self.holds.append(hold)
            return real(bot, view, seed, until, late, hold)

        monkeypatch.setattr(workers_module, "think", spy)


async def test_past_its_ceiling_a_bot_answers_with_what_it_has(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that gets no CPU (it waits) answers at its wall-clock ceiling,
    in its worker: not the quick bot, not the late bot."""
    workers = Workers(threads=True, ceiling_times=1.0, ceiling_margin=0.2, margin=600.0,
                      stretch=600.0)
    given = Holds(monkeypatch)
    game, view = first_bid()
    action, _ = await asyncio.wait_for(  # a guard against a hang (its stretch: 180 s)
        workers.choose(SleepyBot(0.3), view, random.Random(1), late=RandomBot(),
                       quick=RandomBot()), 60.0)  # its ceiling: 0.3 + 0.2 s
    assert given.ceilings[0] <= 0.5 and given.holds == [0.3 * 600.0 + STRETCH_SLACK]
    game.apply(action)
    (move,) = workers.stats.moves
    assert move.how == "thought" and workers.late_moves == 0
    assert move.cpu is not None and move.cpu < 0.3


async def test_a_starved_bot_holds_its_worker_no_more_than_its_stretch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that gets no CPU answers ``stretch`` budgets after its worker
    started, with its ceiling far off: the pool is not held by a starved search."""
    workers = Workers(threads=True, ceiling_margin=600.0, margin=600.0, stretch=2.0)
    given = Holds(monkeypatch)
    game, view = first_bid()
    action, _ = await asyncio.wait_for(  # a guard against a hang (its ceiling: 600 s)
        workers.choose(SleepyBot(0.2), view, random.Random(1), late=RandomBot(),
                       quick=RandomBot()), 60.0)
    game.apply(action)
    (move,) = workers.stats.moves
    assert move.how == "thought" and move.cpu is not None and move.cpu < 0.2
    # A free pool: two budgets and the slack, not the busy pool's one.
    assert given.holds == [0.2 * 2.0 + STRETCH_SLACK]


async def test_a_bot_asked_while_every_worker_is_busy_stretches_no_further(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A full pool gets no longer searches: a bot asked while the only worker
    is busy answers one budget after its start, not ``stretch`` budgets (here
    600 of them: two minutes)."""
    workers = Workers(1, threads=True, ceiling_margin=600.0, margin=600.0, stretch=600.0)
    workers.width = 1  # one worker, no short lane (threads run four jobs at once)
    release = threading.Event()
    given = Holds(monkeypatch)
    busy = asyncio.ensure_future(workers.run(release.wait, 60.0))
    await asyncio.sleep(0)  # it is in flight
    assert workers.in_flight == 1
    game, view = first_bid()
    asking = asyncio.ensure_future(
        workers.choose(SleepyBot(0.2), view, random.Random(1), late=RandomBot(),
                       quick=RandomBot()))
    await asyncio.sleep(0)  # asked while the worker is busy
    release.set()
    await busy
    action, _ = await asyncio.wait_for(asking, 60.0)  # a guard against a hang, not a measure
    game.apply(action)
    assert len(workers.stats.moves) == 1 and workers.late_moves == 0
    # The old policy: its budget of wall clock from the ask, no stretch (the
    # move its worker or, had the wait eaten the budget, the late bot made).
    assert given.ceilings[0] <= 0.2 and given.holds == [float("inf")]


class StuckBot(SpinBot):
    """A timed bot that thinks until it is let go, whatever its clock says
    (a worker stuck on a search)."""

    name = "stuck"

    def __init__(self, release: threading.Event) -> None:
        super().__init__(0.05)
        self.release = release

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        self.release.wait(60.0)
        return RandomBot().choose(view, rng)


async def test_a_job_its_asker_gave_up_on_holds_its_worker_in_the_count() -> None:
    """The quick bot moved for a bot whose worker is stuck: that worker is
    still busy, so the next bot asked sees a full pool."""
    # Asked and given up on 2 s later: the worker (free) starts on it long before.
    workers = Workers(1, threads=True, ceiling_times=0.0, ceiling_margin=2.0, margin=0.0)
    release = threading.Event()
    try:
        game, view = first_bid()
        await workers.choose(StuckBot(release), view, random.Random(1), late=RandomBot(),
                             quick=RandomBot())  # no answer in time: the quick bot
        assert workers.late_moves == 1 and workers.in_flight == 1
    finally:
        release.set()
    for _ in range(1000):  # the pool's thread tells the loop once it is done
        if workers.in_flight == 0:
            break
        await asyncio.sleep(0.01)
    assert workers.in_flight == 0


def test_a_late_answer_only_past_the_ceiling() -> None:
    game, view = first_bid()
    asked_long_ago = think(StrongBot(time_per_move=0.05), view, 1, time.monotonic() + 60.0,
                           RandomBot())
    assert asked_long_ago.how == "thought" and asked_long_ago.searched
    past = think(StrongBot(time_per_move=0.05), view, 1, time.monotonic() - 1.0, RandomBot())
    assert past.how == "late" and past.searched is None


class Asked(Workers):
    """Threads whose bots answer at random at once, telling when asked."""

    def __init__(self) -> None:
        super().__init__(threads=True)
        self.asked = asyncio.Event()

    async def choose(self, bot: Bot, view: Any, rng: random.Random, *, late: Bot,
                     quick: Bot, seat: int | None = None, role: str = "bot") -> Any:
        self.asked.set()
        return Move(RandomBot().choose(view, rng), "thought")


async def test_a_table_s_pacing_overlaps_its_bot_s_thinking() -> None:
    workers = Asked()
    table = Table(Game(["A", "B"], Variant.BASE, seed=2),
                  [Seat("A", bot="strong"), Seat("B")], bot_delay=600.0, workers=workers)
    table.start()
    await asyncio.wait_for(workers.asked.wait(), 60)  # asked at once, not after 600 s
    assert table.version == 0  # and its move waits for the pacing
    await table.close()


async def test_a_quick_bot_asked_while_the_long_workers_are_busy_keeps_its_cpu_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A 0.05 s bot (GoTown's strong bot) asked while a 1 s search holds the
    pool's only worker for any job runs in the short lane with the policy of
    a free pool (its budget in CPU within its stretch), not the full pool's
    budget of wall clock from the ask, which any wait turned into its late
    bot's move; a long bot asked then still gets the full pool's."""
    workers = Workers(1, threads=True, ceiling_margin=600.0, margin=600.0)
    workers.width = 2  # the pool's one worker and the short lane's
    release = threading.Event()
    given = Holds(monkeypatch)
    busy = workers.submit(release.wait, 60.0, budget=1.0)  # a long search
    await asyncio.sleep(0)
    game, view = first_bid()
    await workers.choose(SpinBot(0.05), view, random.Random(1), late=RandomBot(),
                         quick=RandomBot())
    assert given.holds == [0.05 * workers.stretch + STRETCH_SLACK]
    long = asyncio.ensure_future(workers.choose(SpinBot(0.5), view, random.Random(2),
                                                late=RandomBot(), quick=RandomBot()))
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(busy, long)
    assert given.holds[1] == float("inf")  # a full pool's: its budget from the ask
    assert workers.late_moves == 0
