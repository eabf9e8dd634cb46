"""A minimal hosted app that shows the session itself: who you are, your
terminal's size and colours. The server's plumbing tests (sizes, resizes,
limits, refusals) drive it because its screen is small and stable; the real
lobby is :mod:`fivetowers.lobby.app`, served by ``fivetowers serve``.
"""

from __future__ import annotations

from rich.markup import escape
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.widgets import Static

from fivetowers.server.hosted import HostedApp
from fivetowers.server.session import Visitor
from fivetowers.ui.key_footer import KeyFooter


class PlaceholderLobbyApp(HostedApp):
    """A stand-in lobby: greets the player and shows the session's facts."""

    TITLE = "fivetowers"
    CSS = """
    #card { width: 60; height: auto; border: round $accent; padding: 1 2; }
    #size { dock: top; height: 1; content-align: right middle; color: $text-muted; }
    """
    BINDINGS = [Binding("q", "quit", "Leave")]

    def __init__(self, visitor: Visitor) -> None:
        super().__init__()
        self.visitor = visitor

    def compose(self) -> ComposeResult:
        v = self.visitor
        lines = [
            "[b]fivetowers[/b] (placeholder lobby)",
            "",
            f"Welcome, [b]{escape(v.name)}[/b].",
            f"Your key: {escape(v.identity)}",
        ]
        if v.join_code:
            lines.append(f"You asked to join table {escape(v.join_code)}.")
        lines += ["", "Tables are not served yet. Press q to leave."]
        yield Static("", id="size")
        with Middle():
            with Center():
                yield Static("\n".join(lines), id="card")
        yield KeyFooter()

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#size", Static).update(f"terminal {event.size.width}x{event.size.height}")


def placeholder_factory(visitor: Visitor) -> App[None]:
    return PlaceholderLobbyApp(visitor)
