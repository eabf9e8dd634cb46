"""What a lobby may ask of the servers it shares its tables with (issue 15).

The lobby knows no database: it is handed a :class:`SharedTables` (for
PostgreSQL, :class:`fivetowers.tables.remote.PgSharing`) and hears from it
through :class:`Heard` news. A table another server drives comes to the
lobby as a :class:`~fivetowers.tables.table.Table` (a ``RemoteTable``), so
screens play and watch it as they do a table of their own server.

News between servers about one table:

- :class:`Said`: a chat line (cleaned by whoever shows it); at a forming
  table (table id 0) it names the table's code;
- :class:`Presence`: a player sat down or left, a watcher came or went, on
  another server (the driving server counts them as its own sessions);
- :class:`SeatStates`: who is connected and who has a stand-in, as the
  driving server knows it (every other server shows that);
- :class:`SeatsWanted`: a server that just started showing the table asks
  the driver for its :class:`SeatStates`.

Before its game starts a table is in no store, only at the server where it
was opened: that server tells the others of it (:class:`Forming`, table id
0), and a player at another server takes or leaves a free seat by asking it
(:class:`Seating`).

A finished game's rematch forms at the server that drove the game (a
forming table, told as a :class:`Forming` with ``rematch`` set); a player
at another server says yes with :class:`Again` (table id: the finished game's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, Union

from fivetowers.games.protocol import Match
from fivetowers.tables.store import TableInfo
from fivetowers.tables.table import Table
from fivetowers.tables.workers import Workers


@dataclass(frozen=True, slots=True)
class Said:
    name: str
    text: str
    code: str = ""
    """The forming table's code (table id 0), which is in no store yet."""


@dataclass(frozen=True, slots=True)
class Presence:
    identity: str
    name: str
    here: bool
    """Arrived (True) or left (False)."""
    watching: bool
    """A watcher, not a seated player."""


@dataclass(frozen=True, slots=True)
class SeatStates:
    connected: tuple[bool, ...]
    standing_in: tuple[bool, ...]
    """Seats a stand-in bot plays now, for a player who is away."""
    stand_in_in: tuple[float | None, ...]
    """Seconds until a due stand-in starts (None: none due)."""


@dataclass(frozen=True, slots=True)
class SeatsWanted:
    pass


@dataclass(frozen=True, slots=True)
class Forming:
    """A table waiting for players at the server it was opened on."""

    code: str
    name: str
    kind: str
    options: tuple[tuple[str, str], ...]
    private: bool
    created: float
    seats: tuple[tuple[str, str | None, str | None], ...]
    """Each seat's name, bot and identity (a free seat has neither)."""
    open: bool = True
    """False: it is no longer forming (started, or everybody left)."""
    rematch: bool = False
    """A finished game's rematch, at the same code, for the same players."""
    pending: tuple[int, ...] = ()
    """(A rematch) the seats whose player has not said yes yet."""


@dataclass(frozen=True, slots=True)
class Seating:
    """A player at another server takes (``here``) or leaves a seat at a forming table."""

    code: str
    identity: str
    name: str
    here: bool


@dataclass(frozen=True, slots=True)
class Again:
    """A player at another server says yes to a rematch of the finished game
    (and leaves it for the rematch: the driving server does both, in order)."""

    identity: str
    name: str


@dataclass(frozen=True, slots=True)
class Alive:
    """A server is still there (sent every few seconds, table id 0): one
    silent for long has died, and its players are no longer at any table."""


News = Union[Said, Presence, SeatStates, SeatsWanted, Forming, Seating, Again, Alive]


@dataclass(frozen=True, slots=True)
class Heard:
    """News of table ``table_id`` from server ``origin`` (never this one's own);
    ``news`` None: the list of live tables changed."""

    table_id: int
    origin: str
    news: News | None


class SharedTables(Protocol):
    """The servers sharing one store, as a lobby uses them."""

    origin: str
    """This server's name among them (news it sent comes back with it)."""

    def listen(self, hear: Callable[[Heard], None]) -> None:
        """Hand every piece of news from the other servers to ``hear``."""
        ...

    async def live(self) -> list[TableInfo]:
        """Every server's unfinished tables."""
        ...

    async def remote(self, table_id: int, workers: Workers | None) -> Table[Match]:
        """A table another server drives, kept up with every move (its hints
        computed in ``workers``)."""
        ...

    def forget(self, table_id: int) -> None:
        """Stop keeping up the remote table ``table_id`` (nobody shows it)."""
        ...

    def follow(self, table_id: int, on: bool) -> None:
        """Read the remote table's every move as it comes (someone here is at
        it), or (off) only once someone comes: its listing waits till then."""
        ...

    def drive(self, table_id: int, table: Table[Match]) -> None:
        """This server drives ``table``: other servers' moves are adopted."""
        ...

    def tell(self, table_id: int, news: News) -> None:
        """Send ``news`` of a table to every other server (in the background)."""
        ...

    async def close(self) -> None:
        ...


def news_json(news: News) -> dict[str, Any]:
    """``news`` as a JSON object (the bus carries text)."""
    if isinstance(news, Said):
        # The release before reads exactly [name, text] and the forming
        # table's 8 fields: what it would not know is sent only when there is.
        return {"said": [news.name, news.text] + ([news.code] if news.code else [])}
    if isinstance(news, Presence):
        return {"presence": [news.identity, news.name, news.here, news.watching]}
    if isinstance(news, SeatStates):
        return {"seats": [list(news.connected), list(news.standing_in),
                          list(news.stand_in_in)]}
    if isinstance(news, Forming):
        told = [news.code, news.name, news.kind, [list(o) for o in news.options],
                news.private, news.created, [list(s) for s in news.seats], news.open]
        return {"forming": told + ([True, list(news.pending)] if news.rematch else [])}
    if isinstance(news, Seating):
        return {"seating": [news.code, news.identity, news.name, news.here]}
    if isinstance(news, Again):
        return {"again": [news.identity, news.name]}
    if isinstance(news, Alive):
        return {"alive": True}
    return {"wanted": True}


def _optional(value: Any) -> str | None:
    return None if value is None else str(value)


def news_of(body: Any) -> News | None:
    """The news a JSON object carries; None if it is none we know (or is
    malformed: the bus is not trusted to carry only our own words)."""
    if not isinstance(body, dict):
        return None
    try:
        if "said" in body:
            # A server of the release before says no code (none forming).
            name, text, *code = body["said"]
            return Said(str(name), str(text), str(code[0]) if code else "")
        if "presence" in body:
            identity, name, here, watching = body["presence"]
            return Presence(str(identity), str(name), bool(here), bool(watching))
        if "seats" in body:
            connected, standing, due = body["seats"]
            return SeatStates(tuple(bool(c) for c in connected),
                              tuple(bool(s) for s in standing),
                              tuple(None if d is None else float(d) for d in due))
        if "wanted" in body:
            return SeatsWanted()
        if "alive" in body:
            return Alive()
        if "forming" in body:
            (code, name, kind, options, private, created, seats, is_open,
             *rematch_of) = body["forming"]  # the release before tells no rematch
            rematch, pending = rematch_of if rematch_of else (False, [])
            return Forming(str(code), str(name), str(kind),
                           tuple((str(k), str(v)) for k, v in options), bool(private),
                           float(created),
                           tuple((str(n), _optional(b), _optional(i)) for n, b, i in seats),
                           bool(is_open), bool(rematch), tuple(int(p) for p in pending))
        if "again" in body:
            identity, name = body["again"]
            return Again(str(identity), str(name))
        if "seating" in body:
            code, identity, name, here = body["seating"]
            return Seating(str(code), str(identity), str(name), bool(here))
    except (TypeError, ValueError):
        return None
    return None
