"""A Textual driver that runs one App on one SSH session, inside the server.

This is the route Textual's own web driver takes (DESIGN.md): instead of a
real terminal, output goes to the asyncssh channel and the channel's input is
fed to Textual's xterm parser. Everything runs on the server's event loop;
there is no input thread, so a session costs about one App's memory.

Two of DESIGN.md's three traps are handled here:

* The xterm parser caches kitty key sequences in a class-wide cache keyed
  on the parser. The cached key events carry their sender (the App, taken
  from a context variable), so every finished session's App would stay
  alive. :class:`SessionParser` parses without that cache
  (:class:`fivetowers.compat.textual.UncachedXTermParser`).
* A terminal smaller than the app needs would show garbage; while it is too
  small the driver shows a plain message instead of the app's frames.

All sessions share one loop, so the input one client may make the server
parse is budgeted (:mod:`fivetowers.server.input_guard`): the excess is
dropped unparsed (keys that arrive together beyond the budget, whole), the
client is told, and a client that keeps flooding is disconnected. A
bracketed paste is capped at PASTE_CAP characters.
"""

from __future__ import annotations

import asyncio
import logging
from codecs import getincrementaldecoder
from typing import Any

import asyncssh
from rich.color import ColorSystem
from textual import constants, events, messages
from textual.app import App
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from fivetowers.compat.textual import OwnDriver, UncachedXTermParser
from fivetowers.i18n import N_, _
from fivetowers.server.colours import downgrade
from fivetowers.server.input_guard import PASTE_END, Part, PasteGuard, TokenBucket, key_events

log = logging.getLogger("fivetowers.server")

MAX_BACKLOG = 4 * 1024 * 1024
"""Bytes of unsent output after which a client that stopped reading is dropped."""

# A client may claim any terminal size; screens are drawn (and held in
# memory) at that size, so a huge claim would cost the host dearly.
MAX_WIDTH, MAX_HEIGHT = 400, 150


# Input budgets (issue 18). An event (a key, a click) costs a lobby App
# about 0.3-0.5 ms on this project's machine, and the parser about 0.01 ms a
# character; budgets are in "events", a character counting 1/32 of one.
# 64 events a second is four times the fastest typist, a held arrow key or a
# spinning mouse wheel, and costs the shared loop a few percent of a core at
# most, however a client floods.
PARSE_RATE = 64.0
"""Events a second one session may make the server parse, sustained."""
PARSE_BURST = 256.0
"""...and at once: an unbracketed chat-sized paste (120 keys), a burst of clicks."""
CHAR_COST = 1 / 32
"""A character handed to the parser, in events (a bracketed paste's text is
characters only: one event for the whole paste)."""
PASTE_CAP = 4096
"""Characters one bracketed paste may hold (chat lines are 120, names 24)."""
PASTE_QUIET = 1.0
"""Seconds of silence inside a paste after which its end marker is taken as lost."""
RAW_RATE = 1024.0 * 1024
"""Bytes a second read from a session at all; the rest waits in the SSH
channel window (serve.CHANNEL_WINDOW), pushing the client back."""
READ_SIZE = 16 * 1024
SLICE = 32
"""Characters parsed (and their events handled) between two turns of the
loop for the other sessions."""
FLOOD_LIMIT = 32 * 1024.0
FLOOD_DECAY = 1024.0
"""A session that has dropped FLOOD_LIMIT characters (less FLOOD_DECAY a
second since) is disconnected as a flooder."""
NOTICE_EVERY = 60.0
NOTICE_DELAY = 0.25
"""Seconds a notice about dropped input waits: a flooder is cut off before
then, and its notice (a toast rack mounted, styled and drawn: half of what
a flood costs the server) is never shown."""
INPUT_TOO_FAST = N_("Input too fast: some keys were dropped.")
FLOOD_GOODBYE = N_("fivetowers: disconnected: your terminal sent input much faster "
                   "than anyone types.")


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """The size a session is drawn at: the client's, up to MAX_WIDTH x MAX_HEIGHT."""
    return min(width, MAX_WIDTH), min(height, MAX_HEIGHT)


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


class SessionParser(UncachedXTermParser):
    """One session's xterm parser: Textual's, without the cache that leaks Apps."""


class SessionTerminal:
    """One SSH session's terminal, as the driver sees it.

    Made by the session before the App runs and handed to the driver through
    the App's ``driver_class`` (see :meth:`driver_class`); the session keeps it
    to find the driver's input task and the time of the last key.
    """

    def __init__(self, process: asyncssh.SSHServerProcess[bytes], size: tuple[int, int],
                 min_size: tuple[int, int] = (0, 0), mouse: bool = True,
                 name: str = "a player", address: str = "?") -> None:
        self.process = process
        self.name = name
        self.address = address
        self.goodbye: str | None = None
        """Set by the driver when it ends the session itself (an input flood)."""
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


class SSHDriver(OwnDriver):
    """Draws an App onto an SSH channel and feeds it the channel's input."""

    def __init__(self, app: App[Any], terminal: SessionTerminal, *, debug: bool = False) -> None:
        super().__init__(app, debug=debug, mouse=terminal.mouse, size=terminal.size)
        self._terminal = terminal
        terminal.driver = self
        self._pending: list[str] = []
        self._drawn = False
        """A frame was flushed: pieces written outside frames go out on the
        next loop pass; before it they wait for the first frame (a start
        wrote the pointer shape of two screens before it, each encrypted
        and sent in an SSH packet of its own while a crowd waited)."""
        self._flush_handle: asyncio.Handle | None = None
        self._tick_handle: asyncio.TimerHandle | None = None
        self._reader: asyncio.Task[None] | None = None
        self._parser = SessionParser()
        self._too_small = False
        now = self.loop.time()
        self._parse_budget = TokenBucket(PARSE_RATE, PARSE_BURST, now)
        self._raw_budget = TokenBucket(RAW_RATE, RAW_RATE, now)
        self._flood = TokenBucket(FLOOD_DECAY, FLOOD_LIMIT, now)
        self._paste = PasteGuard(PASTE_CAP)
        self._paste_handle: asyncio.TimerHandle | None = None
        self._noticed_at: float | None = None
        self._notice_handle: asyncio.TimerHandle | None = None

    # -- output --------------------------------------------------------------
    def write(self, data: str) -> None:
        # Textual writes a frame in pieces and then flushes; pieces written
        # outside a frame (a bell) go out on the next loop pass, or with the
        # first frame before it.
        self._pending.append(data)
        if self._flush_handle is None and self._drawn:
            self._flush_handle = self.loop.call_soon(self.flush)

    def flush(self) -> None:
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        if not self._pending:
            return
        self._drawn = True
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
        if self._notice_handle is not None:
            self._notice_handle.cancel()
            self._notice_handle = None
        if not self._terminal.hung_up:
            self._terminal.hung_up = True
            log.info("%s: %s", self._terminal.name, reason)
            self.app.post_message(messages.ExitApp())

    # -- application mode ----------------------------------------------------
    def start_application_mode(self) -> None:
        mouse = _MOUSE_ON if self.mouse else ""
        # At once, not with the first frame: the terminal's answer to the
        # synchronized output question may come back before that frame.
        self._send(_ALT_SCREEN_ON + mouse + _FOCUS_ON + _PASTE_ON + _ASK_SYNC_OUTPUT)
        width, height = self.terminal_size or (80, 24)
        self._resize(width, height)
        # The task inherits this context (the App's): events it makes are the App's.
        self._reader = asyncio.create_task(self._read_input(), name="fivetowers-ssh-input")

    def disable_input(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        self._cancel_timers()

    def _cancel_timers(self) -> None:
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        if self._paste_handle is not None:
            self._paste_handle.cancel()
            self._paste_handle = None

    def stop_application_mode(self) -> None:
        self.flush()
        mouse = _MOUSE_OFF if self.mouse else ""
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
        self._cancel_timers()
        if self._notice_handle is not None:
            self._notice_handle.cancel()
            self._notice_handle = None

    # -- input ---------------------------------------------------------------
    def send_message(self, message: Message) -> None:
        # Input is read on the App's own loop and thread: post directly.
        self.app.post_message(message)

    async def _read_input(self) -> None:
        stdin = self._terminal.process.stdin
        # Invalid UTF-8 becomes U+FFFD, which _feed drops: no game input needs it.
        decode = getincrementaldecoder("utf-8")("replace").decode
        loop = asyncio.get_running_loop()
        while True:
            # Flow control: past the raw budget, leave the bytes in the channel.
            wait = self._raw_budget.wait_for(READ_SIZE, loop.time())
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                data = await stdin.read(READ_SIZE)
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
            now = loop.time()
            self._raw_budget.charge(len(data), now)
            self._terminal.last_input = now
            if self._too_small:
                # The notice covers the game: no key behind it may play.
                if data in (b"q", b"\x03"):
                    self.app.post_message(messages.ExitApp())
                continue
            self._cancel_timers()
            await self._feed(decode(data), now)
            if self._flood.tokens <= 0:
                self._flooded()
                return
            self._schedule_tick()
            if self._paste.in_paste or self._paste.discarding:
                self._paste_handle = self.loop.call_later(PASTE_QUIET, self._paste_quiet)

    async def _feed(self, text: str, now: float) -> None:
        """Hand the parser what the budget allows of ``text``; drop the rest."""
        junk = text.count("\ufffd")
        if junk:
            text = text.replace("\ufffd", "")
            self._flood.charge(junk, now)
        dropped = 0
        for piece in self._paste.split(text):
            part, chunk = piece.part, piece.text
            if part is Part.START and self._parse_budget.wait_for(1, now) > 0:
                self._paste.refuse_paste()
                dropped += len(chunk)
                continue
            if part is Part.KEYS and not self._fits(chunk, now):
                # More keys at once than the budget takes is no one typing
                # (a flood, an unbracketed paste): parsing its first keys
                # cost the loop more than a session's start, and would run
                # a pasted text's letters as commands.
                dropped += len(chunk)
                continue
            # Paste text makes no events until its end: larger slices cost the same.
            size = int(SLICE / CHAR_COST) if part is Part.PASTE else SLICE
            parsed = await self._parse(chunk, part is Part.END, size)
            if parsed < len(chunk):
                dropped += len(chunk) - parsed
                if part is Part.PASTE:  # out of budget inside a paste: it ends here
                    self._paste.cut_paste()
                    await self._parse(PASTE_END, True)
        cut = self._paste.take_dropped()
        if dropped:
            self._flood.charge(dropped, now)
        if dropped or cut:
            self._notice(now, cut=not dropped)

    def _fits(self, keys: str, now: float) -> bool:
        """Whether the parse budget takes all of ``keys`` (a cheap look first)."""
        budget = self._parse_budget.available(now)
        cost = len(keys) * CHAR_COST
        return cost <= budget and cost + key_events(keys) <= budget

    async def _parse(self, text: str, always: bool = False, size: int = SLICE) -> int:
        """Parse ``text`` in slices of ``size`` while the budget lasts (to the
        end if ``always``); returns how many characters were parsed."""
        loop = self.loop
        budget = self._parse_budget
        for start in range(0, len(text), size):
            if start:
                await asyncio.sleep(0)  # the other sessions' turn
            now = loop.time()
            if not always and budget.wait_for(1, now) > 0:
                return start
            piece = text[start:start + size]
            events = 0
            for event in self._parser.feed(piece):
                self.process_message(event)
                events += 1
            budget.charge(events + len(piece) * CHAR_COST, now)
        return len(text)

    def _notice(self, now: float, cut: bool) -> None:
        if self._noticed_at is not None and now - self._noticed_at < NOTICE_EVERY:
            return
        self._noticed_at = now
        message = (_("Paste too long: only its first {count} characters were kept.")
                   .format(count=PASTE_CAP) if cut else _(INPUT_TOO_FAST))
        self._notice_handle = self.loop.call_later(NOTICE_DELAY, self._show_notice, message)

    def _show_notice(self, message: str) -> None:
        self._notice_handle = None
        self.app.notify(message, severity="warning", markup=False)

    def _flooded(self) -> None:
        terminal = self._terminal
        if terminal.hung_up:
            return
        log.warning("disconnecting %s (%s): input flood", terminal.name, terminal.address)
        terminal.goodbye = FLOOD_GOODBYE
        self._hang_up("input flood")

    def _paste_quiet(self) -> None:
        # A paste arrives in one go; silence inside one means its end marker
        # was lost (or never sent): end it so later keys are keys again.
        self._paste_handle = None
        for piece in self._paste.end_paste():
            for event in self._parser.feed(piece.text):
                self.process_message(event)

    def _schedule_tick(self) -> None:
        # A lone ESC is the Escape key only once no sequence follows it in time.
        if self._tick_handle is not None:
            self._tick_handle.cancel()
        self._tick_handle = self.loop.call_later(constants.ESCAPE_DELAY + 0.01, self._tick)

    def _tick(self) -> None:
        self._tick_handle = None
        for event in self._parser.tick():
            self.process_message(event)

    # -- size ----------------------------------------------------------------
    def _resize(self, width: int, height: int) -> None:
        if width <= 0 or height <= 0:
            width, height = self.terminal_size or (80, 24)
        width, height = clamp_size(width, height)
        self.terminal_size = (width, height)
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
        self.app.post_message(events.Resize(size, size))


def too_small_message(width: int, height: int, min_width: int, min_height: int) -> str:
    """A whole-screen message for a terminal below the app's minimum size."""
    lines = [
        _("Your terminal is {width}x{height}.").format(width=width, height=height),
        _("fivetowers needs at least {width}x{height}.").format(width=min_width,
                                                                height=min_height),
        _("Make the window larger,"),
        _("or press q to leave."),
    ]
    shown = [line[:width] for line in lines[:height]]
    return _CLEAR + "\r\n".join(shown)
