"""Kept games and ratings for the lobby's history screens, read off the event loop.

Every store call waits for SQLite (and, behind a commit, for the disk), and
building a game's :class:`~fivetowers.games.screens.Replay` replays a whole game: neither may run on the
loop that serves every session (DESIGN.md "slow work off the event loop").
Store calls go through the server's :class:`StoreWriter` when it has one (in
turn with the commits), else to a worker thread; the replay always runs in a
worker thread, so the writer thread keeps committing meanwhile.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from fivetowers.games import game_kind
from fivetowers.games.protocol import GameKind
from fivetowers.games.screens import Replay
from fivetowers.i18n import _
from fivetowers.user_text import clean_name
from fivetowers.tables.store import Rating, Store, StoreError, TableInfo
from fivetowers.tables.store_writer import StoreWriter

T = TypeVar("T")
KEY_PREFIX = "SHA256:"
"""Only SSH keys are kept as identities (a password login is a guest)."""


class NoArchive(StoreError):
    """The server keeps no games (it runs without a store)."""


@dataclass(frozen=True, slots=True)
class KeptGame:
    """A kept game ready to step through, and where the viewer sat (None: not at it)."""

    info: TableInfo
    kind: GameKind
    replay: Replay
    seat: int | None

    @property
    def names(self) -> list[str]:
        """The players, cleaned again as they come out of a file."""
        return [clean_name(s.name) for s in self.info.seats]


def seat_of(info: TableInfo, fingerprint: str | None) -> int | None:
    """The seat a key played at that table (the first, should it have had two)."""
    for i, seat in enumerate(info.seats):
        if fingerprint is not None and seat.fingerprint == fingerprint:
            return i
    return None


def is_key(identity: str) -> bool:
    """Whether a session identity is an SSH key fingerprint (games are kept by key)."""
    return identity.startswith(KEY_PREFIX)


class Archive:
    """What the history screens read: a player's games, one game, the leaderboard."""

    def __init__(self, store: Store | None, writer: StoreWriter | None = None) -> None:
        self.store = writer.store if writer is not None else store
        self.writer = writer

    @property
    def keeps_games(self) -> bool:
        return self.store is not None

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        if self.writer is not None:
            return await self.writer.call(fn, *args)
        return await asyncio.to_thread(fn, *args)

    def _store(self) -> Store:
        if self.store is None:
            raise NoArchive(_("this server keeps no games"))
        return self.store

    async def games_of(self, fingerprint: str, limit: int = 50) -> list[TableInfo]:
        """The games a key played or plays, newest first."""
        return await self._call(self._store().games_of, fingerprint, limit)

    async def leaderboard(self, limit: int = 20, kind: str | None = None) -> list[Rating]:
        """The ratings at the game ``kind`` (None: every game's), best first."""
        return await self._call(self._store().leaderboard, limit, kind)

    async def game(self, table_id: int, fingerprint: str | None) -> KeptGame:
        """One game, every position computed (in a thread); StoreError if it
        is not there or its record does not even start."""
        stored = await self._call(self._store().load_table, table_id)
        # Names were cleaned when their players logged in; cleaned again here,
        # as they come out of a file, so every log line built from them is safe.
        players = stored.record.get("players", [])
        record = {**stored.record, "players": [clean_name(str(p)) for p in players]}
        try:
            kind = game_kind(stored.info.kind)
            replay = await asyncio.to_thread(kind.screens().replay, record)
        except ValueError as exc:  # an unknown game, the record's and the game's errors
            raise StoreError(f"game {table_id} cannot be replayed: {exc}") from None
        return KeptGame(stored.info, kind, replay, seat_of(stored.info, fingerprint))
