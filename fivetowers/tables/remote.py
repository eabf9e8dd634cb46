"""Tables shared by servers on one PostgreSQL store (issue 15, the first slice
of "many processes, one lobby").

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
  the same way: :meth:`Driving.drive` gives the table a ``catch_up`` hook,
  so a move the store refuses as stale is checked again against the store's
  game and kept or refused (:meth:`Table._commit`).
- **A lost bus connection** is made again by the bus, which then hands
  every listener :data:`~fivetowers.tables.pg_bus.RECONNECTED`: each table
  catches up from the store, so no move announced meanwhile is missed.
- **Chat** travels in the notification (``chat:<table>:<json>``), cleaned
  (:mod:`fivetowers.user_text`) by every server that shows it.

Catching up replays the table's whole record from the store: a move may
have revealed a reshuffle the store's setup holds, so the record, not the
move alone, is what every server must agree on.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from fivetowers.games import game_kind
from fivetowers.games.protocol import Match
from fivetowers.tables.history import replay
from fivetowers.tables.pg_bus import RECONNECTED
from fivetowers.tables.pg_store import PgStore
from fivetowers.tables.store import PendingAction, StoreConflict, StoredTable, StoreError
from fivetowers.tables.table import (
    NOT_SAVED, STALE_RETRIES, ActionNotKept, NotYourSeat, Table, TooLate,
)
from fivetowers.user_text import clean_name, clean_text

CHAT_LENGTH = 120
"""The longest chat line that crosses servers (the lobby's own limit)."""
__all__ = ["Driving", "RemoteChat", "RemoteTable", "TooLate", "chat_of", "chat_payload",
           "move_of", "replayed"]


@dataclass(frozen=True, slots=True)
class RemoteChat:
    """A chat line said at a table through another server (cleaned)."""

    name: str
    text: str


def chat_payload(table_id: int, name: str, text: str) -> str:
    """The notification carrying one chat line to every server."""
    line = {"name": clean_name(name), "text": clean_text(text, CHAT_LENGTH)}
    return f"chat:{table_id}:{json.dumps(line, ensure_ascii=False)}"


def chat_of(payload: str) -> tuple[int, RemoteChat] | None:
    """The table and chat line a notification carries, if it is one (cleaned
    again here: the bus is not trusted to carry only our own words)."""
    kind, _, rest = payload.partition(":")
    table, _, body = rest.partition(":")
    if kind != "chat" or not table.isdigit():
        return None
    try:
        line = json.loads(body)
    except ValueError:
        return None
    if not isinstance(line, dict):
        return None
    text = clean_text(str(line.get("text", "")), CHAT_LENGTH)
    return (int(table), RemoteChat(clean_name(str(line.get("name", ""))), text)) if text \
        else None


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


class RemoteTable:
    """A table another server drives, as this server's players see and play it."""

    def __init__(self, store: PgStore, stored: StoredTable) -> None:
        self.store = store
        self.id = stored.info.id
        self.info = stored.info
        self.game: Match = replayed(stored)
        self._known: Mapping[str, Any] = _setup(stored)
        self.version = 0
        self.chat: list[RemoteChat] = []
        self._lock = asyncio.Lock()
        self._subscribers: list[Callable[[], None]] = []

    @classmethod
    async def load(cls, store: PgStore, table_id: int) -> RemoteTable:
        return cls(store, await asyncio.to_thread(store.load_table, table_id))

    def subscribe(self, callback: Callable[[], None]) -> None:
        self._subscribers.append(callback)

    def _notify(self) -> None:
        for callback in list(self._subscribers):
            callback()

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
                    raise ActionNotKept(NOT_SAVED) from exc
                self.game = after
                if item.setup is not None:
                    self._known = dict(item.setup)
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
        if payload == RECONNECTED:
            asyncio.get_running_loop().create_task(self.catch_up())
            return
        chat = chat_of(payload)
        if chat is not None and chat[0] == self.id:
            self.chat.append(chat[1])
            self._notify()
            return
        move = move_of(payload)
        if move is not None and move[0] == self.id and move[1] >= self.game.action_count():
            asyncio.get_running_loop().create_task(self.catch_up())


class Driving:
    """The tables this server drives, kept up with moves other servers append:
    each is replayed from the store and handed to :meth:`Table.adopt`."""

    def __init__(self, store: PgStore) -> None:
        self.store = store
        self.tables: dict[int, Table[Match]] = {}
        self.chat: dict[int, list[RemoteChat]] = {}
        self._tasks: set[asyncio.Task[bool]] = set()

    def drive(self, table_id: int, table: Table[Match]) -> None:
        self.tables[table_id] = table
        self.chat.setdefault(table_id, [])

        async def catch_up() -> Match:  # a move of the table's own was stale
            return replayed(await asyncio.to_thread(self.store.load_table, table_id))
        table.catch_up = catch_up

    def heard(self, payload: str) -> None:
        if payload == RECONNECTED:  # whatever the bus missed is in the store
            for table_id, table in self.tables.items():
                self._adopting(table_id, table)
            return
        chat = chat_of(payload)
        if chat is not None and chat[0] in self.tables:
            self.chat[chat[0]].append(chat[1])
            self.tables[chat[0]].seats_changed()  # every screen reads the table again
            return
        move = move_of(payload)
        if move is None or move[0] not in self.tables:
            return
        table = self.tables[move[0]]
        if move[1] >= table.game.action_count():  # not our own, already applied
            self._adopting(move[0], table)

    def _adopting(self, table_id: int, table: Table[Match]) -> None:
        task = asyncio.get_running_loop().create_task(self._adopt(table_id, table))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _adopt(self, table_id: int, table: Table[Match]) -> bool:
        stored = await asyncio.to_thread(self.store.load_table, table_id)
        return await table.adopt(replayed(stored))
