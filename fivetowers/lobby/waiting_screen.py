"""A forming table: who sits where, the code to share, until every seat is taken."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from fivetowers.lobby.model import ChatLine, HostedTable
from fivetowers.lobby.lobby_screen import LobbyChanged
from fivetowers.tables.client import TableClient
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.ui.key_footer import KeyFooter

if TYPE_CHECKING:
    from fivetowers.lobby.app import LobbyApp


class WaitingScreen(Screen[None]):
    BINDINGS = [Binding("escape", "leave", "leave the table"),
                Binding("q", "leave", "leave the table", show=False)]

    def __init__(self, hosted: HostedTable) -> None:
        super().__init__()
        self.hosted = hosted
        self.moved_on = False

    @property
    def lobby_app(self) -> LobbyApp:
        from fivetowers.lobby.app import LobbyApp
        assert isinstance(self.app, LobbyApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield Static("", id="waiting")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.lobby_app.lobby.subscribe(self._on_lobby_change)
        # The last seat may have been taken between pushing this screen and now.
        self.on_lobby_changed(LobbyChanged())

    def on_unmount(self) -> None:
        self.lobby_app.lobby.unsubscribe(self._on_lobby_change)

    def _on_lobby_change(self) -> None:
        self.post_message(LobbyChanged())

    def on_lobby_changed(self, message: LobbyChanged) -> None:
        if self.moved_on:
            return  # several changes may be queued behind the one that started the game
        if self.hosted.started:
            self.moved_on = True
            self.lobby_app.table_started(self.hosted)
        else:
            self.show()

    def show(self) -> None:
        hosted, app = self.hosted, self.lobby_app
        text = Text.assemble(("Table ", "bold"), (hosted.code, "bold reverse"), "  ",
                             (hosted.name, "bold"), f"  ({hosted.variant.value})\n\n")
        for i, seat in enumerate(hosted.seats):
            who = seat.name if (seat.identity or seat.bot) else "(free)"
            text.append(f"  seat {i + 1}: ")
            text.append(who, style="bold" if seat.identity == app.visitor.identity else "")
            text.append("\n")
        text.append(f"\n{hosted.status().capitalize()}. Others join with\n\n")
        text.append(f"  ssh -t -p {app.port} HOST join {hosted.code}\n", style="bold")
        text.append("\nThe game starts when every seat is taken. Esc leaves the table.")
        self.query_one("#waiting", Static).update(text)

    def action_leave(self) -> None:
        self.lobby_app.back_to_lobby()


@dataclass
class ChatSaid(Message):
    line: ChatLine


class ServerTableScreen(TableScreen):
    """The game screen of a hosted table: q goes back to the lobby (the seat is
    kept) and c talks to the table (lines show as notifications to everyone)."""

    BINDINGS = [Binding("c", "chat", "chat")]

    def __init__(self, client: TableClient, hosted: HostedTable, hints: bool = True) -> None:
        super().__init__(client, hints)
        self.hosted = hosted

    # Textual calls every class's handler along the MRO: TableScreen's
    # on_mount/on_unmount run as well, so these do only the chat's part.
    async def on_mount(self) -> None:
        self.hosted.chat_listeners.append(self._on_chat)

    def on_unmount(self) -> None:
        if self._on_chat in self.hosted.chat_listeners:
            self.hosted.chat_listeners.remove(self._on_chat)

    def _on_chat(self, line: ChatLine) -> None:
        self.post_message(ChatSaid(line))

    def on_chat_said(self, message: ChatSaid) -> None:
        # Plain text: a name or a line is never parsed as markup.
        self.app.notify(f"{message.line.name}: {message.line.text}", title="chat",
                        markup=False, timeout=8)

    def action_chat(self) -> None:
        from fivetowers.lobby.new_table_screen import ChatScreen
        self.app.push_screen(ChatScreen(), self._send)

    def _send(self, text: str | None) -> None:
        if not text:
            return
        from fivetowers.lobby.app import LobbyApp
        app = self.app
        assert isinstance(app, LobbyApp)
        refusal = self.hosted.say(app.visitor.identity, app.visitor.name, text)
        if refusal is not None:
            self.app.notify(refusal, severity="warning")

    async def action_quit(self) -> None:
        from fivetowers.lobby.app import LobbyApp
        app = self.app
        if isinstance(app, LobbyApp):
            app.back_to_lobby()
        else:  # pragma: no cover - only hosted apps use this screen
            app.exit()
