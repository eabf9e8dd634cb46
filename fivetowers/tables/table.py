"""A live table: one game, its seats and watchers, one action at a time.

The table knows its game only through the platform's protocol
(:mod:`fivetowers.games.protocol`): a :class:`Match` it applies actions to,
views, copies and asks whether it is over, and the game's :class:`GameKind`
for its bots. Any registered game can be played at a table.

Every front end (a local terminal, many SSH sessions) submits actions to the
same :class:`Table`; the engine is the one validator. An accepted action is
applied to a copy of the game, the copy is handed to the ``on_action``
persistence hook, and only once the hook has returned (or, for an async
hook, its commit has been awaited) does the copy become the table's game and
anyone is told: a screen never shows what the store has not got (DESIGN.md
"the log is the truth"), and the event loop serves every other session while
the disk syncs ("slow work off the event loop"). Subscribers get a
:class:`TableEvent` with the new version and read their own ``view(seat)``.
Bots think in the table's :class:`~fivetowers.tables.workers.Workers` (worker
processes for the server, threads when none are given), paced by
``bot_delay`` so humans can follow them (the pacing overlaps their
thinking), and their moves take the same path.

When the store cannot keep a move (a full disk) nothing changes: a player is
told and may try again; a bot tries again by itself, waiting longer after
each failure (up to ``SAVE_RETRY_MAX``); :attr:`Table.cannot_save` tells
every screen until a move is kept again, and the table goes on by itself.

When servers share a store, another server may keep a move at this table
first: the store refuses this one as stale (:class:`StaleAction`), the
table reads the store's game (its ``catch_up`` hook, set by
:class:`~fivetowers.tables.remote.Driving`), checks the move again against
it and keeps it if it is still allowed, else refuses it in the game's
words; a bot whose move is refused so thinks again.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import random
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Generic, Sequence, TypeVar

from fivetowers.games import game_of_record
from fivetowers.games.protocol import ActionRefused, Bot, GameKind, Match
from fivetowers.tables.seats import Seat
from fivetowers.tables.store import ActionHook, StaleAction
from fivetowers.tables.workers import Workers, threads

__all__ = ["ActionHook", "ActionNotKept", "NotYourSeat", "Table", "TableEvent", "TooLate"]

M = TypeVar("M", bound=Match)


SAVE_RETRY_FIRST = 0.5
"""Seconds a bot waits before trying again a move the store could not keep ..."""
SAVE_RETRY_MAX = 10.0
"""... doubling after each failure up to this, so a freed disk is noticed soon."""
NOT_SAVED = "the server cannot save moves right now: nothing changed, try again soon"
"""What a player whose move was not kept reads (the cause goes to the server's log)."""
STALE_RETRIES = 5
"""How often a move refused as stale is checked and kept again (another server
moved first each time) before the player is asked to try again."""


class ActionNotKept(ActionRefused):
    """The store could not keep an action: it was refused and nothing changed.

    An :class:`ActionRefused` so that every screen shows the reason the way it
    shows any refused move, and the player can simply try again."""


class NotYourSeat(ActionRefused):
    """An action for a seat other than the submitter's."""


class TooLate(ActionRefused):
    """The table moved on under a move so often that it was given up."""


class TableClosed(ActionRefused):
    """A move at a table that was closed (its game left the lobby, or the
    server is stopping): no longer kept, so not made."""


@dataclass(frozen=True, slots=True)
class TableEvent:
    """Something changed at the table: read your view again."""

    version: int
    over: bool


Subscriber = Callable[[TableEvent], None]


class Table(Generic[M]):
    """One game (any registered game's :class:`Match`) and everyone at it.

    ``kind`` is the game's :class:`GameKind` (default: the registered game
    whose records have the format of ``game``'s setup)."""

    def __init__(self, game: M, seats: Sequence[Seat], *, kind: GameKind | None = None,
                 bot_delay: float = 0.8, on_action: ActionHook | None = None,
                 bot_seed: int | None = None, bots: dict[int, Bot] | None = None,
                 workers: Workers | None = None) -> None:
        if len(seats) != game.player_count:
            raise ValueError(f"{len(seats)} seats for a {game.player_count}-player game")
        self.game: M = game
        """The game as the store has it (see :meth:`_commit`)."""
        setup = game.setup_json()
        self.kind: GameKind = kind if kind is not None else game_of_record(setup)
        self.seats = list(seats)
        self.spectators = 0
        self.bot_delay = bot_delay
        self.on_action = on_action
        self.workers = workers or threads()
        """Where this table's bots think and its hints are computed."""
        self.version = 0
        self._lock = asyncio.Lock()
        self._subscribers: list[Subscriber] = []
        self._closed = False
        # One RNG per bot seat so a seeded game replays the same bot choices
        # (a game's seed, if it has one, is in its setup).
        seed = setup.get("seed") if bot_seed is None else bot_seed
        self._rngs = {i: random.Random(f"{seed}:{i}") for i in range(len(seats))}
        self._bots: dict[int, Bot] = dict(bots or {})
        for i, seat in enumerate(self.seats):
            if seat.bot is not None and i not in self._bots:
                self._bots[i] = self.kind.make_bot(seat.bot)
        self._quick: Bot | None = None
        self._late: Bot | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self.stand_in_moves: dict[int, int] = {}
        """Action number -> the seat a stand-in bot made it for (its player away)."""
        self.bot_error: BaseException | None = None
        self.cannot_save = False
        """The last move tried was not kept by the store (until one is)."""
        self.save_retry_first = SAVE_RETRY_FIRST
        self.save_retry_max = SAVE_RETRY_MAX
        self.reload_game: Callable[[], Awaitable[M]] | None = None
        """The store's game, when it refused a move as stale (another server
        kept one first); None where no other server writes (a stale move is
        then a bug, refused as not kept)."""

    # -- reading -------------------------------------------------------------
    def view(self, seat: int | None) -> Any:
        return self.game.view(seat)

    @property
    def over(self) -> bool:
        return self.game.is_terminal()

    def record(self) -> dict[str, Any]:
        """The game's record so far (its JSON document)."""
        return self.game.record_json()

    def make_bot(self, bot_kind: str) -> Bot:
        """A bot of this table's game (a stand-in for an absent player)."""
        return self.kind.make_bot(bot_kind)

    @property
    def quick_bot(self) -> Bot:
        """The game's weakest bot: it moves here when the workers are jammed."""
        if self._quick is None:
            self._quick = self.kind.make_bot(self.kind.bot_kinds[0])
        return self._quick

    @property
    def late_bot(self) -> Bot:
        """The game's bot for a late answer, played in the worker."""
        if self._late is None:
            self._late = self.kind.make_bot(self.kind.late_bot)
        return self._late

    def is_bot(self, seat: int | None) -> bool:
        return seat is not None and seat in self._bots

    def standing_in(self, seat: int) -> bool:
        """Whether a stand-in bot plays this human seat now (its player is away)."""
        return seat in self._bots and self.seats[seat].bot is None

    def seats_changed(self) -> None:
        """Someone came or went (a seat's ``connected``, ``stand_in_at``):
        every screen reads the seats again."""
        self._notify()

    def stand_in(self, seat: int, bot: Bot | None) -> None:
        """Let ``bot`` play ``seat`` while its player is away; None gives it back.

        A seat that belongs to a bot (``Seat.bot``) keeps its own bot."""
        if bot is not None:
            self._bots[seat] = bot
            self.start()
        elif self.seats[seat].bot is None:
            self._bots.pop(seat, None)
        self._notify()

    # -- subscribing ---------------------------------------------------------
    def subscribe(self, callback: Subscriber) -> None:
        self._subscribers.append(callback)

    def unsubscribe(self, callback: Subscriber) -> None:
        if callback in self._subscribers:
            self._subscribers.remove(callback)

    def _notify(self) -> None:
        event = TableEvent(self.version, self.over)
        for callback in list(self._subscribers):
            callback(event)

    # -- acting --------------------------------------------------------------
    async def submit(self, seat: int, action: Any) -> None:
        """Apply ``action`` for ``seat`` once it is kept, or raise the game's
        ActionRefused (:class:`ActionNotKept` if the store failed)."""
        async with self._lock:
            await self._commit(action, seat)
        self._notify()
        self.start()

    async def _commit(self, action: Any, seat: int) -> None:
        """Apply to a copy, keep, swap in, count: all or nothing (hold the lock).

        The game refuses (changing nothing) an action it does not allow; the
        table refuses one the game allows but that is not ``seat``'s to make
        (a game's actions need not name their seat). While the hook awaits
        the disk the table's game is still the one before, so every screen
        keeps showing what the store has; if the hook fails the copy is
        dropped and the game stays as it was. A move refused as stale is
        checked again against the store's game (:meth:`_caught_up`)."""
        for _ in range(STALE_RETRIES):
            if self.game.to_move != seat:
                self.game.clone().apply(action)  # the game's refusal, in its words, if any
                raise NotYourSeat("you can only act for your own seat")
            if self._closed:
                raise TableClosed("this table is closed: the move was not made")
            if self.on_action is None:
                self.game.apply(action)
                break
            after = self.game.clone()
            after.apply(action)
            try:
                kept = self.on_action(after)
                if inspect.isawaitable(kept):
                    await self._kept(asyncio.ensure_future(kept), after)
            except asyncio.CancelledError:
                raise
            except StaleAction as exc:
                if self.reload_game is None:
                    raise self._not_kept() from exc
                await self._caught_up()
                continue
            except Exception as exc:
                raise self._not_kept() from exc
            self.game = after
            break
        else:
            raise TooLate("the table kept moving: try your move again")
        self.cannot_save = False
        self.version += 1

    def _not_kept(self) -> ActionNotKept:
        """The refusal of a move the store failed to keep; every screen is told."""
        if not self.cannot_save:
            self.cannot_save = True
            self._notify()  # every screen says so, not only the mover's
        return ActionNotKept(NOT_SAVED)

    async def _caught_up(self) -> None:
        """Take the store's game, ahead of ours (hold the lock); every screen
        shows it at once, whether or not the move that met it is kept."""
        assert self.reload_game is not None
        try:
            game = await self.reload_game()
        except Exception as exc:
            raise self._not_kept() from exc
        if game.action_count() <= self.game.action_count():
            # Refused as stale, yet the store is not ahead: a finished or
            # abandoned table. Nothing will make this move fit.
            raise ActionNotKept("this table takes no more moves")
        self.game = game
        self.version += 1
        self._notify()
        self.start()  # a bot's turn may have come (its task waits for the lock)

    async def _kept(self, commit: asyncio.Future[None], after: M) -> None:
        """Await ``commit``; if the submitter is cancelled meanwhile (its session
        closed, the table closes), the store may still keep the action: wait for
        its answer and, if kept, swap the game in all the same, so the table and
        the store never disagree. Then the cancellation goes on."""
        try:
            await asyncio.shield(commit)
        except asyncio.CancelledError:
            await asyncio.wait({commit})
            if not commit.cancelled() and commit.exception() is None:
                self.game = after
                self.version += 1
                self._notify()
                self.start()  # the bots' turn may have come
            raise

    async def adopt(self, game: M) -> bool:
        """Take ``game``, replayed from the store, if it is ahead of the table's
        (another server appended a move its player made here: see
        :mod:`fivetowers.tables.remote`); whether it was. A bot thinking
        meanwhile thinks again (the version moved)."""
        async with self._lock:
            if game.action_count() <= self.game.action_count():
                return False
            self.game = game
            self.version += 1
        self._notify()
        self.start()
        return True

    def start(self) -> None:
        """Let a bot move if it is a bot's turn (call once the table is set up).

        The bot task runs in a fresh context: created in the calling session's
        context it would hold that session's App (Textual's active-app
        context variable) for as long as the bots play on."""
        if self._closed or self.over or not self.is_bot(self.game.to_move):
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(
                self._bot_turns(), context=contextvars.Context())

    async def _bot_turns(self) -> None:
        failures = 0  # the bots' moves the store could not keep, in a row
        try:
            while not self.over and self.is_bot(self.game.to_move):
                seat = self.game.to_move
                assert seat is not None
                view = self.game.view(seat)
                version = self.version
                bot = self._bots[seat]
                thinking = self.workers.choose(bot, view, self._rngs[seat], late=self.late_bot,
                                               quick=self.quick_bot, seat=seat)
                if self.bot_delay:  # the pacing overlaps the thinking: the later of the two
                    move, _ = await asyncio.gather(thinking, asyncio.sleep(self.bot_delay))
                else:
                    move = await thinking
                action = move.action  # a bot seat plays a busy pool's fallback too
                async with self._lock:
                    # Its player came back and moved meanwhile: think again.
                    if self._bots.get(seat) is not bot or self.version != version:
                        continue
                    try:
                        await self._commit(action, seat)
                    except ActionNotKept:
                        failures += 1
                    except ActionRefused:
                        if self.version == version:
                            raise  # a bot's own bad move: a bug, reported below
                        continue  # another server moved first (caught up): think again
                    else:
                        failures = 0
                        if self.seats[seat].bot is None:  # a stand-in's move: the log says so
                            self.stand_in_moves[self.game.action_count() - 1] = seat
                if failures:  # nothing changed: think again after a pause
                    doubled = self.save_retry_first * 2 ** min(failures - 1, 30)
                    await asyncio.sleep(min(self.save_retry_max, doubled))
                    continue
                self._notify()
        except Exception as exc:  # a broken bot must not take the table down silently
            self.bot_error = exc
            self._notify()

    async def wait_idle(self) -> None:
        """Until no bot is to move (for tests and for closing cleanly)."""
        while self._bot_task is not None and not self._bot_task.done():
            await asyncio.shield(self._bot_task)

    async def close(self) -> None:
        if self._bot_task is not None and not self._bot_task.done():
            self._bot_task.cancel()
            try:
                await self._bot_task
            except asyncio.CancelledError:
                pass
        self._subscribers.clear()
        self._closed = True
        # A closed table keeps no more moves. Its hook (the lobby's) holds the
        # lobby's entry for the table, which holds the table: a cycle that the
        # server's frozen collector would keep until its half-hourly reclaim.
        self.on_action = None
