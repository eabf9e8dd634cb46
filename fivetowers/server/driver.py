"""A Textual driver that runs one App on one SSH session, inside the server.

This is the route Textual's own web driver takes (DESIGN.md): instead of a
real terminal, output goes to the asyncssh channel and the channel's input is
fed to Textual's xterm parser. Everything runs on the server's event loop;
there is no input thread, so a session costs about one App's memory.

Two of DESIGN.md's three traps are handled here:

* The xterm parser caches ``_parse_extended_key`` with a class-wide
  ``lru_cache`` keyed on the parser. The cached key events carry their
  sender (the App, taken from a context variable), so every finished session's
  App would stay alive. :class:`SessionParser` parses without that cache.
* A terminal smaller than the app needs would show garbage; while it is too
  small the driver shows a plain message instead of the app's frames.
"""

from __future__ import annotations

import asyncio
import logging
from codecs import getincrementaldecoder
from typing import Any, Callable

import asyncssh
from rich.color import ColorSystem
from textual import constants, events, messages
from textual._xterm_parser import XTermParser
from textual.app import App
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from fivetowers.server.colours import downgrade

log = logging.getLogger("fivetowers.server")

MAX_BACKLOG = 4 * 1024 * 1024
"""Bytes of unsent output after which a client that stopped reading is dropped."""

# A client may claim any terminal size; screens are drawn (and held in
# memory) at that size, so a huge claim would cost the host dearly.
MAX_WIDTH, MAX_HEIGHT = 400, 150


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """The size a session is drawn at: the client's, up to MAX_WIDTH x MAX_HEIGHT."""
    return min(width, MAX_WIDTH), min(height, MAX_HEIGHT)

_parse_extended_key_uncached: Callable[[XTermParser, str], list[events.Key] | None] = (
    XTermParser._parse_extended_key.__wrapped__)

_ALT_SCREEN_ON = "\x1b[?1049h\x1b[?25l"
_ALT_SCREEN_OFF = "\x1b[?1049l\x1b[?25h"
# Clicks and drags, SGR coordinates. Not "any motion" (1003): hover effects
# are not worth a stream of motion reports per player over the network.
_MOUSE_ON = "\x1b[?1000h\x1b[?1002h\x1b[?1006h"
_MOUSE_OFF = "\x1b[?1006l\x1b[?1002l\x1b[?1000l"
_FOCUS_ON, _FOCUS_OFF = "\x1b[?1004h", "\x1b[?1004l"
_PASTE_ON, _PASTE_OFF = "\x1b[?2004h", "\x1b[?2004l"
_ASK_SYNC_OUTPUT = "\x1b[?2026$p"
_CLEAR = "\x1b[0m\x1b[2J\x1b[H"


class SessionParser(XTermParser):
    """Textual's xterm parser without the class-wide cache that leaks Apps."""

    def _parse_extended_key(  # type: ignore[override]
            self, sequence: str) -> list[events.Key] | None:
        return _parse_extended_key_uncached(self, sequence)


class SessionTerminal:
    """One SSH session's terminal, as the driver sees it.

    Made by the session before the App runs and handed to the driver through
    the App's ``driver_class`` (see :meth:`driver_class`); the session keeps it
    to find the driver's input task and the time of the last key.
    """

    def __init__(self, process: asyncssh.SSHServerProcess[bytes], size: tuple[int, int],
                 min_size: tuple[int, int] = (0, 0), mouse: bool = True,
                 name: str = "a player") -> None:
        self.process = process
        self.name = name
        self.size = size
        self.min_size = min_size
        self.mouse = mouse
        self.last_input = asyncio.get_running_loop().time()
        self.driver: SSHDriver | None = None
        self.hung_up = False
        self.color_system: ColorSystem | None = ColorSystem.TRUECOLOR
        """What the client's terminal shows; the driver rewrites colours to it."""

    def driver_class(self) -> type[Driver]:
        """A callable the App uses as its driver class, bound to this terminal."""
        terminal = self

        def make(app: App[Any], *, debug: bool = False, mouse: bool = True,
                 size: tuple[int, int] | None = None) -> SSHDriver:
            return SSHDriver(app, terminal, debug=debug)
        # App only ever calls its driver_class; a closure avoids a class per session.
        return make  # type: ignore[return-value]

    async def finished(self) -> None:
        """Wait until the driver's input task has ended, then let go of it."""
        driver, self.driver = self.driver, None
        if driver is not None:
            await driver.wait_input_done()


class SSHDriver(Driver):
    """Draws an App onto an SSH channel and feeds it the channel's input."""

    def __init__(self, app: App[Any], terminal: SessionTerminal, *, debug: bool = False) -> None:
        super().__init__(app, debug=debug, mouse=terminal.mouse, size=terminal.size)
        self._terminal = terminal
        terminal.driver = self
        self._pending: list[str] = []
        self._flush_handle: asyncio.Handle | None = None
        self._tick_handle: asyncio.TimerHandle | None = None
        self._reader: asyncio.Task[None] | None = None
        self._parser = SessionParser()
        self._too_small = False

    # -- output --------------------------------------------------------------
    def write(self, data: str) -> None:
        # Textual writes a frame in pieces and then flushes; pieces written
        # outside a frame (a bell) go out on the next loop pass.
        self._pending.append(data)
        if self._flush_handle is None:
            self._flush_handle = self._loop.call_soon(self.flush)

    def flush(self) -> None:
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        if not self._pending:
            return
        data = "".join(self._pending)
        self._pending.clear()
        if not self._too_small:
            self._send(downgrade(data, self._terminal.color_system))

    def _send(self, data: str) -> None:
        terminal = self._terminal
        if terminal.hung_up:
            return
        channel = terminal.process.channel
        try:
            terminal.process.stdout.write(data.encode("utf-8", "replace"))
        except (OSError, asyncssh.Error):
            self._hang_up("the connection closed")
            return
        if channel.get_write_buffer_size() > MAX_BACKLOG:
            self._hang_up("the client stopped reading")

    def _hang_up(self, reason: str) -> None:
        if not self._terminal.hung_up:
            self._terminal.hung_up = True
            log.info("%s: %s", self._terminal.name, reason)
            self._app.post_message(messages.ExitApp())

    # -- application mode ----------------------------------------------------
    def start_application_mode(self) -> None:
        mouse = _MOUSE_ON if self._mouse else ""
        self._send(_ALT_SCREEN_ON + mouse + _FOCUS_ON + _PASTE_ON + _ASK_SYNC_OUTPUT)
        width, height = self._size or (80, 24)
        self._resize(width, height)
        # The task inherits this context (the App's): events it makes are the App's.
        self._reader = asyncio.create_task(self._read_input(), name="fivetowers-ssh-input")

    def disable_input(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None

    def stop_application_mode(self) -> None:
        self.flush()
        mouse = _MOUSE_OFF if self._mouse else ""
        self._send(_PASTE_OFF + _FOCUS_OFF + mouse + _ALT_SCREEN_OFF)

    async def wait_input_done(self) -> None:
        reader = self._reader
        if reader is not None:
            reader.cancel()
            try:
                await reader
            except asyncio.CancelledError:
                pass
        self._reader = None

    # -- input ---------------------------------------------------------------
    def send_message(self, message: Message) -> None:
        # Input is read on the App's own loop and thread: post directly.
        self._app.post_message(message)

    async def _read_input(self) -> None:
        stdin = self._terminal.process.stdin
        decode = getincrementaldecoder("utf-8")("replace").decode
        loop = asyncio.get_running_loop()
        while True:
            try:
                data = await stdin.read(4096)
            except asyncssh.TerminalSizeChanged as change:
                self._resize(change.width, change.height)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (OSError, asyncssh.Error):
                data = b""
            if not data:
                self._hang_up("the client hung up")
                return
            self._terminal.last_input = loop.time()
            if self._too_small and data in (b"q", b"\x03"):
                self._app.post_message(messages.ExitApp())
                continue
            for event in self._parser.feed(decode(data)):
                self.process_message(event)
            self._schedule_tick()

    def _schedule_tick(self) -> None:
        # A lone ESC is the Escape key only once no sequence follows it in time.
        if self._tick_handle is not None:
            self._tick_handle.cancel()
        self._tick_handle = self._loop.call_later(constants.ESCAPE_DELAY + 0.01, self._tick)

    def _tick(self) -> None:
        self._tick_handle = None
        for event in self._parser.tick():
            self.process_message(event)

    # -- size ----------------------------------------------------------------
    def _resize(self, width: int, height: int) -> None:
        if width <= 0 or height <= 0:
            width, height = self._size or (80, 24)
        width, height = clamp_size(width, height)
        self._size = (width, height)
        self._terminal.size = (width, height)
        min_width, min_height = self._terminal.min_size
        too_small = width < min_width or height < min_height
        if too_small:
            self._too_small = True
            self._pending.clear()
            self._send(too_small_message(width, height, min_width, min_height))
        elif self._too_small:
            self._too_small = False
            self._send(_CLEAR)
        size = Size(width, height)
        self._app.post_message(events.Resize(size, size))


def too_small_message(width: int, height: int, min_width: int, min_height: int) -> str:
    """A whole-screen message for a terminal below the app's minimum size."""
    lines = [
        f"Your terminal is {width}x{height}.",
        f"fivetowers needs at least {min_width}x{min_height}.",
        "Make the window larger,",
        "or press q to leave.",
    ]
    shown = [line[:width] for line in lines[:height]]
    return _CLEAR + "\r\n".join(shown)
