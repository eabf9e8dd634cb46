"""What a lobby screen may ask of its App, declared once.

Screens never import the App class (it imports them) and never read it
through ``getattr``: they reach it as a :class:`LobbyHost` through
:func:`lobby_host`, and :class:`~fivetowers.lobby.app.LobbyApp` implements it
(mypy checks that where the app hands itself to a screen).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from textual.message import Message

if TYPE_CHECKING:
    from textual.screen import Screen

    from fivetowers.lobby.model import HostedTable, Lobby
    from fivetowers.lobby.new_table_screen import NewTable


@dataclass
class LobbyChanged(Message):
    """Some table was created, filled, moved on or closed: list again."""


@runtime_checkable
class LobbyHost(Protocol):
    """The session's side of the lobby, as its screens see it."""

    @property
    def lobby(self) -> Lobby:
        """The tables every session shares."""
        ...

    @property
    def identity(self) -> str:
        """This player's identity (a key fingerprint, or ``password:NAME``)."""
        ...

    @property
    def player_name(self) -> str:
        """This player's name, cleaned at login."""
        ...

    @property
    def port(self) -> int:
        """The server's port, for the ``ssh ... join CODE`` line."""
        ...

    @property
    def server_name(self) -> str:
        """The server's address or public name, for the same line."""
        ...

    def open_table(self, code: str, watch: bool | None) -> None:
        """Sit at (``watch`` False), watch (True), or sit-else-watch (None) a table."""
        ...

    def table_started(self, hosted: HostedTable) -> None:
        """The table this player waits at has every seat taken: to the game."""
        ...

    def new_table_refusal(self) -> str | None:
        """Why this player may not open a table now; None if they may."""
        ...

    def create_table(self, form: NewTable | None) -> None:
        """Open the table the new-table form asked for (None: cancelled)."""
        ...

    @property
    def language(self) -> str:
        """The language this session reads (``en``, ``vi``)."""
        ...

    def switch_language(self, language: str | None = None) -> None:
        """Read ``language`` from now on (None: the next one); kept for this key."""
        ...

    def back_to_lobby(self) -> None:
        """Leave the table (a seat at a running game is kept) for the lobby."""
        ...


class NotInLobby(TypeError):
    """A lobby screen was shown by an app that is no lobby."""


_HOST_CLASSES: weakref.WeakSet[type[Any]] = weakref.WeakSet()
"""App classes found to be lobby hosts: the check is made once per class."""


def lobby_host(screen: Screen[Any]) -> LobbyHost:
    """The lobby app ``screen`` is shown by, typed as what screens may ask of it."""
    app = screen.app
    # A runtime protocol check asks the App for every member: some 25 Python
    # calls a time (Python 3.11 reads each property), three times a lobby
    # start. Every member is a method or property of the class or an
    # attribute its __init__ always sets (lobby, port, server_name), so the
    # answer is the class's.
    if type(app) in _HOST_CLASSES:
        return cast(LobbyHost, app)
    if not isinstance(app, LobbyHost):
        raise NotInLobby(f"{type(screen).__name__} is a lobby screen, "
                         f"but {type(app).__name__} is no lobby app")
    _HOST_CLASSES.add(type(app))
    return app
