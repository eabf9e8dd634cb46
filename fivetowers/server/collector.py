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
(``app_started``): a walk of all that is not frozen (the App and what
survived since the last freeze), then a freeze.

What is frozen is never collected, so a finished session's App would stay.
``reclaim`` unfreezes everything and the next settle collects it all, one full
pause, at a time that costs little: when the last session ends (nobody
waits: it runs a second later), when many sessions ended since the last time, and at the latest every
half hour (for cycles that die old in running sessions, about 2 MiB a minute
at 100 sessions; the renders the screens share are freed without one, see
``ui/shared_lines.py``). With 100 sessions that one collection takes about
a second, so it is kept rare, and it is the regular settle's, at an idle
moment (waited for up to ``QUIET_WAIT_FULL``): a session's start right after
a reclaim does not settle (see ``app_started``).

A screen a session leaves (a table's screen when its game is over, its end
screen when the rematch starts) is garbage like an ended session's App, and
as much of it: once frozen it waits for a reclaim too. (Unless removed
widgets die by reference counting, ``compat.freed_screens``, as they do on
the Textual that was read: then a left screen is no garbage of ours, an
ended session leaves its App's few cycles, :data:`SESSION_FREED`, and what
follows is the counting for a Textual that changed, asked at each count:
the workaround stops cutting at the first internal it no longer finds.) Game after game at a
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

A settle freezes at most once a ``freeze_every`` (a minute). A freeze
keeps for good what is garbage a moment later (the lines a screen shows
until the next move, a hint panel's widgets until the hint changes):
freezing every five seconds kept what every move's redraw left, 12-24 MiB
a minute at 20 sessions. What is unfrozen between freezes is what survived
since the last one, mostly that short-lived garbage. Most of it was the
drawn lines themselves, each a cycle through its own cache; since
``compat.textual.divide_without_cycles`` they are freed by reference
counting the moment a screen drops them, frozen or not. Freezing every
15 s instead of 60 still kept 3.5 times the cyclic garbage (70,000 objects
a minute at 40 sessions against 20,000, ``scripts/bench_collector.py``)
for settles only a fifth shorter: what they walk is mostly that garbage's
steady crop, not a minute's accumulation.

So the settles every ``every`` seconds collect the young generations (what
is new since the last), and walk all that is not frozen only once a
``walk_every`` (20 s) and before a freeze. Every settle walked it before:
at 100 sessions some 220,000 objects, 240 ms of CPU (max 530), twelve
times a minute. And the interpreter no longer walks the oldest generation
on its own schedule while settles run (``OLD_BY_SETTLES_ONLY``): it did so
five times a minute at 100 sessions, 410 ms each (up to 920), at random
moments (a rematch's burst of new screens among them), uncounted by the
settles' log. Settles and the interpreter's walks of the oldest generation
took 5.0 s of CPU a minute at 100 sessions, now 0.7 (settles p50 9 ms, max
330 against 530), and 1.6 s at 40 sessions, now 0.47 (p50 13 ms against
97); the same garbage kept (``scripts/bench_collector.py``). The price: a
walk every 20 s carries 20 s of survivors, so at 40 sessions the longest
settle got longer, 453 ms against 192 (objects walked at most 353,000
against 228,000). What waits for the next walk is at most 20 seconds'
garbage that survived the young generations.

The regular settle waits for a moment the loop idles (``quiet_moment``: a
short nap that ends on time, at most a second): a collection that starts in
the middle of a burst (a move's redraws for every viewer, keys queued)
holds up all of it; one that starts when the loop idles holds up only what
arrives while it runs. ``pauses`` keeps each settle's length by kind; the
server logs their summary when it stops (and prints it beside the stall
watch's, ``FIVETOWERS_STALLS``).

While no session is live nothing is frozen: what is alive then may be a
finished session's App that something still holds for a moment (a
cancelled timer keeps the context it was made in, the App's, until its
time comes); frozen, it would stay until the next reclaim, which on an
empty server may never come. The settles still walk the oldest generation
then, once a ``walk_every`` if a middle collection added to it: the
interpreter no longer does (garbage that outlived the young generations,
logins and refused connections, grew 40,000 objects a round without).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
import weakref
from collections import deque
from typing import Callable

log = logging.getLogger("fivetowers.server")

SCREEN_LEFT = 0.5
"""A screen left counts as this much of an ended session: a table screen is
most of an App (dialogs are not counted, see ``HostedApp._leaving``), when
left screens wait frozen for a reclaim."""

SESSION_FREED = 0.05
"""What an ended session counts for when removed widgets are freed by
reference counting (``compat.freed_screens``): its App's own cycles, some
120 objects against 3,500-5,100 (``scripts/bench_left_screens.py``); a left
screen then counts nothing. Reclaims, a second of a frozen loop at 100
sessions (the slowest keys' wait there), come about twenty times rarer:
at 100 sessions a thousand ended sessions, so the half-hourly one is the
one that comes, and cycles that die old in running sessions (some 2 MiB a
minute there) wait frozen for it, up to some 60 MiB (not measured yet;
each full collection logs what it freed, :attr:`QuietCollector.last_full`).
Only if the App itself dies, though: one still alive after the next
settle's collection counts whole (``QuietCollector.count_survivors``)."""

YOUNG_WHILE_STARTING = 200_000
"""Allocations between young collections while Apps start: more than a few
starts make (each settles what it made at its first frame)."""


OLD_BY_SETTLES_ONLY = 1_000_000
"""The interpreter's threshold for the oldest generation while settles run:
middle collections before it walks the oldest itself (never, in practice)."""


class HeldThreshold:
    """One of the interpreter's collection thresholds, raised while anything
    in the process holds it. The thresholds are the process's, not a
    collector's: each saving and restoring them on its own, a server stopped
    during a start, or two servers stopped in the order they started, left
    the process at the raised value with no collector running."""

    def __init__(self, generation: int, raised: Callable[[int], int]) -> None:
        self.generation = generation
        self.raised = raised
        """The threshold while held, from the one before the first hold."""
        self.holders = 0
        self.before = 0
        """The threshold before the first hold, given back after the last."""

    def hold(self) -> None:
        if self.holders == 0:
            self.before = gc.get_threshold()[self.generation]
            self._set(self.raised(self.before))
        self.holders += 1

    def release(self) -> None:
        if self.holders == 0:
            return
        self.holders -= 1
        if self.holders == 0:
            self._set(self.before)

    def _set(self, value: int) -> None:
        # The other generations' thresholds are whatever holds them now.
        thresholds = list(gc.get_threshold())
        thresholds[self.generation] = value
        gc.set_threshold(*thresholds)


YOUNG_HELD = HeldThreshold(0, lambda young: max(YOUNG_WHILE_STARTING, young))
"""Held by each collector while any of its Apps starts."""

OLD_HELD = HeldThreshold(2, lambda old: OLD_BY_SETTLES_ONLY)
"""Held by each running collector (``QuietCollector.run``)."""

QUIET_STEP = 0.005
"""Seconds of a nap that tells whether the loop is idle."""

QUIET_LATE = 0.001
"""A nap that ended at most this late: nothing else wanted the loop."""

QUIET_WAIT = 1.0
"""Seconds a settle waits for an idle moment at the most."""

QUIET_WAIT_FULL = 5.0
"""Seconds the full collection after a reclaim waits for one at the most:
it holds the loop a second at 100 sessions, and nothing presses (the
garbage it frees is bounded by the reclaim's trigger)."""


async def quiet_moment(longest: float = QUIET_WAIT) -> bool:
    """Return at a moment the loop has nothing else to do (a nap of
    ``QUIET_STEP`` ended on time: no burst of keys or redraws was queued),
    or after ``longest`` seconds; whether it was one. A collection started
    in the middle of a burst holds up every key of it; one started when the
    loop idles holds up only what arrives while it runs."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + longest
    while True:
        asked = loop.time()
        await asyncio.sleep(QUIET_STEP)
        woke = loop.time()
        if woke - asked - QUIET_STEP <= QUIET_LATE:
            return True
        if woke >= give_up:
            return False


class Pauses:
    """The collector's pauses of the loop, by kind ("full": a collection of
    everything, nothing frozen, after a reclaim; "settle": the regular ones;
    "start": a settle at an App's first frame), the last ``kept`` of each:
    wall-clock milliseconds."""

    def __init__(self, kept: int = 4096) -> None:
        self.taken: dict[str, deque[float]] = {}
        self.counts: dict[str, int] = {}
        """Each kind's pauses since the start (``taken`` keeps the last only)."""
        self.kept = kept
        self.since = time.monotonic()
        self.not_quiet = 0
        """Regular settles that found no idle moment (``quiet_moment`` gave up)."""

    def add(self, kind: str, ms: float) -> None:
        self.taken.setdefault(kind, deque(maxlen=self.kept)).append(ms)
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def summary(self) -> str:
        """One line: each kind's count, a minute's, and p50 / max ms of the
        last ``kept`` (and p99 from 100 of them: fewer, it is the max); the
        settles that found no idle moment."""
        minutes = max(time.monotonic() - self.since, 1.0) / 60
        parts = []
        for kind, taken in sorted(self.taken.items()):
            ordered = sorted(taken)
            p50, p99 = (ordered[min(len(ordered) - 1, int(share * len(ordered)))]
                        for share in (0.5, 0.99))
            count = self.counts[kind]
            shown = f" / p99 {p99:.0f}" if len(ordered) >= 100 else ""
            parts.append(f"{kind} {count} ({count / minutes:.1f} a minute),"
                         f" p50 {p50:.0f}{shown} / max {ordered[-1]:.0f} ms")
        if self.not_quiet:
            parts.append(f"{self.not_quiet} settles found no idle moment")
        return "collector pauses: " + ("; ".join(parts) or "none")


class QuietCollector:
    def __init__(self, every: float = 5.0, reclaim_after: float = 1800.0,
                 reclaim_sessions: int = 10, when_empty: float = 1.0,
                 live: Callable[[], int] | None = None,
                 freeze_every: float = 60.0,
                 clock: Callable[[], float] = time.monotonic, walk_every: float = 20.0,
                 screens_freed: Callable[[], bool] = lambda: False) -> None:
        self.screens_freed = screens_freed
        """Whether removed widgets die by reference counting now (the
        server's ``compat.freed_screens.screens_freed``, see
        :data:`SESSION_FREED`), else they wait frozen. Asked at each count:
        the workaround stops cutting if Textual's internals turn out changed."""
        self.walk_every = walk_every
        """Seconds between walks of all that is not frozen at the least (the
        settles in between collect the young generations; 0: every settle)."""
        self.last_walk = -float("inf")
        self.clock = clock
        """Seconds, for the policy's intervals (a bench or a test drives its own)."""
        self.pauses = Pauses()
        """How long each collection held the loop (the server reports them)."""
        self.live = live
        """How many sessions are live (None: not known, settles always freeze)."""
        self.empty_collected = False
        """A settle collected everything while no session was live, and no
        session started or ended since: only what reached the oldest
        generation since the last walk is new (walked once a ``walk_every``)."""
        self.walked = False
        """A full collection ran since the last reclaim: young ones will do."""
        self.every = every
        """Seconds between settles (collect what is new, freeze what survives)."""
        self.reclaim_after = reclaim_after
        """Seconds between reclaims at the most."""
        self.reclaim_sessions = reclaim_sessions
        """This many ended sessions are collected a minute after the last reclaim."""
        self.ended = 0.0
        """Sessions ended since the last reclaim, weighed (:attr:`screen_weight`,
        :attr:`session_weight`)."""
        self.ended_apps: list[weakref.ref[object]] = []
        """Ended sessions' Apps counted at :data:`SESSION_FREED`, to be seen
        dead after the next settle's collection (``count_survivors``)."""
        self.last_reclaim = clock()
        self.frozen = False
        """Whether anything is frozen (since the last reclaim)."""
        self.freeze_every = freeze_every
        """Seconds between freezes at the least (a session's start freezes
        at once: its App is walked once, not at every settle)."""
        self.last_freeze = -float("inf")
        self.freezes = 0
        """Freezes so far: a screen stamped with this when first shown was
        frozen with it only if it went up since (see ``screen_left``)."""
        self.reclaims = 0
        """Reclaims so far (each brings a full collection: a bench counts them)."""
        self.last_full: tuple[int, int] | None = None
        """What the last full collection (the first settle, then each
        reclaim's) freed: objects found garbage, and blocks of Python's heap
        (``sys.getallocatedblocks``, what they held besides); also logged."""
        self.when_empty = when_empty
        """Seconds after the last session ended (its App gone by then) that
        the full collection runs, while nobody waits for it."""
        self.starting = 0
        """Apps that began their start and have not drawn their first screen."""
        self.reclaimed = False
        """A reclaim unfroze everything and its full collection has not run:
        a start leaves it to the regular settle (see ``app_started``)."""

    @property
    def screen_weight(self) -> float:
        """What a left screen adds to :attr:`ended` now."""
        return 0.0 if self.screens_freed() else SCREEN_LEFT

    @property
    def session_weight(self) -> float:
        """What an ended session adds to :attr:`ended` now."""
        return SESSION_FREED if self.screens_freed() else 1.0

    async def run(self) -> None:
        # The oldest generation is walked by settles only: the interpreter's
        # own schedule walked it at random moments, a burst's middle among
        # them (see the docstring).
        OLD_HELD.hold()
        try:
            while True:
                await asyncio.sleep(self.every)
                if self.clock() - self.last_reclaim >= self.reclaim_after:
                    # (Before the wait: its full collection waits the longer one.)
                    self.reclaim()  # whatever died frozen, at the latest this often
                full = self.reclaimed
                quiet = await quiet_moment(QUIET_WAIT_FULL if full else QUIET_WAIT)
                if not quiet and self.reclaimed and not full:
                    # A reclaim came during the regular wait (a session
                    # ended, a screen left): its full collection waits as
                    # long as one known from the start.
                    quiet = await quiet_moment(QUIET_WAIT_FULL - QUIET_WAIT)
                if not quiet:
                    self.pauses.not_quiet += 1
                self.settle()
                # After its collection: an ended App in cycles it freed (one
                # never frozen: ended before its first frame, or after a
                # reclaim) waits for no reclaim.
                self.count_survivors()
        finally:
            OLD_HELD.release()

    def settle(self, freeze: bool = False) -> None:
        """Collect the young generations, or (once a ``walk_every``, and
        before a freeze) all that is not frozen; then (at most once a
        ``freeze_every``, or when ``freeze``) freeze the survivors.

        Never a walk of the frozen heap: at 100 sessions that took
        200-500 ms. Cycles that die after their freeze wait for a reclaim.
        Right after one, this is the full collection that frees what was
        unfrozen."""
        empty = self.live is not None and self.live() == 0
        now = self.clock()
        if empty and self.empty_collected and (
                gc.get_count()[2] == 0 or now - self.last_walk < self.walk_every):
            # Nobody plays: the interpreter collects the young generations on
            # its own; the oldest has had nothing added since the last walk
            # (no middle collection since), or waits for a walk_every. Never
            # walked, it grew without bound on an empty server: logins,
            # refused connections, whatever outlived two middle collections.
            return
        start = time.perf_counter()
        # (gc.get_freeze_count() walks every frozen object: never asked here.)
        full = not (self.frozen or self.walked)
        # Frozen objects are not walked: with a freeze a moment ago, the
        # oldest generation is only what survived since then.
        due = not empty and (now - self.last_freeze >= self.freeze_every or freeze)
        walk = full or due or now - self.last_walk >= self.walk_every
        # (Python's allocator counts its blocks arena by arena: cheap beside
        # a full collection, which walks every object.)
        blocks = sys.getallocatedblocks() if full else 0
        collected = gc.collect(2 if walk else 1)
        self.reclaimed = False
        if walk:
            self.last_walk = now
        self.walked = self.walked or full
        self.empty_collected = empty
        if due:
            gc.freeze()  # (see the module's docstring)
            self.frozen = True
            self.freezes += 1
            self.last_freeze = now
        pause = time.perf_counter() - start
        self.pauses.add("full" if full else "start" if freeze else "settle", pause * 1000)
        if full:
            left = sys.getallocatedblocks()
            self.last_full = (collected, blocks - left)
            log.info("full collection: %d objects, %d blocks of Python's heap freed "
                     "(%d in use) in %.0f ms", collected, blocks - left, left, pause * 1000)
        elif pause > 0.1:
            log.info("collected %d objects in %.0f ms", collected, pause * 1000)

    def start_began(self) -> None:
        """A session's App begins its start (or waits for its turn to): no
        young collections until every start has ended (see the docstring)."""
        self.starting += 1
        if self.starting == 1:
            YOUNG_HELD.hold()

    def start_ended(self) -> None:
        """A start that began has ended, with a first screen or without."""
        if self.starting == 0:
            return
        self.starting -= 1
        if self.starting == 0:
            YOUNG_HELD.release()

    def app_started(self) -> None:
        """A session's App drew its first screen: settle what its start made,
        so that later collections do not walk it again.

        Not right after a reclaim: this settle would be its full collection
        (a second at 100 sessions), and starts come in bursts (spectators
        joining the next game as the last one ends, the moment a reclaim is
        due: a spectator rejoins 2 s after its game ended, the regular
        settle comes every 5-6 s). The regular settle runs it at an idle
        moment and walks and freezes this start's App with the rest."""
        self.empty_collected = False
        if self.reclaimed:
            return
        self.settle(freeze=True)

    def screen_left(self, live: int, shown_at: int | None = None) -> None:
        """A session left a screen for good (it is garbage); ``live`` sessions
        run. ``shown_at``: ``freezes`` when the screen was first shown (None:
        not known, counted); a screen no freeze met since is not frozen (or
        was unfrozen by a reclaim): the next settle frees it, it is not counted."""
        if shown_at is not None and not (self.frozen and self.freezes > shown_at):
            return
        self.ended += self.screen_weight
        self._reclaim_if_due(live)

    def session_ended(self, live: int, app: object | None = None) -> None:
        """A session ended; ``live`` are still running. ``app``, its App:
        counted at :data:`SESSION_FREED` only if it dies by reference
        counting, which the next settle sees after its collection
        (``count_survivors``)."""
        self.empty_collected = False
        self.ended += self.session_weight
        if app is not None and self.session_weight < 1.0:
            self.ended_apps.append(weakref.ref(app))
        self._reclaim_if_due(live)
        if live == 0:
            # Not left to the next settle: that may be the first start of a
            # crowd arriving, which would wait for a walk of the whole process.
            try:
                asyncio.get_running_loop().call_later(self.when_empty, self.settle)
            except RuntimeError:  # no event loop: the next settle does it (and counts)
                pass

    def count_survivors(self) -> None:
        """Ended sessions' Apps still alive after the first settle's
        collection since their end are held by cycles: they and all they
        hold wait frozen for a reclaim, so each counts as a whole ended
        session. (At 100 sessions, 480 s, the Apps the shared renders knew
        of grew from 111 to 173 while some 100 sessions ran: counted at
        SESSION_FREED, ended Apps waited for the half-hourly reclaim,
        8.3 MiB a minute.) The first settle, not a later one: what held an
        ended App a few seconds (a stopped toast's timer handle, its
        context) is let go of as its session ends (``compat/ended_app.py``),
        and a session lets go of its App in the step of the loop that tells
        ``session_ended`` (``Session.run``), before any settle."""
        alive = sum(ref() is not None for ref in self.ended_apps)
        self.ended_apps.clear()
        if alive:
            self.ended += alive * (1.0 - SESSION_FREED)
            if self.live is not None:
                self._reclaim_if_due(self.live())

    def _reclaim_if_due(self, live: int) -> None:
        now = self.clock()
        if live == 0 or (self.ended >= max(self.reclaim_sessions, live // 2)
                         and now - self.last_reclaim >= 60):
            self.reclaim()

    def reclaim(self) -> None:
        """Everything frozen is collectable again (the next settle's full
        collection frees what is garbage)."""
        log.info("reclaim: %.1f sessions' worth of frozen garbage", self.ended)
        self.reclaims += 1
        gc.unfreeze()
        self.reclaimed = True
        self.frozen = self.walked = False
        self.last_freeze = -float("inf")  # the next settle walks it all once
        self.ended = 0.0
        self.ended_apps.clear()  # (their full collection comes next)
        self.last_reclaim = self.clock()
