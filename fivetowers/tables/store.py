"""The store: what the tables layer needs to keep every game across restarts.

The tables layer depends on the :class:`Store` protocol only; SQLite
(:mod:`fivetowers.tables.sqlite_store`, the default, in the data directory)
and PostgreSQL (:mod:`fivetowers.tables.pg_store`, named by a
``postgresql://`` URL) implement it; :func:`open_store` picks one.

The store knows games, not 5 Towers: a table keeps its game's *kind* (the
registry's name, :func:`fivetowers.games.game_kind`), the game's *setup* (its
record without ``players`` and ``actions``, as JSON: for 5 Towers the
variant, seed, deck order and reshuffle) and its actions, each the JSON its
record writes. An action is committed by :meth:`Store.append_action`
*before* anyone is told of it, with the setup if the action changed it (a
reshuffle it revealed), and a restart rebuilds every unfinished table by
replaying its record (:mod:`fivetowers.tables.restore`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping, Protocol, Sequence

from fivetowers.games.protocol import Match

STORE_FILE = "fivetowers.sqlite3"
LOCAL_CODE_PREFIX = "local-"
"""The code of a game played at one terminal (``fivetowers play``), kept in
the same store as the server's: no join code starts so, and a server never
serves such a table (only ``fivetowers play --resume`` does)."""


def is_local(code: str) -> bool:
    """Whether a kept table is a local game (see :data:`LOCAL_CODE_PREFIX`)."""
    return code.startswith(LOCAL_CODE_PREFIX)


class StoreError(Exception):
    """Base class of store errors; the message is one line a host can act on."""


class StoreUnreadable(StoreError):
    """The file is not a fivetowers store, or it is damaged: refused at start."""


class StoreUnwritable(StoreError):
    """The data directory or one of the store's files cannot be written: refused at start."""


class StoreUnavailable(StoreError):
    """A write or read failed in the store itself (a full disk, an I/O error):
    nothing was written, and the same call may succeed once the cause is gone."""


class StoreVersionError(StoreError):
    """The store was written by a newer fivetowers (an unknown schema version)."""


class StoreMissing(StoreError):
    """There is no store where one was expected (and creating one was not asked)."""


class StoreBusy(StoreError):
    """Another server process holds the store (``open_store(exclusive=True)``)."""


class UnknownTable(StoreError):
    """No table with that id in the store."""


class StoreConflict(StoreError):
    """A write that does not fit what the store holds (an action out of order,
    a duplicate join code, a finished table): a bug in the caller, refused."""


class StaleAction(StoreConflict):
    """An action whose number another server sharing the store kept first:
    read the store's game and check the action again (not a bug there)."""


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """One seat as kept: a human by SSH key fingerprint, or a bot by kind.

    A seat with neither (a guest) is kept in the record but not rated.
    """

    name: str
    fingerprint: str | None = None
    bot: str | None = None

    @property
    def identity(self) -> str | None:
        """The rated identity: ``key:<fingerprint>``, ``bot:<kind>`` or None."""
        if self.bot is not None:
            return f"bot:{self.bot}"
        if self.fingerprint is not None:
            return f"key:{self.fingerprint}"
        return None


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table without its record: what a "my games" list shows."""

    id: int
    code: str
    name: str
    kind: str  # the game's registry name: fivetowers, ...
    options: dict[str, str]  # the game's options (GameKind.options_of its setup)
    seats: tuple[StoredSeat, ...]
    private: bool
    created: float  # Unix time
    finished: float | None  # Unix time, None while the game goes on
    actions: int  # how many actions are stored
    scores: tuple[int, ...] | None  # final scores by seat, once finished
    winners: tuple[int, ...] | None  # winning seats, once finished


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table and its whole record (its game's JSON document), ready to replay."""

    info: TableInfo
    record: dict[str, Any]


@dataclass(frozen=True, slots=True)
class PendingAction:
    """One action to commit: number ``index`` of a table, as its record's JSON,
    with the game's setup when this action changed it (else None)."""

    table_id: int
    index: int
    action: Mapping[str, Any]
    setup: Mapping[str, Any] | None = None

    @classmethod
    def last_of(cls, table_id: int, match: Match,
                known_setup: Mapping[str, Any] | None = None) -> PendingAction:
        """The action ``match`` has just applied (its last), with its setup
        unless that equals ``known_setup`` (the setup the store has)."""
        index = match.action_count() - 1
        setup = match.setup_json()
        return cls(table_id, index, match.action_json(index),
                   None if setup == known_setup else setup)


@dataclass(frozen=True, slots=True)
class Rating:
    """One line of a game's leaderboard: each game is rated on its own."""

    identity: str  # key:<fingerprint> or bot:<kind>
    name: str  # the name last played under (a bot: its kind)
    rating: float
    games: int
    wins: int
    kind: str  # the game rated (its registry name)


class Store(Protocol):
    """Everything the tables layer asks of a store. Every write is durable
    when the call returns; a failed call raises :class:`StoreError` and
    writes nothing."""

    def create_table(self, *, code: str, name: str, kind: str, setup: Mapping[str, Any],
                     seats: Sequence[StoredSeat], actions: Sequence[Mapping[str, Any]] = (),
                     private: bool = False) -> int:
        """Keep a new table of the game ``kind``; returns its id. ``setup`` is
        its record without players and actions (``Match.setup_json()``);
        ``actions`` (usually none yet) are kept too. ``code`` is unique among
        unfinished tables."""
        ...

    def append_action(self, table_id: int, index: int, action: Mapping[str, Any],
                      setup: Mapping[str, Any] | None = None) -> None:
        """Commit action number ``index`` (its record's JSON) of a table, and
        with it the game's setup if this action changed it, in the same
        commit. ``index`` must be the number of actions already stored. A
        setup may only grow: a new key, or a list kept with more entries
        after the same ones (GoTown's ``reshuffles``); a key dropped or kept
        with another value is a :class:`StoreConflict`."""
        ...

    def append_actions(self, batch: Sequence[PendingAction]) -> list[StoreError | None]:
        """Commit several actions (of one or many tables) in one durable
        commit; each is kept or refused on its own, in order: the result
        holds None for a kept one, the error for a refused one."""
        ...

    def finish_table(self, table_id: int, scores: Sequence[int],
                     winners: Sequence[int]) -> bool:
        """Mark a game finished with its results and update the ratings at
        its game (its kind) in the same commit. False (and nothing changes)
        if already finished."""
        ...

    def unfinished_tables(self) -> list[StoredTable]:
        """Every table whose game goes on, oldest first, to rebuild at start."""
        ...

    def load_table(self, table_id: int) -> StoredTable:
        """One table (finished or not) and its record; :class:`UnknownTable`."""
        ...

    def games_of(self, fingerprint: str, limit: int = 50) -> list[TableInfo]:
        """The games a key has played or plays, newest first."""
        ...

    def leaderboard(self, limit: int = 20, kind: str | None = None) -> list[Rating]:
        """Rated identities at the game ``kind``, best first; None: every
        game's ratings, each a line of its own, best first."""
        ...

    def close(self) -> None:
        ...

    def preference(self, identity: str, name: str) -> str | None:
        """What a player chose for ``name`` (``language``: ``en``, ``vi``),
        kept by their SSH key's fingerprint; None if never chosen."""
        ...

    def set_preference(self, identity: str, name: str, value: str) -> None:
        """Keep a player's choice (replacing an earlier one)."""
        ...

    def abandon_table(self, table_id: int) -> bool:
        """Mark an unfinished game abandoned (nobody came back to it): it ends
        where it stopped, without scores or rating changes, is no longer among
        :meth:`unfinished_tables` and gives its code back. Its
        :class:`TableInfo` then has ``finished`` set and ``scores`` None.
        False (and nothing changes) if it was finished already."""
        ...


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/fivetowers``, else ``~/.local/share/fivetowers``."""
    base = os.environ.get("XDG_DATA_HOME")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "fivetowers"


STORE_ENV = "FIVETOWERS_STORE"
"""The environment variable naming a PostgreSQL store when ``--store`` does not."""


def store_url(option: str | None) -> str | None:
    """The PostgreSQL store asked for: ``option`` (``--store``), else
    ``$FIVETOWERS_STORE``; None for the SQLite store of the data directory.
    :class:`StoreError` if it is not a ``postgresql://`` URL."""
    url = option if option else os.environ.get(STORE_ENV) or None
    if url is None:
        return None
    if not url.startswith(("postgresql://", "postgres://")):
        source = "--store" if option else f"${STORE_ENV}"
        raise StoreError(f"{source} must be a postgresql:// URL (the SQLite store is "
                         "the data directory's, chosen with --data-dir)")
    return url


def open_store(data_dir: Path | str | None = None, *, create: bool = True,
               exclusive: bool = False, url: str | None = None,
               shared: bool = False) -> Store:
    """The PostgreSQL store at ``url`` if given, else the SQLite store in
    ``data_dir`` (default :func:`default_data_dir`).

    Raises :class:`StoreError` subclasses with a one-line message: a damaged
    or foreign store, a newer schema, (``create=False``) no store at all,
    (``exclusive=True``, for the server) another process holding it, or an
    unreachable database. ``shared`` (PostgreSQL only): one of several
    servers sharing the store, each driving the tables it leases.
    """
    if shared and url is None:
        raise StoreError("sharing a store between servers needs PostgreSQL (--store "
                         "postgresql://...): the SQLite store is one server's")
    if url is not None:
        try:
            from fivetowers.tables.pg_store import PgStore
        except ImportError:
            raise StoreError("the PostgreSQL store needs psycopg: "
                             "pip install 'fivetowers[postgres]'") from None
        return PgStore(url, create=create, exclusive=exclusive and not shared, shared=shared)
    from fivetowers.tables.sqlite_store import SqliteStore

    directory = Path(data_dir) if data_dir is not None else default_data_dir()
    if create:
        try:
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)  # keys and games: private
        except OSError as exc:
            raise StoreError(f"cannot create the data directory {directory}: "
                             f"{exc.strerror or exc}") from None
    return SqliteStore(directory / STORE_FILE, create=create, exclusive=exclusive)


ActionHook = Callable[[Match], Awaitable[None] | None]
"""Keeps an action: called with the game *after* it (the action is its last;
at a live table, a copy nobody sees yet); plain or async. Raising refuses the
action. The one hook type of the tables layer: a live
:class:`~fivetowers.tables.table.Table`'s ``on_action`` and
:func:`action_hook`'s committer."""


def action_hook(store: Store, table_id: int) -> Callable[[Match], None]:
    """A synchronous committer for code that applies actions itself (tools,
    tests): commits the action the game has just applied, with its setup
    when that changed. A live :class:`~fivetowers.tables.table.Table`
    commits off the event loop instead: its ``on_action`` awaits
    ``StoreWriter.append`` (see the lobby)."""
    known: list[Mapping[str, Any] | None] = [None]

    def commit(match: Match) -> None:
        # A changed setup (a reshuffle revealed) rides along with the action
        # that caused it (the same commit): a restart never sees one without
        # the other.
        item = PendingAction.last_of(table_id, match, known[0])
        store.append_action(table_id, item.index, item.action, item.setup)
        if item.setup is not None:
            known[0] = item.setup

    return commit
