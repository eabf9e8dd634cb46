"""What every game's table screen does with its live table: redraw once per
burst of moves, and fetch the hint and the adviser's play off the event loop.

A game's table screen subclasses :class:`LiveTableScreen`, keeps its own
bindings and layout, and gives :meth:`LiveTableScreen.refresh_table` (draw
everything from the client's view) and :meth:`LiveTableScreen.draw_hint`
(draw the hint panel from ``hint`` and ``advice``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, Protocol, Sequence, TypeVar

from textual import work
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen

from fivetowers.compat.textual import is_closing
from fivetowers.i18n import N_


class TableEventLike(Protocol):
    @property
    def version(self) -> int: ...


class HostLike(Protocol):
    """What the screen asks of whatever hosts it (a game's TableHost)."""

    @property
    def offers_chat(self) -> bool: ...

    @property
    def in_lobby(self) -> bool: ...

    def chat(self) -> None: ...

    def chat_lines(self) -> Sequence[Any]: ...

    def hear_chat(self, listener: Callable[[], bool] | None) -> None: ...

    def show_end(self) -> None: ...

    async def leave(self) -> None: ...


TABLE_KEYS = [
    Binding("h", "toggle_hints", N_("hints")),
    Binding("question_mark", "help", N_("help"), key_display="?"),
    Binding("q", "quit", N_("quit")),
    Binding("c", "chat", N_("chat")),
]
"""The keys every table screen ends its bindings with (c: only if the host chats)."""


class LiveClient(Protocol):
    """What the screen asks of its game's client (a SeatClient)."""

    @property
    def version(self) -> int: ...

    async def hint(self) -> Any: ...

    async def advice(self) -> Any: ...


C = TypeVar("C", bound=LiveClient)


@dataclass
class TableChanged(Message):
    """The table moved on to ``version``: read the view again."""

    version: int


class LiveTableScreen(Screen[None], Generic[C]):
    """A table screen over a live table's client ``client``."""

    def __init__(self, client: C, host: HostLike, show_hints: bool,
                 classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.client = client
        self.host = host
        self.show_hints = show_hints
        self.hint: Any = None
        self.hint_version = -1
        self.advice: Any = None
        self.ended = False
        self.binding_keys: tuple[object, ...] = ()
        self.redraw_pending = False

    def _on_table_event(self, event: TableEventLike) -> None:
        # Moves that come faster than this screen draws are drawn once.
        if not self.redraw_pending:
            self.redraw_pending = True
            self.post_message(TableChanged(event.version))

    async def on_table_changed(self, message: TableChanged) -> None:
        self.redraw_pending = False
        await self.refresh_table()

    async def refresh_table(self) -> None:
        """Draw the table as the client sees it now."""
        raise NotImplementedError

    def draw_hint(self) -> None:
        """Draw the hint panel from ``hint`` and ``advice`` (once they came)."""
        raise NotImplementedError

    def showing(self) -> bool:
        """Whether the screen and its hint panel (``#hints``) are still up: a
        hint or advice that comes back from the workers after they went has
        nowhere to go (it once crashed a hosted session, issue 11)."""
        if not self.is_attached or is_closing(self):
            return False
        try:
            self.query_one("#hints")
        except NoMatches:
            return False
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "chat":
            return self.host.offers_chat
        return True

    async def action_toggle_hints(self) -> None:
        self.show_hints = not self.show_hints
        await self.refresh_table()

    def action_results(self) -> None:
        self.host.show_end()

    async def action_quit(self) -> None:
        await self.host.leave()

    def action_chat(self) -> None:
        self.host.chat()

    @work(exclusive=True, group="hint")
    async def load_hint(self, version: int) -> None:
        try:
            hint = await self.client.hint()
        except Exception:  # the workers failed it: the next change of the table asks again
            return
        if version != self.client.version or not self.showing():
            return
        self.hint, self.hint_version, self.advice = hint, version, None
        self.draw_hint()
        try:
            advice = await self.client.advice()  # the strong bot thinks for a while
        except Exception:
            return
        if advice is not None and version == self.client.version and self.showing():
            self.advice = advice
            self.draw_hint()
