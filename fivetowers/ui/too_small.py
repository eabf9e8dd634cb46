"""The notice shown instead of a screen while the terminal is too small for it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

MIN_SIZE = (80, 24)
"""Columns and lines every screen is laid out for (the SSH server's default too)."""


def too_small_text(width: int, height: int, minimum: tuple[int, int] = MIN_SIZE) -> str:
    return (f"Your terminal is {width}x{height}.\n"
            f"fivetowers needs at least {minimum[0]}x{minimum[1]}.\n"
            "Make the window larger,\nor press q to leave.")


class TooSmallScreen(Screen[None]):
    """Covers the app until the terminal is large enough again; every key but
    q is swallowed here, so nothing typed at a notice reaches the game."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }
    TooSmallScreen > Static { width: auto; height: auto; }
    """
    BINDINGS = [Binding("q", "leave", "leave")]

    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self.width, self.height = width, height

    def compose(self) -> ComposeResult:
        yield Static(too_small_text(self.width, self.height), id="too-small")

    def show_size(self, width: int, height: int) -> None:
        self.query_one("#too-small", Static).update(too_small_text(width, height))

    def action_leave(self) -> None:
        self.app.exit()
