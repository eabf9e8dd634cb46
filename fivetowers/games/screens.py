"""What the hosting layers ask of a game's screens (Textual types allowed here).

:mod:`fivetowers.games.protocol` stays standard-library only, so that a
game's rules import nothing else; a game's screens are reached through
:meth:`GameKind.screens`, which imports its Textual code only when asked.

The lobby shows a game in three screens: the table (for a seat, or for a
watcher), the end, and the replay of a kept game. The table and end screens
belong to the game; what they need from whatever hosts them — leave, chat,
show the end, play again — is a :class:`TableHost` the host passes in. The
same screens serve ``fivetowers play`` (a local host: q quits, no chat) and a
lobby session (q goes back to the lobby, c talks to the table).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

if TYPE_CHECKING:
    from textual.screen import Screen

    from fivetowers.tables.table import Table


class ChatEntry(Protocol):
    """One line said at a table, as a host keeps it (text already cleaned by
    :mod:`fivetowers.user_text`)."""

    @property
    def name(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def moves(self) -> int:
        """How many actions the game had when it was said (0 before it began),
        so a screen can place it among the game's own log."""
        ...


class TableHost(Protocol):
    """What a game's table and end screens ask of whatever hosts the table.

    One host per table screen: it knows which table and seat it serves."""

    @property
    def in_lobby(self) -> bool:
        """At a server's table, in a lobby session: q goes back to the lobby (only the lobby's q
        disconnects) and the help says so; else local play, where q quits."""
        ...

    @property
    def offers_chat(self) -> bool:
        """Whether the table screen offers its chat key."""
        ...

    def chat(self) -> None:
        """Let the player say a line to the table (the host asks for it)."""
        ...

    def chat_lines(self) -> Sequence[ChatEntry]:
        """The table's recent chat, oldest first (what was said before this
        player arrived included); empty without chat."""
        ...

    def hear_chat(self, listener: Callable[[], bool] | None) -> None:
        """Call ``listener`` when a line is said at the table (None: stop).
        It returns whether the player can see it now; if not, the host shows
        the line itself."""
        ...

    def show_end(self) -> None:
        """The game is over, or the player asked for the results: the end screen."""
        ...

    async def play_again(self) -> None:
        """The end screen's "play again"."""
        ...

    async def leave(self) -> None:
        """The player leaves the table screen (a hosted seat is kept)."""
        ...


class Replay(Protocol):
    """Every position of a kept game, computed once: what a replay screen
    steps through. Only its game's screens look inside."""

    def __len__(self) -> int:
        """How many positions (the start, then one per action)."""
        ...


class GameScreens(Protocol):
    """A game's screens, as the lobby shows them."""

    def table_screen(self, table: Table[Any], seat: int | None, host: TableHost,
                     hints: bool) -> Screen[None]:
        """The live table as ``seat`` sees it (None: a watcher)."""
        ...

    async def next_game(self, screen: Screen[None], table: Table[Any], seat: int | None,
                        host: TableHost, hints: bool) -> bool:
        """Show the rematch ``table`` in ``screen``, a table screen of the game
        before (made by :meth:`table_screen`), as a new one would show it; False
        if it cannot (another game, another seat): the host makes a new one."""
        ...

    def end_screen(self, table: Table[Any], seat: int | None, host: TableHost) -> Screen[None]:
        """The game's end (scores, winners) as ``seat`` sees it."""
        ...

    def replay(self, record: Mapping[str, Any]) -> Replay:
        """Every position of a kept game from its record (the game's JSON
        document). Slow for a long game: hosts call it off the event loop.
        A RecordError (or another ValueError) if the record does not even start."""
        ...

    def replay_screen(self, replay: Replay, game_id: int, names: Sequence[str],
                      seat: int | None) -> Screen[None]:
        """A kept game, move by move, from ``seat``'s side (None: a stranger's)."""
        ...
