"""Garbage collection without pauses that every player feels.

Every session's App is thousands of objects in reference cycles. Python's
full collection walks every tracked object in the process: with 20 sessions
it took 200-700 ms, and it ran every few seconds during play, freezing every
screen at once (measured with ``scripts/loadtest_ssh.py``). So the server
moves what has survived into the permanent generation every few seconds
(``gc.freeze``): collections then walk only what is new, which is small.

A session's start is the most the server allocates at once: an App of some
30,000 objects. Left to the interpreter's own schedule, a wave of arrivals
made young collections walk every App started since the last settle again
and again (15 ms of each start's 80, and pauses of ~200 ms). So each
session's App is settled as soon as it has drawn its first screen
(``app_started``): a young collection, then a freeze, about a millisecond.

What is frozen is never collected, so a finished session's App would stay.
``reclaim`` unfreezes everything and the next settle collects it all, one full
pause, at a time that costs little: when the last session ends (nobody
waits: it runs a second later), when many sessions ended since the last time, and at the latest every
half hour (for cycles that die old in running sessions, about 2 MiB a minute
at 100 sessions; the renders the screens share are freed without one, see
``ui/shared_lines.py``). With 100 sessions that one collection takes about
a second, so it is kept rare.

A screen a session leaves (a table's screen when its game is over, its end
screen when the rematch starts) is garbage like an ended session's App, and
as much of it: once frozen it waits for a reclaim too. Game after game at a
table where nobody leaves, nothing else asked for one, and every finished
game's screens stayed. So two screens left count as one ended session; but
only a screen a freeze met (``freezes`` went up since it was first shown):
one made and left between two freezes (an end screen for the few seconds to
a rematch, the wait for the others' answers) is walked and freed by the next
settle like any young garbage. Counted, those short-lived screens brought a
reclaim every minute at 40 sessions, game after game, and with it the
slowest keys of the load test (a 600 ms collection at 40 sessions, about
two seconds at 100).

While Apps start, the interpreter's young collections are held off
(``start_began``/``start_ended``): a start allocates some 30,000 objects that
live as long as its session, and with the default threshold (700) every one
of them was walked by a young collection, then again by a middle one,
before the settle at its first frame walked it a third time (50 arrivals:
some 200 young and 3 middle collections, half the collector's CPU in the burst).
With them held off, the settle is the one walk of what the start made; the
start's garbage (some 500 objects) waits for it, a few hundred kilobytes
at the most while the crowd arrives. A start that never draws holds them
off until its session ends; the settles every few seconds, and a young
collection once ``YOUNG_WHILE_STARTING`` objects were made, still run.

A settle freezes at most once a ``freeze_every`` (a minute); the settles in
between collect all that is not frozen. A freeze keeps for good what is
garbage a moment later (the lines a screen shows until the next move, a
hint panel's widgets until the hint changes): freezing every five seconds
kept what every move's redraw left, 12-24 MiB a minute at 20 sessions.
What is unfrozen between freezes is what survived since the last one,
mostly that short-lived garbage, which a walk frees. Most of it was the
drawn lines themselves, each a cycle through its own cache; since
``compat.textual.divide_without_cycles`` they are freed by reference
counting the moment a screen drops them, frozen or not.

While no session is live nothing is frozen: what is alive then may be a
finished session's App that something still holds for a moment (a
cancelled timer keeps the context it was made in, the App's, until its
time comes); frozen, it would stay until the next reclaim, which on an
empty server may never come.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Callable

log = logging.getLogger("fivetowers.server")

SCREEN_LEFT = 0.5
"""A screen left counts as this much of an ended session: a table screen is
most of an App (dialogs are not counted, see ``HostedApp._leaving``)."""

YOUNG_WHILE_STARTING = 200_000
"""Allocations between young collections while Apps start: more than a few
starts make (each settles what it made at its first frame)."""


class QuietCollector:
    def __init__(self, every: float = 5.0, reclaim_after: float = 1800.0,
                 reclaim_sessions: int = 10, when_empty: float = 1.0,
                 live: Callable[[], int] | None = None,
                 freeze_every: float = 60.0) -> None:
        self.live = live
        """How many sessions are live (None: not known, settles always freeze)."""
        self.empty_collected = False
        """A settle collected everything while no session was live, and no
        session started or ended since: there is nothing new to collect."""
        self.walked = False
        """A full collection ran since the last reclaim: young ones will do."""
        self.every = every
        """Seconds between settles (collect what is new, freeze what survives)."""
        self.reclaim_after = reclaim_after
        """Seconds between reclaims at the most."""
        self.reclaim_sessions = reclaim_sessions
        """This many ended sessions are collected a minute after the last reclaim."""
        self.ended = 0.0
        """Sessions ended since the last reclaim (a screen left: a half)."""
        self.last_reclaim = time.monotonic()
        self.frozen = False
        """Whether anything is frozen (since the last reclaim)."""
        self.freeze_every = freeze_every
        """Seconds between freezes at the least (a session's start freezes
        at once: its App is walked once, not at every settle)."""
        self.last_freeze = -float("inf")
        self.freezes = 0
        """Freezes so far: a screen stamped with this when first shown was
        frozen with it only if it went up since (see ``screen_left``)."""
        self.when_empty = when_empty
        """Seconds after the last session ended (its App gone by then) that
        the full collection runs, while nobody waits for it."""
        self.starting = 0
        """Apps that began their start and have not drawn their first screen."""
        self.thresholds: tuple[int, ...] | None = None
        """The interpreter's collection thresholds while no App starts
        (None: no App starts, they are in force)."""

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            if time.monotonic() - self.last_reclaim >= self.reclaim_after:
                self.reclaim()  # whatever died frozen, at the latest this often
            self.settle()

    def settle(self, freeze: bool = False) -> None:
        """Collect what is not frozen, then (at most once a ``freeze_every``,
        or when ``freeze``) freeze the survivors.

        Never a walk of the frozen heap: at 100 sessions that took
        200-500 ms. Cycles that die after their freeze wait for a reclaim.
        Right after one, this is the full collection that frees what was
        unfrozen."""
        empty = self.live is not None and self.live() == 0
        if empty and self.empty_collected:
            return
        start = time.perf_counter()
        # (gc.get_freeze_count() walks every frozen object: never asked here.)
        full = not (self.frozen or self.walked)
        # Frozen objects are not walked: with a freeze a moment ago, the
        # oldest generation is only what survived since then.
        collected = gc.collect(2 if full or self.frozen else 1)
        self.walked = self.walked or full
        self.empty_collected = empty
        now = time.monotonic()
        if not empty and (now - self.last_freeze >= self.freeze_every or freeze):
            gc.freeze()  # (see the module's docstring)
            self.frozen = True
            self.freezes += 1
            self.last_freeze = now
        pause = time.perf_counter() - start
        if pause > 0.1:
            log.info("collected %d objects in %.0f ms", collected, pause * 1000)

    def start_began(self) -> None:
        """A session's App begins its start (or waits for its turn to): no
        young collections until every start has ended (see the docstring)."""
        self.starting += 1
        if self.thresholds is None:
            self.thresholds = gc.get_threshold()
            gc.set_threshold(max(YOUNG_WHILE_STARTING, self.thresholds[0]),
                             *self.thresholds[1:])

    def start_ended(self) -> None:
        """A start that began has ended, with a first screen or without."""
        self.starting = max(0, self.starting - 1)
        if self.starting == 0 and self.thresholds is not None:
            gc.set_threshold(*self.thresholds)
            self.thresholds = None

    def app_started(self) -> None:
        """A session's App drew its first screen: settle what its start made,
        so that later collections do not walk it again."""
        self.empty_collected = False
        self.settle(freeze=True)

    def screen_left(self, live: int, shown_at: int | None = None) -> None:
        """A session left a screen for good (it is garbage); ``live`` sessions
        run. ``shown_at``: ``freezes`` when the screen was first shown (None:
        not known, counted); a screen no freeze met since is not frozen (or
        was unfrozen by a reclaim): the next settle frees it, it is not counted."""
        if shown_at is not None and not (self.frozen and self.freezes > shown_at):
            return
        self.ended += SCREEN_LEFT
        self._reclaim_if_due(live)

    def session_ended(self, live: int) -> None:
        """A session ended; ``live`` are still running."""
        self.empty_collected = False
        self.ended += 1
        self._reclaim_if_due(live)
        if live == 0:
            # Not left to the next settle: that may be the first start of a
            # crowd arriving, which would wait for a walk of the whole process.
            try:
                asyncio.get_running_loop().call_later(self.when_empty, self.settle)
            except RuntimeError:  # no event loop: the next settle does it
                pass

    def _reclaim_if_due(self, live: int) -> None:
        now = time.monotonic()
        if live == 0 or (self.ended >= max(self.reclaim_sessions, live // 2)
                         and now - self.last_reclaim >= 60):
            self.reclaim()

    def reclaim(self) -> None:
        """Everything frozen is collectable again (the next settle or the
        interpreter's own next full collection frees what is garbage)."""
        log.info("reclaim: %.1f sessions' worth of frozen garbage", self.ended)
        gc.unfreeze()
        self.frozen = self.walked = False
        self.last_freeze = -float("inf")  # the next settle walks it all once
        self.ended = 0.0
        self.last_reclaim = time.monotonic()
