"""One lobby over every server sharing a store (issue 15): the tables other
servers drive, listed and served here; what this server's players do at
them told to the driving server, and what the driving server knows (who is
here, who has a stand-in) shown here.

The lobby knows no database: it is handed a
:class:`~fivetowers.tables.sharing.SharedTables`. A table another server
drives is a :class:`HostedTable` with ``remote`` set whose ``table`` plays
through the store (a ``RemoteTable``: to the screens, a table like any).
The driving server counts a player or watcher at another server as a
session of its own (a :class:`_Elsewhere` per server and player), so its
stand-ins, pausing and closing work as for its own players.

A finished game's rematch forms at the server that drove the game, like any
forming table: a player at another server says yes there (:class:`Again`)
and waits at this server's copy of it, shown from the driver's ``Forming``.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import weakref
from typing import Any, Callable, Coroutine

from fivetowers.games import UnknownGame, game_kind
from fivetowers.i18n import N_, _
from fivetowers.lobby.model import TITLE_LENGTH, ChatLine, HostedTable, Lobby, LobbyError
from fivetowers.tables.seats import Seat, unique_name
from fivetowers.tables.sharing import (
    Again, Alive, Forming, Heard, Presence, Said, Seating, SeatStates, SeatsWanted, SharedTables,
)
from fivetowers.tables.store import StoreError, TableInfo
from fivetowers.tables.table import TableEvent
from fivetowers.user_text import clean_name, clean_text


log = logging.getLogger("fivetowers.server")

ALIVE_EVERY = 2.0
"""Seconds between a server's words that it is still there ..."""
GONE_AFTER = 8.0
"""... and how long one may be silent before its players count as gone."""
UNANSWERED = N_("the rematch at table {code} did not start: the server that ran the game "
                "did not answer")


class _Elsewhere:
    """A player's (or watcher's) sessions at another server, as the driving
    server's lobby counts them among a table's sessions."""


class Crossing:
    """The lobby's side of the servers it shares its tables with."""

    def __init__(self, lobby: Lobby, shared: SharedTables) -> None:
        self.lobby = lobby
        self.shared = shared
        self.remote: dict[int, HostedTable] = {}
        """Tables other servers drive, shown here, by their id in the store."""
        self._elsewhere: dict[tuple[str, str], _Elsewhere] = {}
        self._told: dict[int, tuple[Any, ...]] = {}
        """The seat states last told of each table this server drives."""
        self.forming: dict[str, HostedTable] = {}
        """Tables forming at other servers (in no store yet), by code."""
        self._forming_at: dict[str, str] = {}
        """The server each of those forms at, by code."""
        self._forming_told: dict[str, tuple[Any, ...]] = {}
        """This server's forming tables as last told, by code."""
        self._listing: asyncio.Task[None] | None = None
        self._again = False
        self._heard_from: dict[str, float] = {}
        """Each other server, and when (the loop's clock) it last said anything."""
        self._watching: dict[tuple[str, int], int] = {}
        """(server, table id) -> how many watch this server's table there."""
        self._driving: weakref.WeakValueDictionary[int, HostedTable] = \
            weakref.WeakValueDictionary()
        """The tables this server drives, by id, while anyone looks at them: a
        finished one stays reachable (its end screen's chat, its players'
        answers) after its rematch took its place in the lobby."""
        self._said_yes: set[tuple[int, str]] = set()
        """(finished table id, identity): players here who said yes to its
        rematch; their leaving the finished game is the driver's to do."""
        self._alive = _spawn(self._keep_alive())
        shared.listen(self._heard)
        lobby.subscribe(self._tell_forming)
        shared.tell(0, SeatsWanted())  # the tables forming elsewhere, from their servers

    # -- the list of tables -----------------------------------------------------
    def refresh(self) -> None:
        """Read every server's live tables again (soon, in the background)."""
        if self._listing is not None and not self._listing.done():
            self._again = True
            return
        self._listing = _spawn(self._refresh())

    async def _refresh(self) -> None:
        self._again = True
        while self._again:
            self._again = False
            try:
                infos = await self.shared.live()
            except StoreError as exc:  # the next announcement tries again
                log.warning("cannot list the other servers' tables: %s", exc)
                return
            for info in infos:
                try:
                    await self._show(info)
                except StoreError as exc:  # that table alone is not listed
                    log.warning("cannot show table %s of another server: %s", info.code, exc)
            live = {info.id for info in infos}
            for table_id, hosted in list(self.remote.items()):
                if table_id not in live:  # finished or abandoned there
                    self._drop_if_unseen(hosted)
            self.lobby.changed()

    async def _show(self, info: TableInfo) -> None:
        """List ``info``'s table here if another server drives it."""
        if info.id in self.remote or self._local(info.code) or self._driven(info.id):
            return
        try:
            kind = game_kind(info.kind)
        except UnknownGame:
            return  # a game this server does not have
        table = await self.shared.remote(info.id, self.lobby.workers)
        if self._local(info.code) or info.id in self.remote:
            return  # opened or listed here meanwhile
        waited = self.forming.pop(info.code, None)
        self._forming_at.pop(info.code, None)
        if waited is not None and waited.kind is kind:
            # Its game started: whoever waits at it here goes on to it.
            hosted = waited
            hosted.end_answers()
            hosted.seats, hosted.table, hosted.table_id = table.seats, table, info.id
        else:
            hosted = HostedTable(info.code, clean_text(info.name, TITLE_LENGTH) or info.code,
                                 kind, dict(info.options), info.private, table.seats,
                                 table=table, created=info.created, table_id=info.id,
                                 remote=True)
        hosted.outbox = self._outbox(hosted)
        table.subscribe(lambda event: self._remote_event(hosted, event))
        self.remote[info.id] = hosted
        self.lobby.tables[info.code] = hosted
        self._follow(hosted)
        self.shared.tell(info.id, SeatsWanted())  # who is here, as its driver knows

    def _follow(self, hosted: HostedTable) -> None:
        """Keep a remote table's game up to the minute only while someone here is at it."""
        if hosted.table_id is not None and hosted.table is not None:
            self.shared.follow(hosted.table_id, hosted.present or hosted.watchers > 0)

    def _local(self, code: str) -> bool:
        hosted = self.lobby.tables.get(code)
        return hosted is not None and not hosted.remote

    def _driven(self, table_id: int) -> bool:
        return self._driven_table(table_id) is not None

    def _driven_table(self, table_id: int) -> HostedTable | None:
        for hosted in self.lobby.tables.values():
            if hosted.table_id == table_id and not hosted.remote:
                return hosted
        driven = self._driving.get(table_id)  # a finished one, its rematch in its place
        return driven if driven is not None and not driven.remote and driven.over else None

    def _remote_event(self, hosted: HostedTable, event: TableEvent) -> None:
        if event.over and hosted.remote:
            self._drop_if_unseen(hosted)
        self.lobby.changed()

    def _drop_if_unseen(self, hosted: HostedTable) -> None:
        """A remote table nobody here is at leaves this lobby once it is over or gone."""
        if hosted.watchers or hosted.present:
            return
        if hosted.table_id is not None and self.remote.get(hosted.table_id) is hosted:
            del self.remote[hosted.table_id]
            self.shared.forget(hosted.table_id)
        if self.lobby.tables.get(hosted.code) is hosted:
            del self.lobby.tables[hosted.code]
        self.lobby.changed()

    # -- the tables this server drives ---------------------------------------------
    def serving(self, hosted: HostedTable) -> None:
        """``hosted``'s game starts (or is restored, or taken over) here."""
        hosted.outbox = self._outbox(hosted)
        table = hosted.table
        assert table is not None
        table.subscribe(lambda event: self._tell_seats(hosted))
        if hosted.table_id is not None:
            self._drive(hosted)
        elif hosted.kept is not None:
            hosted.kept.add_done_callback(lambda kept: self._drive(hosted))

    def _drive(self, hosted: HostedTable) -> None:
        if hosted.table_id is None or hosted.table is None:
            return  # not kept: nobody else can see it
        # Taken over from a server that died: sessions here that showed it as
        # remote keep their view (it keeps up through the store).
        self.remote.pop(hosted.table_id, None)
        self._driving[hosted.table_id] = hosted
        self.shared.drive(hosted.table_id, hosted.table)
        self._tell_seats(hosted)

    def _tell_seats(self, hosted: HostedTable, always: bool = False) -> None:
        """Tell the other servers who is at ``hosted`` (if that changed)."""
        table = hosted.table
        if hosted.table_id is None or table is None:
            return
        now = asyncio.get_running_loop().time()
        states = SeatStates(
            tuple(s.connected for s in hosted.seats),
            tuple(table.standing_in(i) for i in range(len(hosted.seats))),
            tuple(None if s.stand_in_at is None else max(0.0, s.stand_in_at - now)
                  for s in hosted.seats))
        key = (states.connected, states.standing_in,
               tuple(d is None for d in states.stand_in_in))
        if always or self._told.get(hosted.table_id) != key:
            self._told[hosted.table_id] = key
            self.shared.tell(hosted.table_id, states)

    # -- what this server's players do at remote tables ------------------------------
    def sit(self, hosted: HostedTable, identity: str, name: str, session: object | None) -> int:
        """Back at this player's seat at a remote table (only a seat's owner may)."""
        seat = hosted.seat_of(identity)
        forming = hosted.table is None
        if seat is None and forming and hosted.free_seats:
            # Taken here at once; the table's server seats them, or not (its
            # next word on the table says which).
            seat = hosted.free_seats[0]
            hosted.seats[seat].name = unique_name(clean_name(name),
                                                  {s.name for s in hosted.seats})
            hosted.seats[seat].identity = identity
        if seat is None:
            raise LobbyError(_("table {code} has no free seat").format(code=hosted.code))
        hosted.seats[seat].connected = True  # until the driver says otherwise
        if session is not None:
            hosted.arrive(identity, session)
        if forming:
            self.shared.tell(0, Seating(hosted.code, identity, name, True))
        else:
            self._follow(hosted)
            self._tell(hosted, Presence(identity, name, True, False))
        return seat

    def away(self, hosted: HostedTable, identity: str, session: object | None) -> None:
        seat = hosted.seat_of(identity)
        if seat is None or not hosted.depart(identity, session):
            return
        if hosted.table is None:  # a forming table: the seat is free again
            hosted.seats[seat] = Seat("", None)
            self.shared.tell(0, Seating(hosted.code, identity, "", False))
            return
        hosted.seats[seat].connected = False
        self._follow(hosted)
        if hosted.table_id is not None and (hosted.table_id, identity) in self._said_yes:
            # Gone to the rematch: the driver, told of the yes, has them leave.
            self._said_yes.discard((hosted.table_id, identity))
        else:
            self._tell(hosted, Presence(identity, "", False, False))
        if hosted.over:
            self._drop_if_unseen(hosted)

    def watch(self, hosted: HostedTable, here: bool) -> None:
        self._follow(hosted)
        self._tell(hosted, Presence("", "", here, True))
        if not here and hosted.over:
            self._drop_if_unseen(hosted)

    def _tell(self, hosted: HostedTable, news: Presence) -> None:
        if hosted.table is not None:
            hosted.table.seats_changed()
        if hosted.table_id is not None:
            self.shared.tell(hosted.table_id, news)

    def _outbox(self, hosted: HostedTable) -> Callable[[ChatLine], None]:
        """Where ``hosted``'s own chat lines go: to the other servers."""
        return lambda line: self._say(hosted, line)

    def _say(self, hosted: HostedTable, line: ChatLine) -> None:
        if hosted.table_id is not None:
            self.shared.tell(hosted.table_id, Said(line.name, line.text))
        elif not hosted.started:  # forming: in no store, known by its code
            self.shared.tell(0, Said(line.name, line.text, hosted.code))

    # -- a rematch of another server's game ----------------------------------------
    def play_again(self, old: HostedTable, identity: str, name: str,
                   session: object | None) -> HostedTable:
        """This player of ``old`` (a finished game another server drove) says
        yes to its rematch, which forms there: they wait at this server's
        copy of it (returned) until the driver starts it."""
        if not old.over or old.seat_of(identity) is None or old.table_id is None:
            raise LobbyError(_("only the players of a finished game can play it again"))
        again = old.rematch
        if again is None and old.rematch_offered:  # it went (see HostedTable.rematch)
            raise LobbyError(_("the rematch at this table has started without you"))
        if again is None:
            listed = self.forming.get(old.code)
            again = listed if listed is not None and listed.is_rematch else self._rematch_of(old)
        seat = again.seat_of(identity)
        if again.started or seat is None or self.lobby.tables.get(again.code) is not again:
            raise LobbyError(_("the rematch at this table has started without you"))
        again.pending.discard(seat)  # until the driver's next word on it
        again.seats[seat].connected = True
        if session is not None:
            again.arrive(identity, session)
        self._said_yes.add((old.table_id, identity))
        self.shared.tell(old.table_id, Again(identity, name))
        return again

    def _rematch_of(self, old: HostedTable) -> HostedTable:
        """``old``'s rematch as this server guesses it before the driver's
        word on it (which then replaces the guess): its seats, waiting for the
        players who are at the table."""
        seats = [Seat(s.name, bot=s.bot, identity=s.identity) for s in old.seats]
        pending = {i for i in old.humans if old.seats[i].connected}
        again = HostedTable(old.code, old.name, old.kind, dict(old.options), old.private,
                            seats, remote=True, is_rematch=True, pending=pending)
        self._list_forming(again, old)
        # If the driver never answers (it died, before or after the yes),
        # nothing else would end the wait: as long as a rematch formed here
        # waits for its players.
        again.answer_timer = asyncio.get_running_loop().call_later(
            self.lobby.absence_bot_after, self._unanswered, again,
            context=contextvars.Context())
        return again

    def _unanswered(self, again: HostedTable) -> None:
        """A rematch guessed here had its answer time: unless its driver, still
        there, has taken it up (its own timer decides; :meth:`_gone` if it
        dies), whoever waits at it is told and sent to the lobby."""
        again.answer_timer = None
        if again.started or self.forming.get(again.code) is not again:
            return
        driver = self._forming_at.get(again.code)
        if driver is not None and driver in self._heard_from:
            return
        log.warning("table %s: the rematch asked here was not answered by the server that "
                    "ran the game", again.code)
        again.gone_why = UNANSWERED
        self._unlist(again)

    def _list_forming(self, hosted: HostedTable, old: HostedTable | None) -> None:
        """List a table forming at another server (a rematch in ``old``'s place)."""
        hosted.outbox = self._outbox(hosted)
        if old is not None:
            hosted.chat.extend(old.chat)  # the conversation goes on
            old.rematch = hosted
        self.forming[hosted.code] = hosted
        self.lobby.tables[hosted.code] = hosted

    def _rematch_yes(self, old: HostedTable, origin: str, news: Again) -> None:
        """A player of this server's finished game, at another server, says
        yes to its rematch and leaves the game for it (in that order: leaving
        without a yes gives their seat a bot)."""
        sessions = self._elsewhere.setdefault((origin, news.identity), _Elsewhere())
        try:
            self.lobby.play_again(old, news.identity, news.name, session=sessions)
        except LobbyError as exc:  # too late: the rematch's next word says so
            log.info("table %s: a yes to the rematch from another server: %s", old.code, exc)
        self.lobby.away(old, news.identity, session=sessions)
        self._forming_told.pop(old.code, None)
        self._tell_forming()
        self._tell_seats(old)

    # -- news from the other servers ---------------------------------------------
    async def _keep_alive(self) -> None:
        """Say this server is there; count the players of a silent one as gone."""
        loop = asyncio.get_running_loop()
        while True:
            self.shared.tell(0, Alive())
            await asyncio.sleep(ALIVE_EVERY)
            now = loop.time()
            for origin in [o for o, t in self._heard_from.items() if now - t > GONE_AFTER]:
                del self._heard_from[origin]
                self._gone(origin)

    def _gone(self, origin: str) -> None:
        """Server ``origin`` died: its players and watchers leave this server's tables."""
        log.warning("server %s is silent: its players are away from the tables here", origin)
        for code in [c for c, there in self._forming_at.items() if there == origin]:
            hosted = self.forming.get(code)
            if hosted is not None:  # whoever waits at it here is sent to the lobby
                self._unlist(hosted)
        for (there, identity) in [k for k in self._elsewhere if k[0] == origin]:
            sessions = self._elsewhere.pop((there, identity))
            for hosted in list(self.lobby.tables.values()):
                if not hosted.remote and hosted.is_here(identity):
                    self.lobby.away(hosted, identity, session=sessions)
        for (there, table_id) in [k for k in self._watching if k[0] == origin]:
            watched = self._driven_table(table_id)
            for _ in range(self._watching.pop((there, table_id))):
                if watched is not None:
                    self.lobby.unwatch(watched)

    def _heard(self, heard: Heard) -> None:
        news = heard.news
        if heard.origin:
            self._heard_from[heard.origin] = asyncio.get_running_loop().time()
        if news is None:
            self.refresh()
            return
        if isinstance(news, Alive):
            return
        if isinstance(news, Forming):
            self._forming_elsewhere(heard.origin, news)
            return
        if isinstance(news, Seating):
            self._seating(heard.origin, news)
            return
        if heard.table_id == 0 and isinstance(news, Said):
            forming = self.lobby.tables.get(news.code)
            if forming is not None and not forming.started:
                forming.announce(news.name, news.text)
            return
        if heard.table_id == 0 and isinstance(news, SeatsWanted):
            self._forming_told.clear()  # a server started: tell it every forming table
            self._tell_forming()
            return
        hosted = self.remote.get(heard.table_id) or self._driven_table(heard.table_id)
        if hosted is None:
            return
        if isinstance(news, Said):
            hosted.announce(news.name, news.text)
        elif hosted.remote:
            if isinstance(news, SeatStates):
                self._show_seats(hosted, news)
        elif isinstance(news, Presence):
            self._arrived(hosted, heard.origin, news)
        elif isinstance(news, Again):
            self._rematch_yes(hosted, heard.origin, news)
        elif isinstance(news, SeatsWanted):
            self._tell_seats(hosted, always=True)

    def _arrived(self, hosted: HostedTable, origin: str, news: Presence) -> None:
        """A player or watcher came to (or left) this server's table at another."""
        lobby = self.lobby
        if news.watching:
            assert hosted.table_id is not None
            key = (origin, hosted.table_id)
            watching = self._watching.get(key, 0)
            if not news.here and not watching:
                return  # counted gone already
            self._watching[key] = watching + (1 if news.here else -1)
            (lobby.watch if news.here else lobby.unwatch)(hosted)
            return
        sessions = self._elsewhere.setdefault((origin, news.identity), _Elsewhere())
        if news.here:
            try:
                lobby.sit(hosted, news.identity, news.name, session=sessions)
            except LobbyError as exc:  # no seat of theirs: the other server only shows
                log.warning("table %s: a player at another server has no seat: %s",
                            hosted.code, exc)
        else:
            lobby.away(hosted, news.identity, session=sessions)
        self._tell_seats(hosted)

    # -- tables forming (in no store yet) ---------------------------------------------
    def _tell_forming(self) -> None:
        """Tell the other servers of this lobby's forming tables that changed."""
        forming = {code: hosted for code, hosted in self.lobby.tables.items()
                   if not hosted.remote and not hosted.started}
        for code, hosted in forming.items():
            if hosted.outbox is None:  # its chat crosses too
                hosted.outbox = self._outbox(hosted)
            seats = tuple((s.name, s.bot, s.identity) for s in hosted.seats)
            pending = tuple(sorted(hosted.pending))
            if self._forming_told.get(code) != (seats, pending):
                self._forming_told[code] = (seats, pending)
                self.shared.tell(0, Forming(
                    code, hosted.name, hosted.kind.name, tuple(hosted.options.items()),
                    hosted.private, hosted.created, seats, rematch=hosted.is_rematch,
                    pending=pending))
        for code in [c for c in self._forming_told if c not in forming]:
            del self._forming_told[code]
            self.shared.tell(0, Forming(code, "", "", (), False, 0.0, (), open=False))

    def _forming_elsewhere(self, origin: str, news: Forming) -> None:
        """List (or update, or drop) a table forming at server ``origin``."""
        code = news.code
        hosted = self.forming.get(code)
        if not news.open:
            if hosted is not None and not hosted.present:
                self._unlist(hosted)
            return
        listed = self.lobby.tables.get(code)
        if self._local(code):
            return  # ours
        if hosted is None and listed is not None and not (news.rematch and listed.over):
            return  # its game has started already
        seats = [Seat(clean_name(name), bot=bot, identity=identity)
                 for name, bot, identity in news.seats]
        pending = {i for i in news.pending if 0 <= i < len(seats)}
        if hosted is not None and len(hosted.seats) == len(seats):
            for seat, told in zip(hosted.seats, seats):
                seat.name, seat.bot, seat.identity = told.name, told.bot, told.identity
            hosted.pending = pending
        else:
            try:
                kind = game_kind(news.kind)
            except UnknownGame:
                return
            hosted = HostedTable(code, clean_text(news.name, TITLE_LENGTH) or code, kind,
                                 dict(news.options), news.private, seats,
                                 created=news.created, remote=True, is_rematch=news.rematch,
                                 pending=pending)
            self._list_forming(hosted, listed if listed is not None and listed.over else None)
        self._forming_at[code] = origin
        self.lobby.changed()

    def _unlist(self, hosted: HostedTable) -> None:
        hosted.end_answers()
        if self.forming.get(hosted.code) is hosted:
            del self.forming[hosted.code]
            self._forming_at.pop(hosted.code, None)
        if self.lobby.tables.get(hosted.code) is hosted:
            del self.lobby.tables[hosted.code]
        self.lobby.changed()

    def _seating(self, origin: str, news: Seating) -> None:
        """A player at another server takes or leaves a seat at a table forming here."""
        hosted = self.lobby.tables.get(news.code)
        if hosted is None or hosted.remote:
            return
        sessions = self._elsewhere.setdefault((origin, news.identity), _Elsewhere())
        if not news.here:
            self.lobby.away(hosted, news.identity, session=sessions)
            return
        try:
            self.lobby.sit(hosted, news.identity, news.name, session=sessions)
        except LobbyError as exc:  # taken meanwhile: the table's next word says so
            log.info("table %s: a seat asked from another server: %s", hosted.code, exc)
            self._forming_told.pop(hosted.code, None)
            self._tell_forming()

    def _show_seats(self, hosted: HostedTable, states: SeatStates) -> None:
        """Who is at a remote table, as its driving server says."""
        table = hosted.table
        if table is None or len(states.connected) != len(hosted.seats):
            return
        now = asyncio.get_running_loop().time()
        for i, seat in enumerate(hosted.seats):
            seat.connected = states.connected[i]
            due = states.stand_in_in[i] if i < len(states.stand_in_in) else None
            seat.stand_in_at = None if due is None else now + due
            standing = i < len(states.standing_in) and states.standing_in[i]
            if seat.bot is None and standing != table.standing_in(i):
                # Only shown: a remote table's bots never move here.
                table.stand_in(i, table.quick_bot if standing else None)
        table.seats_changed()
        self.lobby.changed()

    async def close(self) -> None:
        self._alive.cancel()
        if self._listing is not None:
            self._listing.cancel()
        await self.shared.close()


_running: set[asyncio.Task[Any]] = set()


def _spawn(coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
    """A task outside the calling session's context, kept referenced until done."""
    task = asyncio.get_running_loop().create_task(coro, context=contextvars.Context())
    _running.add(task)
    task.add_done_callback(_running.discard)
    return task
