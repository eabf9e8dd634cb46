"""Small forms over the lobby: a new table, and joining by code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static, Switch

from fivetowers.games.five_towers.rules import Variant
from fivetowers.lobby.model import TITLE_LENGTH


@dataclass(frozen=True)
class NewTable:
    """What the creator asked for."""

    title: str
    players: int
    bots: int
    variant: Variant
    private: bool


class NewTableScreen(ModalScreen[NewTable | None]):
    """Enter in any field creates the table; Escape cancels.

    ``refusal`` says why no table may be opened now (the server's or this
    player's limit), or None: the form shows it at once and on Enter."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, refusal: Callable[[], str | None] | None = None) -> None:
        super().__init__()
        self._refusal = refusal

    def on_mount(self) -> None:
        self._refused()

    def _refused(self) -> bool:
        """Show why no table can be opened, if so; True then."""
        reason = self._refusal() if self._refusal is not None else None
        if reason is not None:
            self.query_one("#form-error", Static).update(
                Text(f"No new table: {reason}.", style="bold red"))
        return reason is not None

    def compose(self) -> ComposeResult:
        with Vertical(id="new-table", classes="form"):
            yield Static("New table  (Tab: next field, Enter: create, Esc: cancel)",
                         classes="form-title")
            yield Label("Name")
            yield Input(placeholder="a name for the table", id="title",
                        max_length=TITLE_LENGTH)
            with Horizontal(classes="form-row"):
                yield Label("Seats (2-5)")
                yield Input("3", id="players", max_length=1, restrict=r"[2-5]?")
                yield Label("of them bots")
                yield Input("1", id="bots", max_length=1, restrict=r"[0-4]?")
            with Horizontal(classes="form-row"):
                yield Label("Great Powers")
                yield Switch(False, id="powers")
                yield Label("Private")
                yield Switch(False, id="private")
            yield Static("", id="form-error")

    def on_input_submitted(self) -> None:
        players = self.query_one("#players", Input).value
        bots = self.query_one("#bots", Input).value
        if not players or not bots or int(bots) >= int(players):
            self.query_one("#form-error", Static).update(
                "Seats 2-5, and fewer bots than seats (one seat is yours).")
            return
        if self._refused():
            return
        self.dismiss(NewTable(
            title=self.query_one("#title", Input).value,
            players=int(players), bots=int(bots),
            variant=Variant.GREAT_POWERS if self.query_one("#powers", Switch).value
            else Variant.BASE,
            private=self.query_one("#private", Switch).value))

    def action_cancel(self) -> None:
        self.dismiss(None)


class JoinScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="join", classes="form"):
            yield Static("Join a table by its code (Enter: join, Esc: cancel)",
                         classes="form-title")
            yield Input(placeholder="CODE", id="code", max_length=12,
                        restrict=r"[A-Za-z0-9]*")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip().upper() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChatScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="chat", classes="form"):
            yield Static("Say to the table (Enter: send, Esc: cancel)", classes="form-title")
            yield Input(placeholder="a line for everyone at this table", id="line",
                        max_length=120)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
