"""The base of every app served over SSH.

Players are strangers, and the app runs inside the server process. Textual's
command palette offers system commands that act on the host (saving a
screenshot writes a file into the server user's Downloads folder), so a
hosted app offers no palette, no system commands and no screenshot action.

Every screen Textual composes gets a tooltip and a toast rack (notifications'
container) as widgets of their own: styled, laid out and drawn in each
session's start, about a sixth of it. Hosted apps show no tooltips, and a screen
gets its toast rack only when there is a notification to show.

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

from textual.app import App, ScreenStackError, SystemCommand
from textual.screen import Screen
from textual.widgets._toast import ToastRack

from fivetowers.server.shared_css import share_parsed_css

STARTING = 2
"""Apps starting at once: two, so one computes while the other awaits a frame."""
LONGEST_TURN = 1.0
"""Seconds an App's start holds the turn at the most (a slow start, a stuck client)."""

_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary())


def _start_turn() -> asyncio.Semaphore:
    """The turns App starts on this event loop take."""
    loop = asyncio.get_running_loop()
    turns = _turns.get(loop)
    if turns is None:
        turns = _turns[loop] = asyncio.Semaphore(STARTING)
    return turns


class HostedApp(App[None]):
    ENABLE_COMMAND_PALETTE = False

    def __init__(self) -> None:
        share_parsed_css()  # the sessions' CSS parsed once for all of them
        self._notifications_off = False
        """Notifications turned off (``run_test`` does by default)."""
        self._notified = False
        """Whether a notification was ever shown: screens made since compose
        their own toast rack (Textual reads the flag below when composing)."""
        super().__init__()
        self._disable_tooltips = True
        self._turn: asyncio.Semaphore | None = None
        """The start turn while this App holds it."""
        self.on_started: Callable[[], None] | None = None
        """Called once, when the first screen is drawn (the server settles
        its garbage collection then, see collector.py)."""

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
        # frame ends the start.
        if self._turn is not None:
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

    # Textual's switch for notifications (private in textual 8.2; see
    # tests/server/test_session_starts.py notices): on once there has been one.
    @property
    def _disable_notifications(self) -> bool:
        return self._notifications_off or not self._notified

    @_disable_notifications.setter
    def _disable_notifications(self, off: bool) -> None:
        self._notifications_off = off

    def _refresh_notifications(self) -> None:
        if self._notifications and not self._notifications_off:
            self._notified = True  # screens composed from now on have a rack
            try:
                screen: Screen[Any] | None = self.screen
            except ScreenStackError:
                screen = None
            if screen is not None and not _has_toast_rack(screen):
                # After the screen's compose, which may be pending and add one.
                screen.call_later(self._add_toast_rack, screen)
                return
        super()._refresh_notifications()

    def _add_toast_rack(self, screen: Screen[Any]) -> None:
        if not screen.is_attached:  # gone meanwhile (the session closed): nobody to tell
            return
        if not _has_toast_rack(screen):
            screen.mount(ToastRack(id="textual-toastrack"))
        super()._refresh_notifications()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        return ()

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        self.bell()


def _has_toast_rack(screen: Screen[Any]) -> bool:
    return any(isinstance(child, ToastRack) for child in screen._nodes)
