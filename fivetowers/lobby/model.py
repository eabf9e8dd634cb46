"""The hosted tables: a registry every SSH session shares (no Textual here).

A table is *forming* until every human seat is taken, then it holds a
:class:`~fivetowers.tables.table.Table` that runs the game. Seats belong to an
identity (a key fingerprint): the same key coming back gets the same seat,
mid-game included. A player who drops out keeps the seat; after
``absence_bot_after`` seconds a bot plays it until they return.

Keys cost nothing, so a table must not cost the host for long once no human
is there (seated and connected, or watching): after ``pause_after`` seconds
its stand-in bots step back, so the game stops at the first absent player's
turn; a human arriving sets them on again. After ``close_after`` seconds it
is closed: it leaves the lobby and memory, and its stored game is marked
abandoned (shown in "my games", replayable, never served again). Tables are
also limited per key, per address and in all (:class:`LobbyLimits`).

A table is of any registered game (:attr:`HostedTable.kind`, with the
options its creator chose); the game's own rule says how many may play. This
module imports no screen and no Textual: the game's screens are the App's
business (:mod:`fivetowers.lobby.app`).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import random
import time
import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Coroutine, Mapping, Protocol

from fivetowers.games import UnknownGame, game_kind
from fivetowers.games.protocol import GameKind, Match, RecordError, check_options
from fivetowers.i18n import N_, _, ngettext
from fivetowers.i18n.terms import REMATCH_WANTED
from fivetowers.lobby.limits import LobbyLimits, address_group
from fivetowers.lobby.limits import (  # re-exported: the limit per key lived here
    MAX_TABLES_PER_PLAYER as MAX_TABLES_PER_PLAYER)
from fivetowers.tables.seats import BOT_NAMES, unique_name
from fivetowers.user_text import clean_name, clean_text
from fivetowers.tables.restore import RestoreReport, restore
from fivetowers.tables.seats import Seat
from fivetowers.tables.store import (
    PendingAction, Store, StoredSeat, StoreError, StoreUnavailable,
)
from fivetowers.tables.store_writer import StoreWriter
from fivetowers.tables.table import ActionHook, Table, TableEvent
from fivetowers.tables.workers import Workers

log = logging.getLogger("fivetowers.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I look-alikes
CODE_LENGTH = 5
CHAT_LENGTH = 120
CHAT_KEPT = 50
CHAT_BURST = 3
"""Chat lines a player may send at once; then one more every CHAT_EVERY seconds."""
CHAT_EVERY = 2.0
TITLE_LENGTH = 24
"""Longest table title kept (the new-table form allows as much)."""


@dataclass(frozen=True, slots=True)
class ChatLine:
    name: str
    text: str
    moves: int = 0
    """The game's actions when it was said (0 before it started): where a
    table screen shows it among the moves."""


PROGRESS_WORDS = {"round": N_("round {number}"), "turn": N_("turn {number}")}
"""The words of the games' ``progress()`` ("round 3", "turn 12"): the games
translate nothing, so a table list translates them for its viewer."""


OPTION_VALUES = frozenset({N_("base"), N_("great-powers")})
"""Options' values that are words (the rules column shows values, as records
keep them): translated for the viewer; numbers stay as they are."""


def option_text(value: str) -> str:
    """An option's value as a table list shows it to this viewer."""
    return _(value) if value in OPTION_VALUES else value


def progress_text(progress: str) -> str:
    """A game's ``progress()`` in the viewer's language (as it is if unknown)."""
    word, _space, number = progress.rpartition(" ")
    template = PROGRESS_WORDS.get(word)
    return _(template).format(number=number) if template and number.isdigit() else progress


class LobbyError(ValueError):
    """A lobby request that cannot be done, with a player-readable reason."""


def _option_refusal(game: GameKind, options: Mapping[str, str]) -> str:
    """Why :func:`check_options` refused ``options``, in the player's language."""
    known = {o.key: o for o in game.options}
    for key, value in options.items():
        option = known.get(key)
        if option is None:
            return _("{game} has no option {key}").format(game=game.title, key=repr(key))
        if value not in {v for v, _text in option.choices}:
            return _("{game}: {option} cannot be {value}").format(
                game=game.title, option=_(option.label), value=repr(value))
    return _("{game}: those options do not go together").format(game=game.title)


class TableCrossing(Protocol):
    """What the lobby asks of the servers it shares its tables with
    (:class:`fivetowers.lobby.crossing.Crossing`) for tables driven elsewhere."""

    def refresh(self) -> None: ...
    def sit(self, hosted: HostedTable, identity: str, name: str,
            session: object | None) -> int: ...
    def away(self, hosted: HostedTable, identity: str, session: object | None) -> None: ...
    def watch(self, hosted: HostedTable, here: bool) -> None: ...
    def play_again(self, old: HostedTable, identity: str, name: str,
                   session: object | None) -> HostedTable: ...
    def serving(self, hosted: HostedTable) -> None: ...
    async def close(self) -> None: ...


@dataclass(eq=False)
class HostedTable:
    code: str
    name: str
    kind: GameKind
    """The game played here."""
    options: dict[str, str]
    """Its options (every one of ``kind.options``), as the creator chose them."""
    private: bool
    seats: list[Seat]
    table: Table[Match] | None = None
    watchers: int = 0
    created: float = field(default_factory=time.time)
    table_id: int | None = None
    """The table's id in the store, once its game has started (with a store)."""
    kept: asyncio.Future[int] | None = None
    """The store's answer to keeping the new table (its id), while it is due."""
    finished: bool = False
    opened_from: str | None = None
    """The address (group, see :func:`address_group`) the table was created
    from; None for tables served again from the store."""
    unattended_since: float | None = None
    """Since when (the lobby's clock) no human is here; None while one is."""
    paused: bool = False
    """Its stand-in bots stepped back: nobody is here to see the game."""
    _paused_seats: set[int] = field(default_factory=set)
    """Seats that had a stand-in (or were waiting for one) when it paused."""
    _takeovers: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    """Seats whose player is away -> the timer that brings their stand-in."""
    chat: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=CHAT_KEPT))
    chat_listeners: list[Callable[[ChatLine], None]] = field(default_factory=list)
    _chat_budget: dict[str, tuple[float, float]] = field(default_factory=dict)
    """identity -> (lines it may still send, when that was counted)."""
    _present: dict[str, weakref.WeakSet[object]] = field(default_factory=dict)
    """identity -> the sessions of that player at this table: one player may
    have two terminals open, and leaving one leaves the seat taken."""
    is_rematch: bool = False
    """A new game at a table whose game is over, for the same players."""
    _rematch: weakref.ReferenceType[HostedTable] | None = field(default=None, repr=False)
    """(See :attr:`rematch`.) Weak: whatever still holds a finished game (a
    screen, or a task a screen started while it showed, Textual's context
    token) held through it the next game, and through that one's the next:
    game after game at a table every game stayed (its table, log and views:
    ~65 KiB a three-seat 5 Towers game, ``scripts/bench_games_memory.py``)."""
    pending: set[int] = field(default_factory=set)
    """(A rematch) the seats whose player has not said yes yet: it starts
    when none is left; who leaves, or does not answer, gets a bot."""
    answer_timer: asyncio.TimerHandle | None = None
    """(A rematch) when the players who have not answered get a bot (at a
    server guessing another's rematch: when it stops waiting for that one)."""
    gone_why: str | None = None
    """Why a table forming at another server left this lobby with players
    waiting at it (a template with ``{code}`` the screens translate); None:
    that server stopped."""
    remote: bool = False
    """Driven by another server sharing the store (see :mod:`fivetowers.lobby.crossing`):
    its bots, timers and end are that server's; this one seats and shows."""
    outbox: Callable[[ChatLine], None] | None = None
    """Where this table's own chat lines go besides its listeners (the other servers)."""

    @property
    def rematch(self) -> HostedTable | None:
        """Once the game is over and a player asked to play again: the new game
        at this table, forming until its players have answered; None once it
        is gone (the lobby lists it while it forms or plays: see
        :attr:`rematch_offered`)."""
        return None if self._rematch is None else self._rematch()

    @rematch.setter
    def rematch(self, again: HostedTable | None) -> None:
        self._rematch = None if again is None else weakref.ref(again)

    @property
    def rematch_offered(self) -> bool:
        """Whether a rematch of this game was offered, gone since or not: a
        yes then is too late, it never offers another."""
        return self._rematch is not None

    # -- who is here ------------------------------------------------------------
    def arrive(self, identity: str, session: object) -> None:
        """``session`` (an App) of this player is at the table until :meth:`depart`."""
        self._present.setdefault(identity, weakref.WeakSet()).add(session)

    def depart(self, identity: str, session: object | None) -> bool:
        """``session`` left; True if the player has left (no session of
        theirs is here any more), False while another one still is."""
        sessions = self._present.get(identity)
        if sessions is None:
            return True
        sessions.discard(session)
        if sessions:
            return False
        del self._present[identity]
        return True

    @property
    def present(self) -> bool:
        """Whether a seated player of this table has a session here."""
        return bool(self._present)

    def is_here(self, identity: str) -> bool:
        """Whether this player has a session at this table."""
        return bool(self._present.get(identity))

    # -- stand-ins for absent players ------------------------------------------
    @property
    def awaiting_stand_in(self) -> frozenset[int]:
        """The seats whose stand-in bot is due (their player is away)."""
        return frozenset(self._takeovers)

    def await_stand_in(self, seat: int, timer: asyncio.TimerHandle) -> None:
        """``timer`` brings ``seat``'s stand-in; one replaces any earlier one."""
        old = self._takeovers.pop(seat, None)
        if old is not None:
            old.cancel()
        self._takeovers[seat] = timer
        self.seats[seat].stand_in_at = timer.when()  # the screens count down to it

    def stand_in_due(self, seat: int) -> None:
        """``seat``'s timer went off: it is no longer pending."""
        self._takeovers.pop(seat, None)
        self.seats[seat].stand_in_at = None

    def cancel_stand_in(self, seat: int) -> bool:
        """Stop ``seat``'s pending stand-in; True if one was pending."""
        timer = self._takeovers.pop(seat, None)
        self.seats[seat].stand_in_at = None
        if timer is None:
            return False
        timer.cancel()
        return True

    def cancel_stand_ins(self) -> None:
        for seat, timer in self._takeovers.items():
            timer.cancel()
            self.seats[seat].stand_in_at = None
        self._takeovers.clear()

    def end_answers(self) -> None:
        """(A rematch) it no longer waits for answers: its timer, which would
        hold the table, its game and its record until it fired, goes."""
        if self.answer_timer is not None:
            self.answer_timer.cancel()
            self.answer_timer = None

    def note_paused(self, seat: int) -> None:
        """``seat`` had a stand-in (or was waiting for one) when the table paused."""
        self._paused_seats.add(seat)

    def forget_paused(self, seat: int) -> None:
        """``seat``'s player is back: no stand-in for them on resuming."""
        self._paused_seats.discard(seat)

    def take_paused(self) -> set[int]:
        """The seats noted while paused (and forget them): they get their stand-in back."""
        seats, self._paused_seats = self._paused_seats, set()
        return seats

    def announce(self, name: str, text: str, tell_others: bool = False) -> None:
        """A line from the table itself (not rate-limited: the lobby's words),
        or (``tell_others`` False) one another server sent."""
        # Another server cleaned its player's words; cleaned again here, so
        # no peer's bug or old release reaches a terminal unescaped.
        line = ChatLine(clean_name(name), clean_text(text, CHAT_LENGTH),
                        0 if self.table is None else self.table.game.action_count())
        self.chat.append(line)
        for listener in list(self.chat_listeners):
            listener(line)
        if tell_others and self.outbox is not None:
            self.outbox(line)

    @property
    def rules_text(self) -> str:
        """The options it is played with, as table lists show them."""
        return " ".join(option_text(self.options[o.key]) for o in self.kind.options)

    def say(self, identity: str, name: str, raw: str, now: float | None = None) -> str | None:
        """Send a chat line to everyone at the table; None, or why it was not sent."""
        text = clean_text(raw, CHAT_LENGTH)
        name = clean_name(name)
        if not text:
            return _("nothing to send")
        now = time.monotonic() if now is None else now
        tokens, then = self._chat_budget.get(identity, (float(CHAT_BURST), now))
        tokens = min(float(CHAT_BURST), tokens + (now - then) / CHAT_EVERY)
        if tokens < 1:
            return _("slow down: one line every {seconds} seconds").format(seconds=f"{CHAT_EVERY:g}")
        self._chat_budget[identity] = (tokens - 1, now)
        line = ChatLine(name, text, 0 if self.table is None else self.table.game.action_count())
        self.chat.append(line)
        for listener in list(self.chat_listeners):
            listener(line)
        if self.outbox is not None:
            self.outbox(line)
        return None

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.bot is None]

    @property
    def free_seats(self) -> list[int]:
        return [i for i in self.humans if self.seats[i].identity is None]

    @property
    def started(self) -> bool:
        return self.table is not None

    @property
    def over(self) -> bool:
        return self.table is not None and self.table.game.is_terminal()

    def seat_of(self, identity: str) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.identity == identity:
                return i
        return None

    def status(self) -> str:
        if self.table is None and self.pending:
            names = _(" and ").join(self.seats[i].name for i in sorted(self.pending))
            return _("a rematch: waiting for {names} to say yes (n on the end screen); "
                     "whoever leaves or does not answer gets a bot").format(names=names)
        if self.table is None:
            free = len(self.free_seats)
            return ngettext("waiting for {count} player", "waiting for {count} players",
                            free).format(count=free)
        if self.over:
            return _("game over")
        away = sum(1 for i in self.humans if not self.seats[i].connected)
        status = _("playing, {progress}").format(progress=progress_text(self.table.game.progress()))
        if away:
            status += _(", {count} away").format(count=away)
        return status + (_(", paused") if self.paused else "")

    @property
    def attended(self) -> bool:
        """Whether a human is here: a seated player connected, or a watcher."""
        return self.watchers > 0 or any(self.seats[i].connected for i in self.humans)

    def taken(self) -> str:
        sitting = sum(1 for s in self.seats if s.bot is not None or s.identity is not None)
        return f"{sitting}/{len(self.seats)}"


class Lobby:
    """Every hosted table, by code; listeners hear of any change."""

    def __init__(self, *, bot_kind: str = "strong", bot_delay: float = 0.8,
                 absence_bot_after: float = 60.0, hints: bool = True,
                 rng: random.Random | None = None, store: Store | None = None,
                 limits: LobbyLimits | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 workers: Workers | None = None) -> None:
        self.workers = workers
        """Where every table's bots (stand-ins too) think and hints are computed:
        the server's worker processes; None: threads (tests)."""
        self.store = store
        """Where started games are kept, action by action, before anyone sees
        them (DESIGN.md "the log is the truth"); None keeps nothing."""
        self.writer = StoreWriter(store) if store is not None else None
        """Every store call of a running server, on the writer's thread: the
        loop awaits the disk instead of waiting for it ("slow work off the
        event loop"). :meth:`close` closes it and the store."""
        self.bot_kind = bot_kind
        """The bots of new tables, for games that have it (else their strongest)."""
        self.hints = hints
        """Whether seated players' screens start with the hint panel shown."""
        self.bot_delay = bot_delay
        self.absence_bot_after = absence_bot_after
        self._rng = rng or random.Random()
        self.limits = limits if limits is not None else LobbyLimits()
        self._clock = clock
        """Measures unattended time; injected by tests."""
        self._checking: asyncio.TimerHandle | None = None
        self._abandoning: set[asyncio.Task[Any]] = set()
        """Closed tables being marked abandoned: :meth:`close` waits for them."""
        self.tables: dict[str, HostedTable] = {}
        self._listeners: list[Callable[[], None]] = []
        self.crossing: TableCrossing | None = None
        """The servers this lobby shares its tables with (:meth:`share`), if any."""

    def share(self, crossing: TableCrossing) -> None:
        """List and seat at every table of the servers sharing the store, and
        let them seat at this one's (call before :meth:`restore`)."""
        self.crossing = crossing
        crossing.refresh()

    # -- listening -----------------------------------------------------------
    def subscribe(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    def changed(self) -> None:
        """Tell every lobby screen to list again."""
        self._changed()

    # -- tables --------------------------------------------------------------
    def listing(self, identity: str) -> list[HostedTable]:
        """Public tables, and private ones this identity sits at, newest first."""
        shown = [t for t in self.tables.values()
                 if not t.private or t.seat_of(identity) is not None]
        return sorted(shown, key=lambda t: -t.created)

    def find(self, code: str) -> HostedTable | None:
        return self.tables.get(code.strip().upper())

    def create(self, identity: str, name: str, *, title: str, players: int, bots: int,
               private: bool, kind: str = "fivetowers", options: Mapping[str, str] | None = None,
               address: str | None = None) -> HostedTable:
        """A new table of the game registered as ``kind`` (with ``options``, the
        rest by default) with its creator in seat 0 and bots in the last ``bots``
        seats. ``address`` (the creator's) counts against
        :attr:`LobbyLimits.tables_per_address`."""
        try:
            game = game_kind(kind)
        except UnknownGame:
            raise LobbyError(_("unknown game {name}").format(name=repr(kind))) from None
        if game.players_problem(players) is not None:
            raise LobbyError(_("{game} is for {least} to {most} players, not {count}").format(
                game=game.title, least=game.min_players, most=game.max_players, count=players))
        try:
            chosen = check_options(game, options or {})
        except RecordError:  # its text is English, for a record's reader
            raise LobbyError(_option_refusal(game, options or {})) from None
        if not 0 <= bots < players:
            raise LobbyError(_("bots: 0 to {most} (one seat is yours)").format(most=players - 1))
        refusal = self.refusal(identity, address)
        if refusal is not None:
            raise LobbyError(refusal)
        name = clean_name(name)
        code = self._new_code()
        seats = [Seat("", None) for _ in range(players - bots)]
        bot = self.bot_of(game)
        seats += [Seat(f"{BOT_NAMES[i]} (bot)", bot=bot) for i in range(bots)]
        hosted = HostedTable(code, clean_text(title, TITLE_LENGTH) or _("{name}'s table").format(name=name),
                             game, chosen, private, seats,
                             opened_from=None if address is None else address_group(address))
        self.tables[code] = hosted
        self.sit(hosted, identity, name)
        self._changed()
        return hosted

    def bot_of(self, game: GameKind) -> str:
        """The bot kind this lobby seats (and stands in) at ``game``'s tables:
        :attr:`bot_kind` if the game has it, else its strongest."""
        return self.bot_kind if self.bot_kind in game.bot_kinds else game.bot_kinds[-1]

    def refusal(self, identity: str, address: str | None = None) -> str | None:
        """Why this player may not open a new table now; None if they may."""
        limits = self.limits
        running = sum(1 for t in self.tables.values() if not t.over and not t.remote)
        if running >= limits.max_tables:
            return _("the server is full ({count} tables, its most): "
                     "join a table, or try again later").format(count=running)
        if address is not None:
            group = address_group(address)
            opened = sum(1 for t in self.tables.values()
                         if not t.over and t.opened_from == group)
            if opened >= limits.tables_per_address:
                return _("{count} unfinished tables were opened from your address, "
                         "its most: finish one first").format(count=opened)
        try:
            self._check_quota(identity)
        except LobbyError as exc:
            return str(exc)
        return None

    def _check_quota(self, identity: str) -> None:
        """Refuse a seat at yet another unfinished table: a running table costs
        the host bot and hint thinking even while its players are away."""
        mine = sum(1 for t in self.tables.values()
                   if not t.over and t.seat_of(identity) is not None)
        if mine >= self.limits.tables_per_player:
            raise LobbyError(_("you already sit at {count} unfinished tables; "
                               "finish one before taking another seat").format(count=mine))

    def _new_code(self) -> str:
        while True:
            code = "".join(self._rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.tables:
                return code

    # -- seats ---------------------------------------------------------------
    def sit(self, hosted: HostedTable, identity: str, name: str,
            session: object | None = None) -> int:
        """This identity's seat: the one it had (a reconnect), else a free one.
        ``session`` (its App) is counted as present until it calls :meth:`away`."""
        if hosted.remote and self.crossing is not None:
            back = self.crossing.sit(hosted, identity, name, session)
            self._changed()
            return back
        seat = hosted.seat_of(identity)
        if seat is None:
            free = hosted.free_seats
            if not free or hosted.started:
                raise LobbyError(_("table {code} has no free seat").format(code=hosted.code))
            self._check_quota(identity)
            seat = free[0]
            others = {s.name for s in hosted.seats}
            hosted.seats[seat].name = unique_name(clean_name(name), others)
            hosted.seats[seat].identity = identity
        hosted.seats[seat].connected = True
        if session is not None:
            hosted.arrive(identity, session)
        self._back(hosted, seat)
        if hosted.table is not None:
            hosted.table.seats_changed()  # no longer "away" on anyone's screen
        self._presence(hosted)
        if not hosted.started and not hosted.free_seats and not hosted.pending:
            if hosted.is_rematch:
                self._rematch_ready(hosted)  # the last yes
            else:
                self._start(hosted)
        self._changed()
        return seat

    def away(self, hosted: HostedTable, identity: str, session: object | None = None) -> None:
        """The player left or dropped: free the seat before the game, keep it during.
        While another session of theirs is still at the table, nothing changes."""
        if hosted.remote and self.crossing is not None:
            self.crossing.away(hosted, identity, session)
            self._changed()
            return
        seat = hosted.seat_of(identity)
        if seat is None:
            return
        if not hosted.depart(identity, session):
            return  # another terminal of theirs is still there
        again = hosted.rematch
        if again is not None and again.seat_of(identity) in again.pending:
            self._decline(again, again.seat_of(identity))  # left without a yes: a bot
        if not hosted.started and hosted.is_rematch:
            self._decline(hosted, seat)  # said yes, then left: a bot after all
        elif not hosted.started:
            hosted.seats[seat] = Seat("", None)
            if len(hosted.free_seats) == len(hosted.humans):
                del self.tables[hosted.code]
        else:
            hosted.seats[seat].connected = False
            self._tidy(hosted)
            if not hosted.over:
                self._await_player(hosted, seat)
            self._presence(hosted)
            if hosted.table is not None:
                hosted.table.seats_changed()  # "away" on everyone's screen
        self._changed()

    # -- playing again at a table whose game is over ----------------------------
    def play_again(self, old: HostedTable, identity: str, name: str,
                   session: object | None = None) -> HostedTable:
        """This player of ``old`` (over) says yes to a new game at the same
        table with the same players; the first yes offers it to the others who
        are still there. They sit at it (the rematch, returned), which starts
        once nobody is left to answer: who leaves the table or does not answer
        within ``absence_bot_after`` gets a bot. LobbyError if too late."""
        if not old.over or old.seat_of(identity) is None:
            raise LobbyError(_("only the players of a finished game can play it again"))
        if old.remote and self.crossing is not None:
            # It forms at the server that drove the game, as on one server.
            forming = self.crossing.play_again(old, identity, name, session)
            self._changed()
            return forming
        again = old.rematch
        if again is None and old.rematch_offered:  # it went: over, or everyone left it
            raise LobbyError(_("the rematch at this table has started without you"))
        if again is None:
            again = old.rematch = self._offer_rematch(old, identity)
            old.announce(name, REMATCH_WANTED, tell_others=True)
        seat = again.seat_of(identity)
        if again.started or seat is None or self.tables.get(again.code) is not again:
            raise LobbyError(_("the rematch at this table has started without you"))
        again.pending.discard(seat)
        self.sit(again, identity, name, session)  # the last answer starts it
        return again

    def _offer_rematch(self, old: HostedTable, identity: str) -> HostedTable:
        """The rematch, forming: bots keep their seats, the players still at
        the table are asked, the seats of those gone get a bot at once."""
        seats: list[Seat] = []
        pending: set[int] = set()
        for i, seat in enumerate(old.seats):
            if seat.bot is not None:
                seats.append(Seat(seat.name, bot=seat.bot))
            elif seat.connected or seat.identity == identity:
                seats.append(Seat(seat.name, identity=seat.identity))
                pending.add(i)
            else:
                seats.append(self._bot_seat(old.kind, i, [s.name for s in old.seats]))
        again = HostedTable(old.code, old.name, old.kind, dict(old.options), old.private, seats,
                            opened_from=old.opened_from, is_rematch=True, pending=pending)
        again.chat.extend(old.chat)  # the conversation goes on
        self.tables[old.code] = again  # the finished one stays with whoever looks at it
        again.answer_timer = asyncio.get_running_loop().call_later(
            self.absence_bot_after, self._rematch_timeout, again, context=contextvars.Context())
        self._changed()
        return again

    def _bot_seat(self, kind: GameKind, seat: int, taken: list[str]) -> Seat:
        bot = self.bot_kind if self.bot_kind in kind.bot_kinds else kind.bot_kinds[-1]
        free = [f"{n} (bot)" for n in BOT_NAMES if f"{n} (bot)" not in taken]
        name = free[0] if free else unique_name(f"{BOT_NAMES[seat % len(BOT_NAMES)]} (bot)", taken)
        return Seat(name, bot=bot)

    def _decline(self, again: HostedTable, seat: int | None) -> None:
        """A player of a forming rematch will not play it: a bot takes the seat."""
        if seat is None or again.started or again.seats[seat].bot is not None:
            return
        again.pending.discard(seat)
        again.seats[seat] = self._bot_seat(again.kind, seat, [s.name for s in again.seats])
        self._rematch_ready(again)

    def _rematch_timeout(self, again: HostedTable) -> None:
        again.answer_timer = None
        for seat in sorted(again.pending):
            self._decline(again, seat)

    def _rematch_ready(self, again: HostedTable) -> None:
        """Start the rematch if everyone has answered; drop it if no human is
        left. Every answer (a yes, a leaving, the timeout) comes here: the one
        place its answer timer ends."""
        if again.started or again.pending or self.tables.get(again.code) is not again:
            return
        again.end_answers()
        if not again.humans:
            del self.tables[again.code]  # everybody left: nothing to play
        else:
            self._start(again)
        self._changed()

    def _await_player(self, hosted: HostedTable, seat: int) -> None:
        """A stand-in for this absent seat after ``absence_bot_after``."""
        # A fresh context: the timer (and a bot task it starts) must not
        # carry the leaving session's App along (see _detached).
        hosted.await_stand_in(seat, asyncio.get_running_loop().call_later(
            self.absence_bot_after, self._stand_in, hosted, seat,
            context=contextvars.Context()))

    def watch(self, hosted: HostedTable) -> None:
        hosted.watchers += 1
        if hosted.remote and self.crossing is not None:
            self.crossing.watch(hosted, True)
        self._presence(hosted)
        self._changed()

    def unwatch(self, hosted: HostedTable) -> None:
        hosted.watchers = max(0, hosted.watchers - 1)
        if hosted.remote and self.crossing is not None:
            self.crossing.watch(hosted, False)
        self._tidy(hosted)
        self._presence(hosted)
        self._changed()

    # -- tables nobody is at -------------------------------------------------
    def _presence(self, hosted: HostedTable) -> None:
        """Someone came or went: start or stop the table's unattended clock."""
        if hosted.remote:
            return  # its own server's clock (it counts this server's players)
        if hosted.attended:
            hosted.unattended_since = None
            if hosted.paused:
                self._resume(hosted)
        elif hosted.unattended_since is None and hosted.started and not hosted.over:
            hosted.unattended_since = self._clock()
            self._check_later()

    def _check_later(self) -> None:
        if self._checking is None:
            delay = min(self.limits.check_every, self.limits.pause_after,
                        self.limits.close_after)
            self._checking = asyncio.get_running_loop().call_later(
                max(delay, 0.0), self._check_tick, context=contextvars.Context())

    def _check_tick(self) -> None:
        self._checking = None
        self.check_unattended()
        if any(t.unattended_since is not None for t in self.tables.values()):
            self._check_later()

    def check_unattended(self, now: float | None = None) -> None:
        """Pause or close the tables nobody has been at for long enough (the
        lobby calls this every ``check_every`` seconds while there are any)."""
        now = self._clock() if now is None else now
        for hosted in list(self.tables.values()):
            since = hosted.unattended_since
            if since is None or hosted.attended or hosted.over:
                continue
            if now - since >= self.limits.close_after:
                self._close_table(hosted)
            elif now - since >= self.limits.pause_after and not hosted.paused:
                self._pause(hosted)

    def _pause(self, hosted: HostedTable) -> None:
        """Stand-ins step back: the game goes on to the first absent player's
        turn and waits there (every table has a human seat), so its bots
        think no more until someone comes."""
        hosted.paused = True
        table = hosted.table
        for seat in hosted.humans:
            if hosted.cancel_stand_in(seat):
                hosted.note_paused(seat)
            elif table is not None and table.is_bot(seat):
                table.stand_in(seat, None)
                hosted.note_paused(seat)
        log.info("table %s paused: nobody there", hosted.code)
        self._changed()

    def _resume(self, hosted: HostedTable) -> None:
        """Someone came: the seats whose stand-in stepped back get it again at
        once (their players have long been away), as the game was going."""
        hosted.paused = False
        seats = hosted.take_paused()
        table = hosted.table
        if table is None or hosted.over:
            return
        for seat in sorted(seats):
            if not hosted.seats[seat].connected:
                table.stand_in(seat, table.make_bot(self.bot_of(hosted.kind)))
        self._changed()

    def _close_table(self, hosted: HostedTable) -> None:
        """Nobody came for ``close_after``: out of the lobby and memory; the
        stored game is marked abandoned, so no restart serves it again."""
        if self.tables.get(hosted.code) is hosted:
            del self.tables[hosted.code]
        hosted.cancel_stand_ins()
        hosted.chat_listeners.clear()
        log.info("table %s closed: nobody there for %.0f s", hosted.code,
                 self.limits.close_after)
        if hosted.table is not None:
            task = _spawn(self._abandon(hosted, hosted.table))
            self._abandoning.add(task)
            task.add_done_callback(self._abandoning.discard)
        self._changed()

    async def _abandon(self, hosted: HostedTable, table: Table[Match]) -> None:
        await table.close()  # its last commit (if any) is in before the mark
        if self.writer is None or hosted.over:
            return
        try:
            table_id = hosted.table_id
            if table_id is None and hosted.kept is not None:
                table_id = await asyncio.shield(hosted.kept)
            if table_id is not None:
                await self.writer.call(self.writer.store.abandon_table, table_id)
        except Exception as exc:  # a task of its own: say it, never drop it silently
            log.error("table %s could not be marked abandoned: %s", hosted.code, exc)

    def _tidy(self, hosted: HostedTable) -> None:
        """A finished game nobody is looking at any more leaves the lobby."""
        if not hosted.over or hosted.watchers or hosted.remote:
            return
        if any(s.connected for s in hosted.seats if s.bot is None):
            return
        if self.tables.get(hosted.code) is hosted:  # not its rematch, at the same code
            del self.tables[hosted.code]
        if hosted.table is not None:
            table = hosted.table

            def close() -> None:
                task = asyncio.get_running_loop().create_task(table.close())
                _closing.add(task)  # asyncio keeps only weak references to tasks
                task.add_done_callback(_closing.discard)
            _detached(close)

    def resumable(self, identity: str) -> HostedTable | None:
        """A running game this identity has a seat at (for a reconnect)."""
        for hosted in self.tables.values():
            if hosted.started and not hosted.over and hosted.seat_of(identity) is not None:
                return hosted
        return None

    def _start(self, hosted: HostedTable) -> None:
        names = [s.name for s in hosted.seats]
        game = hosted.kind.new_match(names, hosted.options, seed=self._rng.randrange(1 << 31))
        if self.writer is not None:
            # Kept on the writer thread; the table's first commit waits for
            # the id (the writer keeps calls in order, so it follows anyway).
            hosted.kept = self._keep_new(self.writer, hosted, game)
        self._serve(hosted, game)

    @staticmethod
    def _keep_new(writer: StoreWriter, hosted: HostedTable, game: Match) -> asyncio.Task[int]:
        actions = [game.action_json(i) for i in range(game.action_count())]
        kept = _spawn(writer.call(
            writer.store.create_table, code=hosted.code, name=hosted.name, kind=hosted.kind.name,
            setup=game.setup_json(), actions=actions, private=hosted.private,
            seats=[_stored(seat) for seat in hosted.seats]))
        kept.add_done_callback(lambda kept: _created(hosted, kept))
        return kept

    def _serve(self, hosted: HostedTable, game: Match, kind: GameKind | None = None) -> None:
        hosted.table = Table(game, hosted.seats, kind=kind or hosted.kind,
                             bot_delay=self.bot_delay, on_action=self._keeper(hosted, game),
                             workers=self.workers)
        hosted.table.subscribe(lambda event: self._on_table_event(hosted, event))
        if self.crossing is not None:
            self.crossing.serving(hosted)
        _detached(hosted.table.start)

    def _keeper(self, hosted: HostedTable, game: Match) -> ActionHook | None:
        """The table's commit: each action durably in the store before it is
        shown, with the game's setup only when an action changed it."""
        writer = self.writer
        if writer is None:
            return None

        known: dict[str, Any] | None = game.setup_json()  # what the store has

        async def keep(game: Match) -> None:
            nonlocal known
            if hosted.table_id is None:
                if hosted.kept is None:
                    raise StoreError("this table is not in the store")
                if hosted.kept.done() and not hosted.kept.cancelled() \
                        and hosted.kept.exception() is not None and hosted.table is not None:
                    # Not kept when it started (a full disk?): keep it now, as it is
                    # before this move (no move is kept without it).
                    hosted.kept = self._keep_new(writer, hosted, hosted.table.game)
                hosted.table_id = await asyncio.shield(hosted.kept)
            item = PendingAction.last_of(hosted.table_id, game, known)
            await writer.append(item)
            if item.setup is not None:
                known = dict(item.setup)
        return keep

    def _on_table_event(self, hosted: HostedTable, event: TableEvent) -> None:
        if event.over and not hosted.finished and hosted.table is not None:
            hosted.finished = True
            result = hosted.table.game.result()
            if self.writer is not None and hosted.table_id is not None and result is not None:
                _spawn(self._finish(self.writer, hosted.table_id,
                                    list(result.scores), list(result.winners)))
        self._changed()

    @staticmethod
    async def _finish(writer: StoreWriter, table_id: int, scores: list[int],
                      winners: tuple[int, ...] | list[int]) -> None:
        # After the last action on the writer thread; should the process die
        # first, the next start finishes the game from its record (restore).
        try:
            await writer.call(writer.store.finish_table, table_id, scores, winners)
        except StoreError as exc:
            log.warning("game %d could not be marked finished: %s", table_id, exc)

    async def close(self) -> None:
        """Stop every table's bots (their commits finish), then the store."""
        if self._checking is not None:
            self._checking.cancel()
            self._checking = None
        if self.crossing is not None:
            await self.crossing.close()
        if self._abandoning:  # their marks go in before the store closes
            await asyncio.wait(set(self._abandoning))
        # All at once: a table's close waits for its bot's move in hand to be
        # kept (or dropped), and one at a time a server with many bot tables
        # took seconds to stop.
        tables = [hosted.table for hosted in self.tables.values() if hosted.table is not None]
        await asyncio.gather(*(table.close() for table in tables))
        if self.writer is not None:
            await self.writer.close()

    def restore(self) -> RestoreReport:
        """Serve again every unfinished game of the store, as its players left it.

        Every human is away until their key comes back; after
        ``absence_bot_after`` a stand-in bot plays for them, as for a dropped
        connection.
        """
        assert self.store is not None
        report = restore(self.store)
        loop = asyncio.get_running_loop()
        for live in report.live:
            info = live.info
            hosted = self._taken_over(info.code, info.id)
            if hosted is None:
                # Cleaned again as they come out of a file (an older server
                # kept titles as typed).
                seats = [Seat(clean_name(s.name), bot=s.bot, identity=s.fingerprint)
                         for s in info.seats]
                hosted = HostedTable(info.code, clean_text(info.name, TITLE_LENGTH) or info.code,
                                     live.kind, dict(info.options), info.private, seats,
                                     created=info.created, table_id=info.id)
            self.tables[hosted.code] = hosted
            self._serve(hosted, live.game, live.kind)
            for seat in hosted.humans:
                identity = hosted.seats[seat].identity
                hosted.seats[seat].connected = identity is not None and hosted.is_here(identity)
                if hosted.seats[seat].connected:
                    continue  # at it here already, through the server that died
                hosted.await_stand_in(seat, loop.call_later(
                    self.absence_bot_after, self._stand_in, hosted, seat,
                    context=contextvars.Context()))
            self._presence(hosted)  # nobody is here yet
        self._changed()
        return report

    def _taken_over(self, code: str, table_id: int) -> HostedTable | None:
        """The table this lobby showed as another server's, now to drive here
        (that server died): whoever is at it here stays, their screens kept
        up through the store."""
        hosted = self.tables.get(code)
        if hosted is None or not hosted.remote or hosted.table_id != table_id:
            return None
        hosted.remote = False
        hosted.outbox = None
        return hosted

    def _stand_in(self, hosted: HostedTable, seat: int) -> None:
        """A bot plays an absent player's seat until they are back."""
        hosted.stand_in_due(seat)
        table = hosted.table
        if table is None or hosted.seats[seat].connected or hosted.over:
            return
        if hosted.paused:  # the stand-in comes when someone does
            hosted.note_paused(seat)
            return
        table.stand_in(seat, table.make_bot(self.bot_of(hosted.kind)))
        self._changed()

    def _back(self, hosted: HostedTable, seat: int) -> None:
        hosted.cancel_stand_in(seat)
        hosted.forget_paused(seat)
        if hosted.table is not None and hosted.table.is_bot(seat) \
                and hosted.seats[seat].bot is None:
            hosted.table.stand_in(seat, None)


_closing: set[asyncio.Task[None]] = set()
_running: set[asyncio.Future[Any]] = set()


def _spawn(coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    """A task outside the calling session's context (see _detached), kept
    referenced until done (asyncio keeps only weak references to tasks)."""
    task = asyncio.get_running_loop().create_task(coro, context=contextvars.Context())
    _running.add(task)
    task.add_done_callback(_running.discard)
    return task


def _created(hosted: HostedTable, kept: asyncio.Future[int]) -> None:
    if kept.cancelled():
        return
    error = kept.exception()
    if error is None:
        hosted.table_id = kept.result()
    elif not isinstance(error, StoreUnavailable):  # that one the writer logs, once
        # every move at this table will say it could not be saved
        log.error("table %s could not be kept in the store: %s", hosted.code, error)


def _stored(seat: Seat) -> StoredSeat:
    # Only a key is an identity worth keeping (and rating); a password login
    # ("password:NAME") is a guest.
    key = seat.identity if seat.identity and seat.identity.startswith("SHA256:") else None
    return StoredSeat(seat.name, fingerprint=key, bot=seat.bot)


def _detached(fn: Callable[[], None]) -> None:
    """Run ``fn`` outside the calling session's context.

    Lobby calls come from some session's App, whose context (Textual's active
    App) a task created now would keep for its whole life: a bot task would
    hold on to an App whose session has long ended.
    """
    contextvars.Context().run(fn)
