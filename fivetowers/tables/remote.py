"""Tables shared by servers on one PostgreSQL store (issue 15, "many
processes, one lobby").

The server holding a table's lease drives it (its :class:`Table`: bots,
timers, the end); every other server sees it as a :class:`RemoteTable`:

- **Moves.** A player seated through another server moves on the
  :class:`RemoteTable`: the rules check the move against its copy of the
  game, then it is appended to the store with the number that copy knows.
  The store refuses a stale one (another server's move landed first): the
  copy catches up from the store, the move is checked again against the new
  state and appended again if still legal, else refused in the rules' words.
  Never kept twice or lost: the key ``(game, idx)`` and ``games.kept``.
- **The bus.** Every append sends ``move:<table>:<index>`` at commit
  (:mod:`fivetowers.tables.pg_bus`); each server then reads the store
  (:meth:`RemoteTable.catch_up`, and :class:`Driving` for the tables it
  drives, which hands the game to :meth:`Table.adopt`) so its screens
  redraw as for a local move.
- **The driver's own moves** (its players', its bots') race other servers'
  the same way: :meth:`Driving.drive` gives the table a ``reload_game`` hook,
  so a move the store refuses as stale is checked again against the store's
  game and kept or refused (:meth:`Table._commit`).
- **A lost bus connection** is made again by the bus, which then hands
  every listener :data:`~fivetowers.tables.pg_bus.RECONNECTED`: each table
  catches up from the store, so no move announced meanwhile is missed.
- **Chat** travels in the notification (``chat:<table>:<json>``), cleaned
  (:mod:`fivetowers.user_text`) by every server that shows it.

:class:`PgSharing` puts these together for a lobby (the
:class:`~fivetowers.tables.sharing.SharedTables` it is handed: see
:mod:`fivetowers.lobby.crossing`), with the news between servers on the same
bus (``news:<table>:<json>``).

Catching up replays the table's whole record from the store: a move may
have revealed a reshuffle the store's setup holds, so the record, not the
move alone, is what every server must agree on.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import secrets
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Coroutine, Mapping

from fivetowers.games import game_kind
from fivetowers.games.protocol import Match
from fivetowers.tables.history import replay
from fivetowers.tables.pg_bus import RECONNECTED, Bus
from fivetowers.tables.pg_store import PgStore
from fivetowers.tables.sharing import Heard, News, Said, news_json, news_of
from fivetowers.tables.store import (
    PendingAction, StoreConflict, StoredTable, StoreError, TableInfo,
)
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import (
    NOT_SAVED, STALE_RETRIES, ActionNotKept, NotYourSeat, Table, TooLate,
)
from fivetowers.tables.workers import Workers
from fivetowers.user_text import clean_name, clean_text

CHAT_LENGTH = 120
"""The longest chat line that crosses servers (the lobby's own limit)."""
__all__ = ["Driving", "RemoteChat", "RemoteTable", "TooLate", "chat_of", "chat_payload",
           "move_of", "replayed"]

log = logging.getLogger("fivetowers.store")


@dataclass(frozen=True, slots=True)
class RemoteChat:
    """A chat line said at a table through another server (cleaned)."""

    name: str
    text: str


def chat_payload(table_id: int, name: str, text: str) -> str:
    """The notification carrying one chat line to every server."""
    line = {"name": clean_name(name), "text": clean_text(text, CHAT_LENGTH)}
    return f"chat:{table_id}:{json.dumps(line, ensure_ascii=False)}"


def _json_of(payload: str, kind: str) -> tuple[int, Any] | None:
    """The table and JSON body of a ``<kind>:<table>:<json>`` notification."""
    said, _, rest = payload.partition(":")
    table, _, body = rest.partition(":")
    if said != kind or not table.isdigit():
        return None
    try:
        return int(table), json.loads(body)
    except ValueError:
        return None


def chat_of(payload: str) -> tuple[int, RemoteChat] | None:
    """The table and chat line a notification carries, if it is one (cleaned
    again here: the bus is not trusted to carry only our own words)."""
    found = _json_of(payload, "chat")
    if found is None or not isinstance(found[1], dict):
        return None
    table, line = found
    text = clean_text(str(line.get("text", "")), CHAT_LENGTH)
    return (table, RemoteChat(clean_name(str(line.get("name", ""))), text)) if text else None


def move_of(payload: str) -> tuple[int, int] | None:
    """The table and action number of a ``move:`` notification."""
    kind, _, rest = payload.partition(":")
    table, _, index = rest.partition(":")
    if kind != "move" or not table.isdigit() or not index.isdigit():
        return None
    return int(table), int(index)


def replayed(stored: StoredTable) -> Match:
    """A stored table's game as its record replays."""
    match, error = replay(game_kind(stored.info.kind), stored.record)
    if error is not None:
        raise StoreConflict(f"table {stored.info.id} does not replay: action "
                            f"{error.action}: {error.message}")
    return match


def _setup(stored: StoredTable) -> dict[str, Any]:
    return {k: v for k, v in stored.record.items() if k not in ("players", "actions")}


class RemoteTable(Table[Match]):
    """A table another server drives, as this server's players see and play it:
    a :class:`Table` to every screen, whose moves go to the store (checked
    again and retried when stale) and whose bots never move here (the
    driving server's do)."""

    def __init__(self, store: PgStore, stored: StoredTable,
                 workers: Workers | None = None) -> None:
        seats = [Seat(clean_name(s.name), bot=s.bot, identity=s.fingerprint)
                 for s in stored.info.seats]
        super().__init__(replayed(stored), seats, kind=game_kind(stored.info.kind),
                         bot_delay=0.0, workers=workers)
        self.store = store
        self.id = stored.info.id
        self.info = stored.info
        self._known: Mapping[str, Any] = _setup(stored)
        self.chat: list[RemoteChat] = []
        self.followed = True
        """Whether moves are read as they come (someone here is at the table);
        else only noted, and read once someone comes (:meth:`follow`)."""
        self._behind = False

    @classmethod
    async def load(cls, store: PgStore, table_id: int,
                   workers: Workers | None = None) -> RemoteTable:
        return cls(store, await asyncio.to_thread(store.load_table, table_id), workers)

    def start(self) -> None:
        """Nothing: the driving server's bots move (their moves come by the bus)."""

    @property
    def behind(self) -> bool:
        """A move came that this copy has not read (nobody here follows it)."""
        return self._behind

    def follow(self, on: bool) -> None:
        """Read every move as it comes (on), or only note that one came: a
        server lists every server's tables, and reading each one's record on
        each of its moves would cost every server every table's work."""
        self.followed = on
        if on and self._behind:
            self._behind = False
            _spawn(self.catch_up())

    async def catch_up(self) -> bool:
        """Read the store's record if it is ahead of ours; whether it was."""
        async with self._lock:
            moved = await self._catch_up()
        if moved:
            self._notify()
        return moved

    async def _catch_up(self) -> bool:
        stored = await asyncio.to_thread(self.store.load_table, self.id)
        if stored.info.actions <= self.game.action_count():
            return False
        self.game = replayed(stored)
        self._known = _setup(stored)
        self.info = stored.info
        self.version += 1
        return True

    async def submit(self, seat: int, action: Any) -> None:
        """Keep ``action`` for ``seat`` in the store, or raise the game's refusal
        (against the newest state: a stale move is checked again and retried)."""
        async with self._lock:
            for _ in range(STALE_RETRIES):
                if self.game.to_move != seat:
                    self.game.clone().apply(action)  # the game's refusal first, if any
                    raise NotYourSeat("you can only act for your own seat")
                after = self.game.clone()
                after.apply(action)
                item = PendingAction.last_of(self.id, after, self._known)
                try:
                    await asyncio.to_thread(self.store.append_action, item.table_id,
                                            item.index, item.action, item.setup)
                except StoreConflict:
                    if not await self._catch_up():
                        raise ActionNotKept("the table is over or gone") from None
                    continue
                except StoreError as exc:
                    if not self.cannot_save:
                        self.cannot_save = True
                        self._notify()
                    raise ActionNotKept(NOT_SAVED) from exc
                self.game = after
                if item.setup is not None:
                    self._known = dict(item.setup)
                self.cannot_save = False
                self.version += 1
                break
            else:
                raise TooLate("the table kept moving: try your move again")
        self._notify()

    async def say(self, name: str, text: str) -> None:
        """Send a chat line to the table on every server (this one's included,
        when the bus brings it back)."""
        await asyncio.to_thread(self.store.announce, chat_payload(self.id, name, text))

    def heard(self, payload: str) -> None:
        """A notification from the bus: a chat line of this table, or a move
        (caught up in a task of its own), or the bus back after a break."""
        if payload == RECONNECTED:  # whatever the bus missed is in the store
            if self.followed:
                _spawn(self.catch_up())
            else:
                self._behind = True
            return
        chat = chat_of(payload)
        if chat is not None and chat[0] == self.id:
            self.chat.append(chat[1])
            self._notify()
            return
        move = move_of(payload)
        if move is not None and move[0] == self.id and move[1] >= self.game.action_count():
            if self.followed:
                _spawn(self.catch_up())
            else:
                self._behind = True


class Driving:
    """The tables this server drives, kept up with moves other servers append:
    each is replayed from the store and handed to :meth:`Table.adopt`."""

    def __init__(self, store: PgStore) -> None:
        self.store = store
        self.tables: weakref.WeakValueDictionary[int, Table[Match]] = \
            weakref.WeakValueDictionary()
        """Weakly: the lobby holds a table while it is played or looked at; a
        finished one it let go of is not driven any more (every game a server
        drove stayed in memory, game after game)."""
        self.chat: dict[int, list[RemoteChat]] = {}
        self._tasks: set[asyncio.Task[bool]] = set()

    def drive(self, table_id: int, table: Table[Match]) -> None:
        for gone in [i for i in self.chat if i not in self.tables]:
            del self.chat[gone]  # the chat heard at tables let go of
        self.tables[table_id] = table
        self.chat.setdefault(table_id, [])

        async def reload_game() -> Match:  # a move of the table's own was stale
            return replayed(await asyncio.to_thread(self.store.load_table, table_id))
        table.reload_game = reload_game

    def heard(self, payload: str) -> None:
        if payload == RECONNECTED:  # whatever the bus missed is in the store
            for table_id, table in list(self.tables.items()):
                self._adopting(table_id, table)
            return
        chat = chat_of(payload)
        if chat is not None:
            driven = self.tables.get(chat[0])
            if driven is not None:
                self.chat[chat[0]].append(chat[1])
                driven.seats_changed()  # every screen reads the table again
            return
        move = move_of(payload)
        moved = self.tables.get(move[0]) if move is not None else None
        if move is None or moved is None:
            return
        if move[1] >= moved.game.action_count():  # not our own, already applied
            self._adopting(move[0], moved)

    def _adopting(self, table_id: int, table: Table[Match]) -> None:
        task = asyncio.get_running_loop().create_task(self._adopt(table_id, table))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _adopt(self, table_id: int, table: Table[Match]) -> bool:
        stored = await asyncio.to_thread(self.store.load_table, table_id)
        return await table.adopt(replayed(stored))


def news_payload(table_id: int, origin: str, news: News) -> str:
    """The notification carrying ``news`` of a table from server ``origin``."""
    body = {"from": origin, **news_json(news)}
    return f"news:{table_id}:{json.dumps(body, ensure_ascii=False)}"


def heard_of(payload: str) -> Heard | None:
    """What a notification tells a lobby, if anything (a chat line cleaned
    again here: the bus is not trusted to carry only our own words)."""
    if payload == "tables":
        return Heard(0, "", None)
    found = _json_of(payload, "news")
    if found is None:
        return None
    table, data = found
    news = news_of(data)
    if news is None:
        return None
    if isinstance(news, Said):
        text = clean_text(news.text, CHAT_LENGTH)
        if not text:
            return None
        news = Said(clean_name(news.name), text, news.code)
    return Heard(table, str(data.get("from", "")), news)


class PgSharing:
    """The servers sharing one PostgreSQL store, for a lobby
    (:class:`~fivetowers.tables.sharing.SharedTables`): the bus, the tables
    this server drives (:class:`Driving`) and those it shows (:class:`RemoteTable`)."""

    def __init__(self, store: PgStore, bus: Bus) -> None:
        self.origin = secrets.token_hex(6)
        self.store = store
        self.bus = bus
        self.driving = Driving(store)
        self.remotes: dict[int, RemoteTable] = {}
        self._hear: list[Callable[[Heard], None]] = []
        self._told: asyncio.Task[None] | None = None
        """The latest news being told: the next waits for it."""
        bus.listen(self._heard)

    @classmethod
    async def start(cls, store: PgStore) -> PgSharing:
        """Listening on the store's bus (StoreUnavailable if it cannot)."""
        bus = Bus(store.url)
        await bus.start()
        return cls(store, bus)

    def listen(self, hear: Callable[[Heard], None]) -> None:
        self._hear.append(hear)

    async def live(self) -> list[TableInfo]:
        return await asyncio.to_thread(self.store.live_tables)

    async def remote(self, table_id: int, workers: Workers | None) -> Table[Match]:
        table = await RemoteTable.load(self.store, table_id, workers)
        self.remotes[table_id] = table
        await table.catch_up()  # a move kept between the load and hearing of moves
        return table

    def forget(self, table_id: int) -> None:
        self.remotes.pop(table_id, None)

    def follow(self, table_id: int, on: bool) -> None:
        remote = self.remotes.get(table_id)
        if remote is not None:
            remote.follow(on)

    def drive(self, table_id: int, table: Table[Match]) -> None:
        # A table taken over (its server died) may still be shown here as
        # remote: that view keeps up through the store, as before.
        self.driving.drive(table_id, table)

    def tell(self, table_id: int, news: News) -> None:
        self._told = _spawn(self._announce(news_payload(table_id, self.origin, news),
                                           self._told))

    async def _announce(self, payload: str, after: asyncio.Task[None] | None) -> None:
        # In the order told (the store's lock made them one at a time
        # anyway, in any order): chat lines, seats and presences reach the
        # other servers as they were said here.
        if after is not None:
            await asyncio.wait({after})
        try:
            await asyncio.to_thread(self.store.announce, payload)
        except StoreError as exc:  # news is not durable: the next change tells again
            log.warning("could not tell the other servers: %s", exc)

    def _heard(self, payload: str) -> None:
        move = move_of(payload)
        if move is not None:
            remote = self.remotes.get(move[0])
            if remote is not None:
                remote.heard(payload)
            self.driving.heard(payload)
            return
        heard = heard_of(payload)
        if heard is None or heard.origin == self.origin:
            return
        for hear in list(self._hear):
            hear(heard)

    async def close(self) -> None:
        await self.bus.close()


_running: set[asyncio.Task[Any]] = set()


def _spawn(coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    """A task kept referenced until done (asyncio keeps only weak references),
    outside the calling session's context (it must not hold that session's App)."""
    task = asyncio.get_running_loop().create_task(coro, context=contextvars.Context())
    _running.add(task)
    task.add_done_callback(_running.discard)
    return task
