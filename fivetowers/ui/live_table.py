"""What every game's table screen does with its live table: redraw once per
burst of moves, and fetch the hint and the adviser's play off the event loop.

A game's table screen subclasses :class:`LiveTableScreen`, keeps its own
bindings and layout, and gives :meth:`LiveTableScreen.refresh_table` (draw
everything from the client's view) and :meth:`LiveTableScreen.draw_hint`
(draw the hint panel from ``hint``, ``advice`` and ``advice_busy``)."""

from __future__ import annotations

import asyncio
import contextvars
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Generic, Protocol, Sequence, TypeVar

from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer

from fivetowers.compat.sized_once import SizedOnceScreen
from fivetowers.compat.textual import CoveredScreen, is_closing, write_to_terminal
from fivetowers.i18n import N_, _
from fivetowers.ui.text import name_text

AWAY_STYLE = "bold #ff8700"
WATCHING = N_("watching")
"""The label a watcher's status line starts with."""


def window_title(title: str) -> str:
    """The xterm sequence that sets the window's title (ended by ST, not BEL)."""
    return f"\x1b]2;{title}\x1b\\"


class SeatLike(Protocol):
    """What the screen reads of a seat (a SeatInfo)."""

    @property
    def name(self) -> str: ...

    @property
    def is_you(self) -> bool: ...

    @property
    def away(self) -> bool: ...

    @property
    def stand_in(self) -> bool: ...

    @property
    def stand_in_at(self) -> float | None: ...


class TableEventLike(Protocol):
    @property
    def version(self) -> int: ...


class HostLike(Protocol):
    """What the screen asks of whatever hosts it (a game's TableHost)."""

    @property
    def offers_chat(self) -> bool: ...

    @property
    def in_lobby(self) -> bool: ...

    def chat(self) -> None: ...

    def chat_lines(self) -> Sequence[Any]: ...

    def hear_chat(self, listener: Callable[[], bool] | None) -> None: ...

    def show_end(self) -> None: ...

    async def leave(self) -> None: ...


TABLE_KEYS = [
    Binding("h", "toggle_hints", N_("hints")),
    Binding("question_mark", "help", N_("help"), key_display="?"),
    Binding("q", "quit", N_("quit")),
    Binding("q", "leave", N_("lobby")),
    Binding("c", "chat", N_("chat")),
    Binding("b", "toggle_alerts", N_("bell")),
]
"""The keys every table screen ends its bindings with (c: only if the host chats)."""


def away_text(seats: Sequence[SeatLike]) -> Text | None:
    """Who is away, and when a bot takes over (or that one plays for them)."""
    away = [s for s in seats if s.away and not s.is_you]
    if not away:
        return None
    first = away[0]
    if first.stand_in:
        doing = _("a bot plays for them")
    elif first.stand_in_at is not None:
        left = max(0, round(first.stand_in_at - asyncio.get_running_loop().time()))
        doing = _("a bot plays in {seconds} s").format(seconds=left)
    else:
        doing = _("the game waits for them")
    text = Text("  ")
    text.append_text(name_text(first.name, "bold"))
    text.append(" " + _("is away — {doing}").format(doing=doing), style=AWAY_STYLE)
    if len(away) > 1:
        text.append(" " + _("(+{count} away)").format(count=len(away) - 1), style="#ff8700")
    return text


def away_mark(seat: SeatLike) -> str:
    """What a seat's board title adds while its player is away."""
    if seat.stand_in:
        return " · " + _("away, bot plays")
    return " · " + _("away") if seat.away else ""


class LiveClient(Protocol):
    """What the screen asks of its game's client (a SeatClient)."""

    @property
    def version(self) -> int: ...

    @property
    def seat(self) -> int | None: ...

    async def hint(self) -> Any: ...

    def nothing_to_hint(self) -> bool: ...

    async def advice(self) -> Any: ...

    def advice_due(self) -> float | None: ...

    def seats(self) -> Sequence[SeatLike]: ...

    def subscribe(self, callback: Callable[[Any], None]) -> None: ...

    def unsubscribe(self, callback: Callable[[Any], None]) -> None: ...

    def start(self) -> None: ...


C = TypeVar("C", bound=LiveClient)


@dataclass(frozen=True)
class _Redraw:
    """Not a move: something else to draw (a chat line, a countdown's second)."""

    version: int


@dataclass
class TableChanged(Message):
    """The table moved on to ``version``: read the view again."""

    version: int


@dataclass
class AdviceDue(Message):
    """The adviser, busy at ``version``, may be asked again."""

    version: int


class LiveTableScreen(CoveredScreen, SizedOnceScreen, Screen[None], Generic[C]):
    """A table screen over a live table's client ``client``: it also puts
    the table's chat in the log (``_chat_heard``), counts down to a stand-in
    bot (``status_extras``) and rings the bell on a new turn (``alert``)."""

    TITLES = ("fivetowers", N_("fivetowers — your turn"))
    """The window's title, and while it is your turn."""

    def __init__(self, client: C, host: HostLike, show_hints: bool,
                 classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.client = client
        self.host = host
        self.show_hints = show_hints
        self.redraw_pending = False
        self.drawing = False
        """Whether a redraw for a table change is under way (tests wait for it)."""
        self.countdown: Timer | None = None
        self.advice_retry: asyncio.TimerHandle | None = None
        """When the adviser, busy, is asked again (see :meth:`retry_advice`)."""
        self.start_state()
        self.resetting = False
        """Shown again for a rematch, not yet reset (:meth:`next_game`): its
        keys would act on the game before."""

    def start_state(self) -> None:
        """What the screen keeps of a game, as a new screen starts (and a
        rematch shown in this one, :meth:`next_game`)."""
        self.hint: Any = None
        self.hint_version = -1
        self.advice: Any = None
        self.advice_busy = False
        """The pool answered the adviser with a fallback, not shown: the panel
        says the strong bot is busy until it is asked again and answers."""
        self.ended = False
        self.binding_keys: tuple[object, ...] = ()
        self.alerts = True
        """Ring the bell and title the window when it becomes this screen's turn."""
        self.my_turn: bool | None = None
        """Whether a seat of this screen was to move at the last redraw (None: none yet)."""

    async def on_mount(self) -> None:
        await self.lay_out()
        self.client.subscribe(self._on_table_event)
        self.hear()
        await self.refresh_table()
        self.client.start()

    async def lay_out(self) -> None:
        """What the game's screen mounts and titles before its first draw."""

    def serves(self, client: LiveClient) -> bool:
        """Whether this screen can show ``client``'s table in place of its own
        (:meth:`next_game`): the same seat at a table of as many seats."""
        return client.seat == self.client.seat and len(client.seats()) == len(self.client.seats())

    async def next_game(self, client: C, host: HostLike, show_hints: bool) -> None:
        """Show the rematch's table (``client``), as a new screen would show it.

        Every viewer at every table got a new table screen for a rematch:
        its widgets composed, mounted, styled and laid out several times
        over, a quarter of the serving process's time with tables playing
        game after game. The rematch has the same seats, so this screen and
        its widgets serve it: the state a new screen starts with is reset
        (:meth:`start_state`, :meth:`new_game`) and the table drawn anew."""
        self.client.unsubscribe(self._on_table_event)
        self.stop_hearing()
        if self.countdown is not None:
            self.countdown.stop()
            self.countdown = None
        self.workers.cancel_group(self, "hint")
        self.stop_advice_retry()
        self.client, self.host, self.show_hints = client, host, show_hints
        self.start_state()
        self.new_game()
        self.set_focus(None)  # a new screen's first focus (Textual's, when it is shown)
        self.clear_selection()  # a new screen has none
        self.client.subscribe(self._on_table_event)
        self.hear()
        await self.refresh_table()
        self.resetting = False
        self.client.start()

    def new_game(self) -> None:
        """Reset what the game's mounted widgets keep of a game (a scroll
        position) to what a new screen's start with."""

    def on_resize(self) -> None:
        # Bigger terminals get a wider side column and taller panels; a
        # terminal too small is covered by the app's (or the server's) notice.
        self.set_class(self.size.width >= 110, "-wide")
        self.set_class(self.size.height >= 34, "-tall")

    def on_unmount(self) -> None:
        self.client.unsubscribe(self._on_table_event)
        self.stop_hearing()
        self.stop_advice_retry()

    def hear(self) -> None:
        """Start hearing the table's chat (on mount)."""
        self.host.hear_chat(self._chat_heard)

    def stop_hearing(self) -> None:
        """On unmount: no more chat, and the window's title back."""
        self.host.hear_chat(None)
        if self.my_turn:
            write_to_terminal(self.app, window_title(self.TITLES[0]))

    def _chat_heard(self) -> bool:
        """A line was said at the table: into the log. True if the log can be
        seen now (this screen, or a dialog over it), else the host pops it up."""
        self._on_table_event(_Redraw(self.client.version))
        screen = self.app.screen
        return screen is self or (screen.is_modal and self in self.app.screen_stack)

    def _count_down(self) -> None:
        self.countdown = None
        self._on_table_event(_Redraw(self.client.version))

    def status_extras(self, turn: Text, watcher: bool) -> Text:
        """``turn`` with who is away after it (counting down to a stand-in bot)
        and, for a watcher, the "watching" label before it."""
        seats = self.client.seats()
        away = away_text(seats)
        if away is not None:
            turn = turn.copy()
            turn.append_text(away)
        if self.countdown is None and any(s.stand_in_at is not None for s in seats):
            # "bo is away — a bot plays in 45 s" counts down, a timer only while
            # one is due (a timer's sleep holds its App's context a while after).
            self.countdown = self.set_timer(1.0, self._count_down)
        if watcher:  # said first: the keys to play are not offered
            turn = Text.assemble((" " + _(WATCHING) + " ", "bold black on #87d7ff"), " ", turn)
        return turn

    def alert(self, mine: bool) -> None:
        """Bell and window title when it becomes this screen's turn (not on
        arrival: the player is looking), for a player who looked elsewhere."""
        before, self.my_turn = self.my_turn, mine
        if mine == before or not self.alerts:
            return
        write_to_terminal(self.app, window_title(_(self.TITLES[1]) if mine else self.TITLES[0]))
        if mine and before is not None:
            self.app.bell()

    def action_toggle_alerts(self) -> None:
        self.alerts = not self.alerts
        if self.my_turn:
            write_to_terminal(self.app, window_title(_(self.TITLES[1]) if self.alerts else self.TITLES[0]))
        self.app.notify(_("Your-turn bell and title: on") if self.alerts
                        else _("Your-turn bell and title: off"),
                        markup=False, timeout=3)

    def _on_table_event(self, event: TableEventLike) -> None:
        # Moves that come faster than this screen draws are drawn once.
        if not self.redraw_pending:
            self.redraw_pending = True
            # Its own sender, not whoever moved: a message keeps its sender,
            # and the last one a loop handled stays its local until the next
            # (an ended session's App, which made its seat's last change).
            self.post_message(TableChanged(event.version).set_sender(self))

    async def on_table_changed(self, message: TableChanged) -> None:
        # Cleared first: a change during this redraw asks for one more.
        self.redraw_pending = False
        self.drawing = True
        try:
            await self.refresh_table()
        finally:
            self.drawing = False

    def drawn(self) -> bool:
        """Whether every table change so far has been drawn."""
        return not (self.redraw_pending or self.drawing)

    async def refresh_table(self) -> None:
        """Draw the table as the client sees it now."""
        raise NotImplementedError

    def draw_hint(self) -> None:
        """Draw the hint panel from ``hint`` and ``advice`` (once they came),
        or ``advice_busy``."""
        raise NotImplementedError

    def showing(self) -> bool:
        """Whether the screen and its hint panel (``#hints``) are still up: a
        hint or advice that comes back from the workers after they went has
        nowhere to go (it once crashed a hosted session, issue 11)."""
        if not self.is_attached or is_closing(self):
            return False
        try:
            self.query_one("#hints")
        except NoMatches:
            return False
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.resetting:
            return False  # no key acts on the game before while the rematch is set up
        return self.allows(action, parameters)

    def allows(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """:meth:`check_action` of a screen showing its game (the games' own keys)."""
        if action == "chat":
            return self.host.offers_chat
        if action in ("quit", "leave"):  # the one q: "quit" locally, "lobby" hosted
            return self.host.in_lobby == (action == "leave")
        return True

    async def action_toggle_hints(self) -> None:
        self.show_hints = not self.show_hints
        if not self.show_hints:
            self.stop_advice_retry()  # no strong-bot jobs for a panel nobody sees
        await self.refresh_table()
        if self.show_hints and self.advice_busy and self.hint_version == self.client.version:
            self.fetch_advice(self.client.version)  # (refresh_table loads nothing new then)

    def action_results(self) -> None:
        self.host.show_end()

    async def action_quit(self) -> None:
        await self.host.leave()

    async def action_leave(self) -> None:
        await self.host.leave()

    def action_chat(self) -> None:
        self.host.chat()

    def load_hint(self, version: int) -> None:
        """Fetch the hint and the adviser's play for ``version`` (off the
        event loop), and draw them as they come."""
        self.stop_advice_retry()  # the version it was for is gone
        if self.client.nothing_to_hint():
            # What the fetch would find at once, without a worker: at a
            # GoTown table every viewer but the mover (and every watcher)
            # started one on every move, for nothing.
            self.workers.cancel_group(self, "hint")  # as an exclusive worker would
            if self.showing():
                self.hint, self.hint_version, self.advice = None, version, None
                self.advice_busy = False
                self.draw_hint()
            return
        self.fetch_hint(version)

    @work(exclusive=True, group="hint")
    async def fetch_hint(self, version: int) -> None:
        try:
            hint = await self.client.hint()
        except Exception:  # the workers failed it: the next change of the table asks again
            return
        if version != self.client.version or not self.showing():
            return
        self.hint, self.hint_version, self.advice = hint, version, None
        self.advice_busy = False
        self.draw_hint()
        await self.advise(version)

    @work(exclusive=True, group="hint")
    async def fetch_advice(self, version: int) -> None:
        """Ask the adviser again for ``version``, where it was busy."""
        await self.advise(version)

    async def advise(self, version: int) -> None:
        """The adviser's play for ``version``, drawn when it comes; or, when
        the pool was busy and answered with a fallback (not the strong bot's
        advice, not shown), that it is busy, and asked again later."""
        try:
            advice = await self.client.advice()  # the strong bot thinks for a while
        except Exception:  # the adviser failed: no busy line left with nothing retrying
            if self.advice_busy and version == self.client.version and self.showing():
                self.advice_busy = False
                self.draw_hint()
            return
        if version != self.client.version or not self.showing():
            return
        if advice is not None:
            self.advice, self.advice_busy = advice, False
            self.draw_hint()
            return
        due = self.client.advice_due()
        if due is None:
            return
        if not self.advice_busy:
            self.advice_busy = True
            self.draw_hint()
        if self.show_hints:  # (hidden: asked again when they are shown)
            self.retry_advice(version, due)

    def retry_advice(self, version: int, due: float) -> None:
        """Ask the adviser again for ``version`` in ``due`` seconds: an
        :class:`AdviceDue` posted then. Not a sleep in the fetch's worker,
        which would live through the pause (up to 16 s) whether the screen
        stays or not, and which a test's wait for the screen's workers would
        wait for: a timer, stopped when the version changes or the screen
        goes, that knows the screen by a weak reference only (and runs in a
        context of its own, not the asking worker's)."""
        self.stop_advice_retry()
        screen = weakref.ref(self)

        def due_now() -> None:
            alive = screen()
            if alive is not None:
                alive.advice_retry = None
                alive.post_message(AdviceDue(version).set_sender(alive))

        self.advice_retry = asyncio.get_running_loop().call_later(
            due, due_now, context=contextvars.Context())

    def stop_advice_retry(self) -> None:
        if self.advice_retry is not None:
            self.advice_retry.cancel()
            self.advice_retry = None

    def on_advice_due(self, message: AdviceDue) -> None:
        message.stop()
        if message.version == self.client.version == self.hint_version \
                and self.advice_busy and self.show_hints and self.showing():
            self.fetch_advice(message.version)
