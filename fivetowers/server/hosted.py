"""The base of every app served over SSH.

Players are strangers, and the app runs inside the server process. Textual's
command palette offers system commands that act on the host (saving a
screenshot writes a file into the server user's Downloads folder), so a
hosted app offers no palette, no system commands and no screenshot action.

Every screen Textual composes gets a tooltip and a toast rack (notifications'
container) as widgets of their own: styled, laid out and drawn in each
session's start, about a sixth of it. Hosted apps show no tooltips, and a screen
gets its toast rack only when there is a notification to show
(:class:`fivetowers.compat.textual.LeanScreensApp`). Textual's default
screen, under the lobby, is not laid out again while covered
(:class:`fivetowers.compat.textual.CoveredScreen`): each time it was, the
lobby was drawn again in full.

Apps also start a couple at a time. Starting one (composing, styling and drawing
its first screen) is tens of milliseconds of Python that Textual runs in a
few long steps; fifty players arriving together made fifty of those run in
the same turns of the event loop, which held every screen already in play
for seconds and showed nobody a lobby until everybody's was ready. In turns,
the starts run between the other sessions' work and the first players see
their screen at once.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any, Callable, Iterable

from textual.app import SystemCommand
from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen, Screen
from textual.theme import Theme

from fivetowers.compat.installed import install_drawing_workarounds
from fivetowers.compat.textual import LeanScreensApp, covered_default_screen

STARTING = 2
"""Apps starting at once: two, so one computes while the other awaits a frame."""
LONGEST_TURN = 1.0
"""Seconds an App's start holds the turn at the most (a slow start, a stuck client)."""

_css_variables: dict[tuple[type[Any], int], tuple[Theme, dict[str, str]]] = {}
"""Each App class's CSS variables per theme (the theme kept: its id stays its own)."""

_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary())


def _start_turn() -> asyncio.Semaphore:
    """The turns App starts on this event loop take."""
    loop = asyncio.get_running_loop()
    turns = _turns.get(loop)
    if turns is None:
        turns = _turns[loop] = asyncio.Semaphore(STARTING)
    return turns


class HostedApp(LeanScreensApp):
    ENABLE_COMMAND_PALETTE = False

    def __init__(self) -> None:
        install_drawing_workarounds()
        super().__init__()  # no tooltips, toast racks on demand
        self._turn: asyncio.Semaphore | None = None
        """The start turn while this App holds it."""
        self.on_started: Callable[[], None] | None = None
        """Called once, when the first screen is drawn (the server settles
        its garbage collection then, see collector.py)."""
        self.on_screen_left: Callable[[int | None], None] | None = None
        """Called when a screen is left for good (popped or switched away,
        not installed): its widgets are garbage the server's collector counts
        if a freeze met them; with the ``freezes`` the screen was first shown at."""
        self.freezes: Callable[[], int] | None = None
        """How many times the server's collector froze the heap so far."""
        self._shown_at: weakref.WeakKeyDictionary[Screen[Any], int] = weakref.WeakKeyDictionary()
        """Each screen's ``freezes`` when it was first shown."""

    def pop_screen(self) -> AwaitComplete:
        self._leaving()
        return super().pop_screen()

    def switch_screen(self, screen: Screen[Any] | str) -> AwaitComplete:
        if self.screen_stack and screen is not self.screen_stack[-1]:
            self._leaving()
        self._stamp(screen)
        return super().switch_screen(screen)

    def _leaving(self) -> None:
        # A dialog (help, chat, plans…) is a few widgets: counted, a player
        # opening and closing one a hundred times a minute would bring on the
        # server-wide full collection the collector keeps rare.
        left = self.on_screen_left
        if left is not None and len(self.screen_stack) > 1:
            top = self.screen_stack[-1]
            if not isinstance(top, ModalScreen) and not self.is_screen_installed(top):
                left(self._shown_at.get(top))

    def push_screen(self, screen: Screen[Any] | str, *args: Any, **kwargs: Any) -> Any:
        self._stamp(screen)
        return super().push_screen(screen, *args, **kwargs)

    def _stamp(self, screen: Screen[Any] | str) -> None:
        """Stamp a screen shown for the first time with the collector's freezes."""
        freezes = self.freezes
        if freezes is not None and isinstance(screen, Screen) and screen not in self._shown_at:
            self._shown_at[screen] = freezes()

    async def run_async(self, *args: Any, **kwargs: Any) -> None:
        turn = _start_turn()
        await turn.acquire()
        self._turn = turn
        # However this start goes, the next one waits no longer than this.
        late = asyncio.get_running_loop().call_later(LONGEST_TURN, self.end_start_turn)
        try:
            await super().run_async(*args, **kwargs)
        finally:
            late.cancel()
            self.end_start_turn()

    def on_mount(self) -> None:
        # Subclasses' on_mount ran first (Textual calls every class's handler,
        # the most derived first): their first screen is pushed. Its first
        # frame ends the start, even one slower than its turn (LONGEST_TURN
        # gave the turn away already): the server still hears of it.
        if self._turn is not None or self.on_started is not None:
            self.call_after_refresh(self.first_frame_drawn)

    def first_frame_drawn(self) -> None:
        self.end_start_turn()
        started, self.on_started = self.on_started, None
        if started is not None:
            started()

    def end_start_turn(self) -> None:
        """Let the next App start (once; later calls do nothing)."""
        turn, self._turn = self._turn, None
        if turn is not None:
            turn.release()

    def get_css_variables(self) -> dict[str, str]:
        # A theme's colour system (a few hundred colours blended and printed)
        # is the same for every session: made once per App class and theme.
        theme = self.current_theme
        known = _css_variables.get((type(self), id(theme)))
        if known is None:
            known = _css_variables[type(self), id(theme)] = (theme, super().get_css_variables())
        self.theme_variables = dict(known[1])
        return dict(known[1])

    def get_default_screen(self) -> Screen[Any]:
        return covered_default_screen()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        return ()

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        self.bell()

