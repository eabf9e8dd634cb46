"""One viewer's hold on a live table, as every game's client has it.

A game's client (5 Towers' ``TableClient``, GoTown's ``GoTownClient``) adds
what its screens read (its view, its position for a hint); the rest — which
seat acts at this terminal, submitting, being told of changes, hints and the
adviser bot's play computed in the table's workers, a problem to show — is
the same for every game and lives here.
"""

from __future__ import annotations

import asyncio
import contextvars
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Generic, Sequence, TypeVar

from fivetowers.games.protocol import Bot, Match
from fivetowers.tables.seats import BOT_NAMES, Seat, unique_name
from fivetowers.tables.table import Subscriber, Table
from fivetowers.tables.workers import Hintable, Move
from fivetowers.user_text import clean_name

G = TypeVar("G", bound=Match)
P = TypeVar("P", bound=Hintable)
H = TypeVar("H")
V = TypeVar("V")

PROBLEM_WIDTH = 66
"""A problem's longest text: with the screen's " (q quits) " it fits 80 columns."""
ADVICE_RETRY = 2.0
ADVICE_RETRY_MOST = 16.0
"""Seconds before the adviser is asked again at a version whose answer was a
busy pool's fallback: ``ADVICE_RETRY`` after the first, doubled after each
one more, at most ``ADVICE_RETRY_MOST``. A full pool answers an ask in about
its budget (5 Towers' 1 s) with its late bot, so asking at once again would
keep a worker on the fallback for nothing; a few seconds on, a worker may
be free, and a turn of 20 s asks it four times at the most (the pause
starts when the fallback comes, about the budget after the ask on a full
pool: asks at about 0, 3, 8 and 17 s)."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What a screen needs to know about a seat besides the view."""

    name: str
    bot: str | None
    connected: bool
    is_you: bool
    stand_in: bool = False
    """A bot plays this seat now, for its player who is away."""
    stand_in_at: float | None = None
    """When (the event loop's clock) a stand-in will start, while one is due."""

    @property
    def away(self) -> bool:
        """A human seat whose player is not here."""
        return not self.connected


class SeatClient(Generic[G, P, H]):
    """A seat at a table (``seat`` None: a watcher). With ``humans``, several
    human seats share this terminal and take turns (hot-seat): the acting
    seat is the human whose turn it is; while bots play, the last human to
    act keeps looking at the table (what is theirs stays theirs)."""

    def __init__(self, table: Table[G], seat: int | None, hinter: Callable[[P], H],
                 adviser: Bot | None = None, humans: Sequence[int] | None = None) -> None:
        self.table = table
        self._seat = seat
        self._hinter = hinter
        self._adviser = adviser
        self._advice: _Search | None = None
        """The adviser's play asked at (table version, seat), done or on its way."""
        self._busy: _Busy | None = None
        """The latest (table version, seat) whose adviser's answer was a busy
        pool's fallback, and when to ask again."""
        self.clock: Callable[[], float] = time.monotonic
        """What the adviser's retries are timed by (a test's own clock)."""
        self._humans = None if humans is None else tuple(humans)
        self._viewed: tuple[G, tuple[int | None, int, int], Any] | None = None

    @property
    def seat(self) -> int | None:
        if self._humans is not None:
            to_move = self.table.game.to_move
            if to_move in self._humans:
                self._seat = to_move
        return self._seat

    @property
    def human_seats(self) -> tuple[int, ...]:
        if self._humans is not None:
            return self._humans
        return () if self._seat is None else (self._seat,)

    @property
    def version(self) -> int:
        return self.table.version

    def problem(self) -> str | None:
        """Why the table cannot go on (a bot failed, the store cannot save), in
        words that fit an 80-column screen's top line, or None."""
        error = self.table.bot_error
        if error is not None:
            text = " ".join(f"a bot failed: {type(error).__name__}: {error}".split())
            return text if len(text) <= PROBLEM_WIDTH else text[:PROBLEM_WIDTH - 1] + "…"
        if self.table.cannot_save:
            return "the server cannot save moves right now; retrying…"
        return None

    def seats(self) -> list[SeatInfo]:
        mine = set(self.human_seats)
        return [SeatInfo(s.name, s.bot, s.connected or s.bot is not None, i in mine,
                         self.table.standing_in(i), s.stand_in_at)
                for i, s in enumerate(self.table.seats)]

    def stand_in_moves(self) -> dict[int, int]:
        """Action number -> seat, for the moves stand-in bots made here."""
        return self.table.stand_in_moves

    def my_turn(self) -> bool:
        return self.seat is not None and self.table.game.to_move == self.seat

    async def submit(self, action: Any) -> None:
        if self.seat is None:
            raise ValueError("spectators cannot act")
        await self.table.submit(self.seat, action)

    def start(self) -> None:
        """Let the bots move if it is their turn (safe to call from every screen)."""
        self.table.start()

    def subscribe(self, callback: Subscriber) -> None:
        self.table.subscribe(callback)

    def unsubscribe(self, callback: Subscriber) -> None:
        self.table.unsubscribe(callback)

    def _position(self) -> P | None:
        """What this seat's hint is asked for now, or None when there is none."""
        raise NotImplementedError

    async def hint(self) -> H | None:
        """The hint for this seat now, from the table's workers (None when
        there is no position to hint). Computed once per position for every
        viewer who needs it (see Workers.hint)."""
        position = self._position()
        if position is None:
            return None
        # Kept while the table is at this version (see Workers.hint).
        return await self.table.workers.hint(position, self._hinter, self.table,
                                             self.table.version)

    def once_a_move(self, make: Callable[[G, int | None], V]) -> V:
        """``make(game, seat)``, this seat's view of the game, made once per
        move however often it is read: a screen reads it several times a
        redraw (the hint, its keys' checks), and a game's view works out the
        mover's legal plays (issue 11)."""
        game, seat = self.table.game, self.seat
        moved = (seat, self.table.version, game.action_count())
        viewed = self._viewed
        if viewed is None or viewed[0] is not game or viewed[1] != moved:
            viewed = self._viewed = (game, moved, make(game, seat))
        made: V = viewed[2]
        return made

    def nothing_to_hint(self) -> bool:
        """Whether :meth:`hint` and :meth:`advice` would both answer None at
        once now: no position to hint (a watcher, a finished game, GoTown's
        seats but the mover's), and not this seat's turn."""
        return not self.my_turn() and self._position() is None

    def known_hint(self) -> H | None:
        """This seat's hint now if it is already known, without waiting for one."""
        position = self._position()
        return None if position is None else \
            self.table.workers.known_hint(position, self._hinter)

    async def advice(self) -> Any | None:
        """What the adviser bot (the strong bot) would do in this seat's place now;
        only on this seat's turn, in the table's workers, once per table version.

        Only the adviser's own search: when the pool was busy and answered
        with a fallback (its late bot, or the quick bot: see
        ``Workers.choose``), the answer is None and not kept, and
        :meth:`advice_due` says when the adviser is asked again (asked before
        then: None at once, no worker asked). A panel shows a fallback as
        the strong bot's no more.

        A screen that asks again at the same version (its fetch restarted:
        a redraw before the hint came, hints toggled) waits for the same
        search, not a second one. A search nobody waits for any more (its
        screen left, hints turned off, the table moved on) is cancelled: a
        queued one never runs. One that failed or was cancelled is not
        kept: the next ask at that version searches again (the workers
        restarted: BrokenProcessPool)."""
        seat = self.seat
        if self._adviser is None or seat is None or not self.my_turn():
            return None
        key = (self.table.version, seat)
        busy = self._busy
        if busy is not None and busy.key == key and self.clock() < busy.until:
            return None  # the pool was busy a moment ago: not asked again yet
        asked = self._advice
        if asked is None or asked.key != key or _failed(asked.task):
            if asked is not None:
                asked.task.cancel()  # its version is gone (no-op once done)
            view = self.table.game.view(seat)
            rng = random.Random(f"advice:{key}")
            # In a context of its own: asked from a screen's worker, the
            # task would keep the worker (active_worker), and with it the
            # screen that owns this client, in a cycle.
            task = asyncio.get_running_loop().create_task(self.table.workers.choose(
                self._adviser, view, rng, late=self.table.late_bot,
                quick=self.table.quick_bot, seat=seat, role="advice"),
                context=contextvars.Context())
            asked = self._advice = _Search(key, task)
            task.add_done_callback(lambda _: self._searched(asked))
        asked.waiting += 1
        try:
            move = await asyncio.shield(asked.task)
            if not move.own:
                self._fell_back(asked)  # (its callback may come a turn later)
                return None
            return move.action
        except asyncio.CancelledError:
            if asked.waiting == 1 and not asked.task.done():
                # Not at once: a screen's fetch restarted (an exclusive
                # worker: the old one cancelled, the new one started) asks
                # again at its first step, in the loop's next turn.
                asyncio.get_running_loop().call_soon(_drop_unwaited, asked)
            raise
        finally:
            asked.waiting -= 1

    def advice_due(self) -> float | None:
        """While the adviser's latest answer for this seat's turn now was a
        busy pool's fallback: the seconds until :meth:`advice` asks it again
        (0: at the next ask). Else None: its answer is its own, or on its
        way, or there is none to ask for."""
        seat = self.seat
        busy = self._busy
        if busy is None or seat is None or busy.key != (self.table.version, seat) \
                or self._advice is not None:
            return None
        return max(0.0, busy.until - self.clock())

    def _searched(self, asked: _Search) -> None:
        """An advice search ended: one that failed or was cancelled is
        forgotten (the next ask searches again, not the same error), and so
        is a busy pool's fallback (see :meth:`advice`)."""
        if _failed(asked.task):
            if self._advice is asked:
                self._advice = None
        elif not asked.task.result().own:
            self._fell_back(asked)
        elif self._busy is not None and self._busy.key == asked.key:
            self._busy = None  # the adviser's own answer, at last

    def _fell_back(self, asked: _Search) -> None:
        """The pool answered ``asked`` with a fallback: forgotten, and the
        adviser asked again at that version only after a pause, longer
        after each fallback in a row (``ADVICE_RETRY``). Once per search."""
        if asked.fell_back:
            return
        asked.fell_back = True
        if self._advice is asked:
            self._advice = None
        busy = self._busy
        times = busy.times + 1 if busy is not None and busy.key == asked.key else 1
        pause = min(ADVICE_RETRY_MOST, ADVICE_RETRY * 2 ** (times - 1))
        self._busy = _Busy(asked.key, times, self.clock() + pause)


class _Search:
    """The adviser's search for one (table version, seat), and how many
    screens wait for it."""

    __slots__ = ("key", "task", "waiting", "fell_back")

    def __init__(self, key: tuple[int, int], task: asyncio.Task[Move]) -> None:
        self.key = key
        self.task = task
        self.waiting = 0
        self.fell_back = False
        """Whether its answer was a busy pool's fallback, and was told so."""


class _Busy:
    """A (table version, seat) whose adviser's answers were a busy pool's
    fallbacks ``times`` in a row: asked again from ``until`` (the client's clock)."""

    __slots__ = ("key", "times", "until")

    def __init__(self, key: tuple[int, int], times: int, until: float) -> None:
        self.key, self.times, self.until = key, times, until


def _failed(task: asyncio.Task[Any]) -> bool:
    """Whether ``task`` ended without an answer (its error taken: a search
    nobody waits for is not logged as "Task exception was never retrieved")."""
    return task.done() and (task.cancelled() or task.exception() is not None)


def _drop_unwaited(asked: _Search) -> None:
    """Cancel ``asked`` if nobody came back for it (see SeatClient.advice)."""
    if asked.waiting == 0:
        asked.task.cancel()


def local_seats(players: int, bots: int, names: Sequence[str], bot_kind: str) -> list[Seat]:
    """The seats of ``fivetowers play``: the humans first (their names, else
    "You" or "Player n"), then ``bots`` bots ("Hedda (bot)"...)."""
    if not 0 <= bots <= players:
        raise ValueError(f"--bots must be 0..{players}, not {bots}")
    humans = players - bots
    chosen = [clean_name(n) for n in names][:players]
    defaults = ["You"] if humans == 1 else [f"Player {i + 1}" for i in range(humans)]
    defaults += [f"{n} (bot)" for n in BOT_NAMES[:bots]]
    seat_names: list[str] = []
    for n in chosen + defaults[len(chosen):]:
        seat_names.append(unique_name(n, seat_names))
    return [Seat(n, bot=bot_kind if i >= humans else None, connected=i < humans)
            for i, n in enumerate(seat_names)]
