"""The notice shown instead of a screen while the terminal is too small for it."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from fivetowers.i18n import N_, _

MIN_SIZE = (80, 24)
"""Columns and lines every screen is laid out for (the SSH server's default too)."""


def too_small_text(width: int, height: int, minimum: tuple[int, int] = MIN_SIZE) -> str:
    # The same lines as the SSH server's notice (server/driver.py), one catalog entry each.
    return "\n".join((
        _("Your terminal is {width}x{height}.").format(width=width, height=height),
        _("fivetowers needs at least {width}x{height}.").format(width=minimum[0],
                                                                height=minimum[1]),
        _("Make the window larger,"),
        _("or press q to leave.")))


class TooSmallScreen(Screen[None]):
    """Covers the app until the terminal is large enough again; every key but
    q is swallowed here, so nothing typed at a notice reaches the game."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }
    TooSmallScreen > Static { width: auto; height: auto; }
    """
    BINDINGS = [Binding("q", "leave", N_("leave"))]

    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self.width, self.height = width, height

    def compose(self) -> ComposeResult:
        yield Static(too_small_text(self.width, self.height), id="too-small")

    def show_size(self, width: int, height: int) -> None:
        self.query_one("#too-small", Static).update(too_small_text(width, height))

    def action_leave(self) -> None:
        self.app.exit()


class FittingApp(App[None]):
    """A local game's app: covered by :class:`TooSmallScreen` while the
    terminal is too small (clipped panels, a cut key bar, and no key may
    reach the game meanwhile); screens pushed then wait (:meth:`push_or_hold`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.too_small: TooSmallScreen | None = None
        self.held: list[Screen[Any]] = []
        """Screens to show once the terminal is large enough again."""

    def on_resize(self, event: events.Resize) -> None:
        if len(self.screen_stack) < 2:  # before on_mount: it fits the table itself
            return
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int, height: int) -> None:
        """Cover the app with the notice while the terminal is too small for
        it; take it away (and show what waited) once it is large enough."""
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        if small and self.too_small is None:
            self.too_small = TooSmallScreen(width, height)
            self.push_screen(self.too_small)
        elif small and self.too_small is not None:
            self.too_small.show_size(width, height)
        elif self.too_small is not None:
            self.too_small = None
            self.pop_screen()
            held, self.held = self.held, []
            for screen in held:
                self.push_screen(screen)

    def push_or_hold(self, screen: Screen[Any]) -> None:
        """Push ``screen``, or hold it until the too-small notice is gone."""
        if self.too_small is not None:
            self.held.append(screen)
        else:
            self.push_screen(screen)
