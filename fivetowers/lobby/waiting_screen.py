"""A forming table: who sits where, the code to share, and what those
waiting say to each other, until every seat is taken."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from fivetowers.games import game_kinds
from fivetowers.i18n import N_, _
from fivetowers.i18n.terms import said_text
from fivetowers.lobby.host import LobbyChanged, LobbyHost, lobby_host
from fivetowers.lobby.model import ChatLine, HostedTable
from fivetowers.lobby.new_table_screen import ChatScreen
from fivetowers.ui.key_footer import KeyFooter


STOPPED = N_("table {code} is gone: the server it was opened on stopped")


class WaitingScreen(Screen[None]):
    BINDINGS = [Binding("escape", "leave", N_("leave the table")),
                Binding("q", "leave", N_("leave the table"), show=False),
                Binding("c", "chat", N_("chat"))]

    CHAT_SHOWN = 5
    """The latest chat lines shown under the seats."""

    def __init__(self, hosted: HostedTable) -> None:
        super().__init__()
        self.hosted = hosted
        self.moved_on = False

    @property
    def lobby_host(self) -> LobbyHost:
        return lobby_host(self)

    def compose(self) -> ComposeResult:
        yield Static("", id="waiting")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.lobby_host.lobby.subscribe(self._on_lobby_change)
        self.hosted.chat_listeners.append(self._on_chat)
        # The last seat may have been taken between pushing this screen and now.
        self.on_lobby_changed(LobbyChanged())

    def on_unmount(self) -> None:
        self.lobby_host.lobby.unsubscribe(self._on_lobby_change)
        if self._on_chat in self.hosted.chat_listeners:
            self.hosted.chat_listeners.remove(self._on_chat)

    def _on_lobby_change(self) -> None:
        # Its own sender, not the session that changed the lobby (see
        # LobbyScreen._on_lobby_change): that one may have ended.
        self.post_message(LobbyChanged().set_sender(self))

    def _on_chat(self, line: ChatLine) -> None:
        # Called from the session that spoke: only post, so this screen
        # redraws in its own App's context.
        self.post_message(LobbyChanged().set_sender(self))

    def on_lobby_changed(self, message: LobbyChanged) -> None:
        if self.moved_on:
            return  # several changes may be queued behind the one that started the game
        if self.hosted.started:
            self.moved_on = True
            self.lobby_host.table_started(self.hosted)
        elif self.lobby_host.lobby.tables.get(self.hosted.code) is not self.hosted:
            # Only a table forming at another server goes with people at it:
            # that server stopped.
            self.moved_on = True
            why = self.hosted.gone_why or STOPPED
            self.notify(_(why).format(code=self.hosted.code), severity="warning",
                        markup=False)
            self.lobby_host.back_to_lobby()
        else:
            self.show()

    def show(self) -> None:
        hosted, host = self.hosted, self.lobby_host
        # The game's title only when the server offers more than one.
        rules = hosted.rules_text if len(game_kinds()) == 1 \
            else " ".join(filter(None, (hosted.kind.title, hosted.rules_text)))
        text = Text.assemble((_("Table "), "bold"), (hosted.code, "bold reverse"), "  ",
                             (hosted.name, "bold"), f"  ({rules})\n\n")
        for i, seat in enumerate(hosted.seats):
            who = seat.name if (seat.identity or seat.bot) else _("(free)")
            text.append(_("  seat {number}: ").format(number=i + 1))
            text.append(who, style="bold" if seat.identity == host.identity else "")
            text.append("\n")
        text.append(_("\n{status}. Others join with\n\n").format(
            status=hosted.status().capitalize()))
        text.append(f"  ssh -t -p {host.port} {host.server_name} join {hosted.code}\n",
                    style="bold")
        text.append(_("\nThe game starts when every seat is taken. Esc leaves the table."))
        text.append(_("\nc says something to everyone at the table."))
        lines = list(hosted.chat)[-self.CHAT_SHOWN:]
        if lines:
            text.append("\n")
        for line in lines:  # plain Text: a name or a line is never markup
            text.append(f"\n{line.name}", style="bold")
            text.append(f": {said_text(line.text)}")
        self.query_one("#waiting", Static).update(text)

    def action_chat(self) -> None:
        self.app.push_screen(ChatScreen(), self._send)

    def _send(self, text: str | None) -> None:
        if not text:
            return
        host = self.lobby_host
        refusal = self.hosted.say(host.identity, host.player_name, text)
        if refusal is not None:
            self.notify(refusal, severity="warning", markup=False)

    def action_leave(self) -> None:
        self.lobby_host.back_to_lobby()
