"""Workarounds that reach into Textual's internals (checked against Textual 8.2.8).

Each one is a named function or class here, with the upstream behaviour it
works around and what would retire it; the rest of fivetowers calls these
and never touches a private name of Textual. ``tests/compat`` pins each
one down: the internals have the shape used here, the workaround still has
its effect, and the installed Textual is the version it was checked against.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import sys
import weakref
from collections import OrderedDict
from functools import lru_cache
from types import CodeType, FrameType
from typing import Any, Callable, Hashable, Iterable, Self, TextIO

from rich.segment import Segment
from textual import events, messages
from textual._time import get_time
from textual.message import Message
from textual._xterm_parser import XTermParser
from textual._styles_cache import StylesCache
from textual.app import App, ScreenStackError
from textual.binding import BindingsMap
from textual.cache import FIFOCache
from textual.color import Color
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.driver import Driver
from textual.geometry import Region, Size
from textual.message_pump import MessagePump
from textual.notifications import Notification
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import AwaitMount, Widget
from textual.widgets import DataTable, Input
from textual.widgets.data_table import RowKey
from textual.widgets._footer import FooterKey
from textual.widgets._toast import ToastRack

from fivetowers.compat.checked import Workaround, source_digest
from fivetowers.compat.measured_lines import LinesAfterMeasuring

log = logging.getLogger("fivetowers.server")

TEXTUAL = "8.2.8"
"""The Textual version every workaround here was checked against."""


def _recorded(name: str, internals: tuple[str, ...], retire_when: str) -> Workaround:
    return Workaround(name, "fivetowers/compat/textual.py", "textual", TEXTUAL, internals,
                      retire_when)


# -- 1. the xterm parser's cache ---------------------------------------------

_parse_extended_key_uncached: Callable[[XTermParser, str], list[events.Key] | None] = (
    XTermParser._parse_extended_key.__wrapped__)


class UncachedXTermParser(XTermParser):
    """Textual's xterm parser without the class-wide cache that keeps Apps alive.

    ``XTermParser._parse_extended_key`` (the kitty keyboard protocol, which
    arrows with modifiers and Alt keys take) is a method decorated with
    ``functools.lru_cache(maxsize=1024)``: one cache for the whole class,
    keyed on ``(parser, sequence)``. Its entries hold every parser and the
    Key events it made, and a Key holds its sender, the App that was running
    when it was made. A terminal app has one parser for its life and never
    notices; a server running one App per session kept up to 1024 finished
    sessions' Apps alive. This parser calls the undecorated
    function (``__wrapped__``) instead. Retire it when Textual caches per
    parser or on the sequence alone (``lru_cache`` on a method is the
    well-known leak, flake8-bugbear's B019): worth an upstream report.
    """

    def _parse_extended_key(  # type: ignore[override]
            self, sequence: str) -> list[events.Key] | None:
        return _parse_extended_key_uncached(self, sequence)


# -- 2. the App's stdout capture ----------------------------------------------

def keep_process_output(app: App[Any], stdout: TextIO, stderr: TextIO) -> None:
    """Make ``app`` leave the process's ``sys.stdout``/``sys.stderr`` alone.

    ``App.run_async`` runs the App inside ``contextlib.redirect_stdout`` and
    ``redirect_stderr`` of its private ``_capture_stdout``/``_capture_stderr``
    (so ``print`` inside an App reaches its log). Those redirects swap the
    process-wide ``sys.stdout`` and restore on exit whatever they saw on
    entry: with many Apps on one event loop, ending in another order than
    they started, ``sys.stdout`` is left pointing at a finished App (which it
    keeps alive) and the server's own output goes nowhere. Capturing "into"
    the streams the server started with makes every redirect a no-op.
    Retire it when Textual lets an App opt out of the capture (say an
    ``App(capture_print=False)`` or a driver property): not reported upstream
    yet.
    """
    app._capture_stdout = stdout  # type: ignore[assignment]
    app._capture_stderr = stderr  # type: ignore[assignment]


# -- 3. the shared stylesheet parse ---------------------------------------------

CSS_KEPT = 256
"""Parsed CSS sources kept (a few dozen are in use: the apps' and widgets' CSS)."""
VARIABLE_SETS_KEPT = 16
"""Sets of CSS variables told apart (one a theme in use; some 170 variables,
tens of KiB, each)."""

PARSE_RULES_PARAMETERS = ["self", "css", "read_from", "is_default_rules", "tie_breaker", "scope"]
"""The signature of ``Stylesheet._parse_rules`` the sharing wraps."""

_parsed: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_css_shared = False
_variable_sets: OrderedDict[tuple[tuple[str, str], ...], object] = OrderedDict()
"""One token per distinct set of CSS variables (a theme's), for ``_parsed``'s keys."""
_sheet_variables: weakref.WeakKeyDictionary[Stylesheet, tuple[dict[str, str], object]] = (
    weakref.WeakKeyDictionary())
"""Each stylesheet's variables dict (held: its id stays its own) and their token."""


def _takes(method: Callable[..., Any], parameters: list[str], changed: str) -> bool:
    """Whether ``method`` still has the parameters a wrapper was written for
    (else the wrapper is not installed, and ``changed`` is logged)."""
    if list(inspect.signature(method).parameters) == parameters:
        return True
    log.warning(changed)
    return False

def share_parsed_css() -> bool:
    """Make every Stylesheet in the process share parsed rules; True if it does.

    Each Textual App parses every CSS source again into rule objects of its
    own, its ``Stylesheet._parse_cache`` being per stylesheet: about 370 KiB
    per session for the same rules (measured with tracemalloc). Parsed rules
    are only read afterwards, so Apps whose CSS variables (theme) are the
    same can share them. Textual has no hook for this, so the private
    ``Stylesheet._parse_rules`` is wrapped with a process-wide cache keyed
    on its arguments and the stylesheet's variables, and only if it still
    has the signature read here (else every App parses its own, as before,
    with a warning). Retire it when Textual shares parsed rules between
    Apps (a class-level cache keyed on the variables): not reported upstream
    yet.
    """
    global _css_shared
    if _css_shared:
        return True
    original: Callable[..., Any] = Stylesheet._parse_rules
    if not _takes(original, PARSE_RULES_PARAMETERS,
                  "Textual's stylesheet parser changed: each session parses its own CSS"):
        return False

    def parse_rules(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                    tie_breaker: int = 0, scope: str = "") -> Any:
        key = (css, read_from, is_default_rules, tie_breaker, scope, _variables_token(self))
        rules = _parsed.get(key)
        if rules is None:
            rules = original(self, css, read_from, is_default_rules, tie_breaker, scope)
            _parsed[key] = rules
            if len(_parsed) > CSS_KEPT:
                _parsed.popitem(last=False)
        else:
            _parsed.move_to_end(key)
        return rules

    Stylesheet._parse_rules = parse_rules  # type: ignore[method-assign]
    _css_shared = True
    return True


def _variables_token(sheet: Stylesheet) -> object:
    """One object per distinct set of ``sheet``'s CSS variables.

    The variables (some 170 of a theme) were sorted into a tuple, hashed
    and compared item by item at every parse of every source, a dozen a
    start: about a millisecond of each session's start. Worked out once per
    variables dict, as Textual's own ``Stylesheet`` keeps its variable tokens
    (``set_variables`` replaces the dict, nothing changes it in place)."""
    variables = sheet._variables
    known = _sheet_variables.get(sheet)
    if known is not None and known[0] is variables:
        return known[1]
    items = tuple(sorted(variables.items()))
    token = _variable_sets.get(items)
    if token is None:
        token = _kept(_variable_sets, items, object(), VARIABLE_SETS_KEPT)
    else:
        _variable_sets.move_to_end(items)
    _sheet_variables[sheet] = (variables, token)
    return token


def parsed_css_count() -> int:
    """How many parsed CSS sources the process shares (for tests and figures)."""
    return len(_parsed)


# -- 4. the Strip caches ------------------------------------------------------

STRIP_CACHES = ("_divide_cache", "_crop_cache", "_style_cache", "_filter_cache",
                "_line_length_cache", "_crop_extend_cache", "_offsets_cache")
"""Strip's slots that cache other Strips (``_render_cache`` is a string)."""


def release_strip_caches(lines: Iterable[Strip]) -> None:
    """Empty the caches of ``lines`` and of every Strip cached in them.

    A Strip keeps what it derived in private caches (``_divide_cache`` and
    six more), and one divided only at its own end is its own only piece, so
    it caches itself: every Strip that was drawn is a reference cycle that only a full
    garbage collection frees. The server freezes survivors (collector.py)
    so that full collections stay rare, so shared renders it drops would
    pile up; emptied caches let reference counting free them at once. A
    widget that still shows these lines only loses their caches, which
    refill. Retire it when ``Strip.divide`` stops caching ``[self]`` (or
    the caches hold weak references): not reported upstream yet.
    """
    seen: set[int] = set()
    todo: list[Any] = list(lines)
    while todo:
        strip = todo.pop()
        if not isinstance(strip, Strip) or id(strip) in seen:
            continue
        seen.add(id(strip))
        for name in STRIP_CACHES:
            cache = strip_cache(strip, name)
            if cache is None:
                continue
            for key in list(cache.keys()):
                value = cache.get(key)
                todo.extend(value if isinstance(value, list) else (value,))
            cache.clear()


UPSTREAM_DIVIDE: Callable[[Strip, Iterable[int]], Any] = Strip.divide
"""Textual's own ``Strip.divide`` (which caches ``[self]``)."""
_divide_uncycled = False


def _divide(self: Strip, cuts: Iterable[int]) -> Any:
    cell_length = self.cell_length
    cuts = [cut for cut in cuts if cut <= cell_length]
    if cuts == [cell_length]:  # its own only piece: a new list, nothing cached
        return [self]
    return UPSTREAM_DIVIDE(self, cuts)


def divide_without_cycles() -> bool:
    """Make ``Strip.divide`` stop caching a Strip in itself; True if it does.

    The compositor divides every line it draws, most of them only at their
    own end, and upstream caches that answer, ``[self]``, in the Strip: so
    every Strip a screen has drawn is a reference cycle that only the cyclic
    collector frees. The server freezes survivors once a minute and collects
    what is frozen only every half hour (collector.py), so every line on
    screen at a freeze and replaced after it was kept for that half hour:
    most of the server's RSS growth during play (tracemalloc: Strips and their
    FIFOCaches). The answer costs nothing to make again, so it is no longer
    cached, and a dropped Strip is freed by reference counting at once.
    Process-wide, and only if ``Strip.divide`` is still the function read
    here. Retire it when ``Strip.divide`` stops caching ``[self]`` upstream
    (with ``release_strip_caches``).
    """
    global _divide_uncycled
    if _divide_uncycled:
        return True
    changed = "Textual's Strip.divide changed: drawn lines stay reference cycles"
    if Strip.divide is not UPSTREAM_DIVIDE:
        log.warning(changed)
        return False
    if not _takes(UPSTREAM_DIVIDE, ["self", "cuts"], changed):
        return False
    Strip.divide = _divide  # type: ignore[method-assign]
    _divide_uncycled = True
    return True


def strip_caches_filled(strip: Strip) -> bool:
    """Whether any of ``strip``'s caches holds something (for tests)."""
    return any(strip_cache(strip, name) for name in STRIP_CACHES)


def strip_bytes(strip: Strip) -> int:
    """The bytes ``strip`` and its caches take, not the lines they hold (for
    scripts/bench_sessions.py)."""
    held = sys.getsizeof(strip)
    for name in STRIP_CACHES:
        cache = strip_cache(strip, name)
        if cache is not None:
            held += sys.getsizeof(cache) + sys.getsizeof(cache._cache)
    return held


UPSTREAM_STRIP_INIT: Callable[..., None] = Strip.__init__
"""Textual's own ``Strip.__init__`` (which makes the seven caches)."""
STRIP_FIELDS = ("_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count")
"""Strip's slots that are no cache of other Strips, as ``__init__`` sets them."""
_cache_slots: dict[str, Any] = {name: Strip.__dict__[name] for name in STRIP_CACHES
                                if name in Strip.__dict__}
"""The slots' own descriptors, which store the caches (kept when replaced)."""
_strip_caches_lazy = False


def strip_cache(strip: Strip, name: str) -> Any:
    """``strip``'s cache ``name`` if it has one, without making it (None)."""
    slot = _cache_slots.get(name)
    if slot is None:  # a Textual without this cache (lazy_strip_caches then stays off)
        return getattr(strip, name, None)
    try:
        return slot.__get__(strip, Strip)
    except AttributeError:
        return None


class _LazyCache:
    """A Strip cache's slot that makes its FIFOCache at the first use."""

    __slots__ = ("slot", "size")

    def __init__(self, slot: Any, size: int) -> None:
        self.slot = slot
        self.size = size

    def __get__(self, strip: Strip | None, owner: type[Strip] | None = None) -> Any:
        if strip is None:
            return self
        try:
            return self.slot.__get__(strip, owner)
        except AttributeError:
            cache: FIFOCache[Any, Any] = FIFOCache(self.size)
            self.slot.__set__(strip, cache)
            return cache

    def __set__(self, strip: Strip, value: Any) -> None:
        self.slot.__set__(strip, value)

    def __delete__(self, strip: Strip) -> None:
        self.slot.__delete__(strip)


def _lazy_init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _upstream_strip_shape() -> dict[str, int] | None:
    """The size of each cache upstream's ``Strip.__init__`` makes, if it
    sets exactly the slots ``_lazy_init`` knows, as it does (else None)."""
    strip = Strip.__new__(Strip)
    UPSTREAM_STRIP_INIT(strip, [Segment("x")], 1)
    lazy = Strip.__new__(Strip)
    _lazy_init(lazy, [Segment("x")], 1)
    set_slots = {name for name in Strip.__slots__ if hasattr(strip, name)}
    if set_slots != set(STRIP_FIELDS) | set(STRIP_CACHES) or set(_cache_slots) != set(STRIP_CACHES):
        return None
    if any(getattr(strip, name) != getattr(lazy, name) for name in STRIP_FIELDS):
        return None
    caches = {name: getattr(strip, name) for name in STRIP_CACHES}
    if not all(type(cache) is FIFOCache and not cache for cache in caches.values()):
        return None
    return {name: cache._maxsize for name, cache in caches.items()}


def lazy_strip_caches() -> bool:
    """Make a Strip's seven caches when first used, not when it is made;
    True if they are.

    ``Strip.__init__`` makes seven empty ``FIFOCache``s (a dict each) for
    every line a widget renders: about 1 KiB of a drawn line's 1.1, and seven
    Python calls, for caches most lines never use (a line is mostly drawn
    once, then replaced). The caches' slots get a descriptor that makes the
    FIFOCache, of upstream's size, on the first read, so every Strip method
    behaves as upstream's; ``__init__`` sets the other slots as upstream's
    does. Process-wide, and only if ``Strip.__init__`` is still the function
    read here and makes exactly these caches. Retire it when Textual makes
    Strip's caches lazily (not reported upstream yet).
    """
    global _strip_caches_lazy
    if _strip_caches_lazy:
        return True
    changed = "Textual's Strip changed: every line makes its caches"
    sizes = _upstream_strip_shape() if Strip.__init__ is UPSTREAM_STRIP_INIT else None
    if sizes is None:
        log.warning(changed)
        return False
    for name, size in sizes.items():
        setattr(Strip, name, _LazyCache(_cache_slots[name], size))
    Strip.__init__ = _lazy_init  # type: ignore[method-assign]
    _strip_caches_lazy = True
    return True


# -- 4b. the widgets' line caches kept by a style cache ---------------------------

UPSTREAM_INNER_OUTER: Any = StylesCache.get_inner_outer
"""Textual's own ``StylesCache.get_inner_outer`` (an ``lru_cache`` on a method)."""
INNER_OUTER_SOURCE = "d2509f3e796680df"
"""The digest (:func:`~fivetowers.compat.checked.source_digest`) of upstream's
function: :func:`_inner_outer` calls it with ``None`` for its first argument,
right only while that body never reads it."""
INNER_OUTER_KEPT = 1024
"""Background pairs kept (as upstream's cache: a theme has a few dozen)."""
_inner_outer_unkept = False


@lru_cache(maxsize=INNER_OUTER_KEPT)
def _inner_outer(base_background: Color, background: Color) -> Any:
    return UPSTREAM_INNER_OUTER.__wrapped__(None, base_background, background)


def _get_inner_outer(self: StylesCache, base_background: Color, background: Color) -> Any:
    return _inner_outer(base_background, background)


def style_caches_not_kept() -> bool:
    """Make ``StylesCache.get_inner_outer`` cache on the colours alone; True if it does.

    Every widget draws through its own ``StylesCache``, which keeps the
    widget's drawn lines (and the lines derived from them: filtered,
    divided). Its ``get_inner_outer`` is decorated with
    ``functools.lru_cache(1024)`` as a method (its first parameter is named
    ``cls``, but it is no classmethod): one cache for the process, keyed on
    ``(style_cache, base_background, background)``. So the last 1,024
    StylesCaches to draw stay alive with every line they hold, long after
    their widgets are gone: game after game at a table, each finished game's
    screens left some 2,900 Strips (scripts/bench_games_memory.py: 6
    sessions, 2 tables), up to some 30,000 Strips for the process. The
    answer depends only on the two colours, so it is cached on them
    (``__wrapped__`` is upstream's function, which never reads its first
    argument). Process-wide, and only if the method is still that cached
    function with that signature and source. Retire it when Textual makes it a
    ``classmethod``/``staticmethod`` (flake8-bugbear's B019; worth an
    upstream report).
    """
    global _inner_outer_unkept
    if _inner_outer_unkept:
        return True
    changed = "Textual's StylesCache.get_inner_outer changed: style caches may keep old lines"
    wrapped = getattr(UPSTREAM_INNER_OUTER, "__wrapped__", None)
    if StylesCache.get_inner_outer is not UPSTREAM_INNER_OUTER or wrapped is None:
        log.warning(changed)
        return False
    if not _takes(wrapped, ["cls", "base_background", "background"], changed):
        return False
    if source_digest(wrapped) != INNER_OUTER_SOURCE:
        log.warning(changed)
        return False
    UPSTREAM_INNER_OUTER.cache_clear()  # let go of the style caches drawn before
    StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[assignment]
    _inner_outer_unkept = True
    return True


# -- 5. the footer's watchers, and closing nodes --------------------------------

def is_closing(node: MessagePump) -> bool:
    """Whether ``node`` (a widget, screen or App) is closing or closed.

    Textual keeps this in ``MessagePump._closing``/``_closed`` and offers no
    public predicate: ``is_running`` is also False before the node starts,
    and ``is_attached`` asks about the parents. Retire it when MessagePump
    gets a public ``is_closing`` (a small upstream request).
    """
    return node._closing or node._closed


def is_being_removed(node: DOMNode) -> bool:
    """Whether ``node`` is being removed from the DOM (its App pruning it).

    Textual marks every node it prunes (``App._prune``: a removed widget,
    the screens of an App that ends) in ``DOMNode._pruning`` and offers no
    public predicate; it takes focus off a focused node it prunes, whose
    restyle then is for nothing. Retire it when DOMNode gets a public
    ``is_removing`` (a small upstream request).
    """
    return node._pruning


def drop_closed_watchers(node: DOMNode, attribute: str) -> None:
    """Forget the watchers of ``node.attribute`` that closed nodes made.

    ``DOMNode.watch`` and ``data_bind`` store ``(watcher, callback)`` pairs in
    the watched object's ``__watchers`` dict (set with ``setattr`` by
    ``textual.reactive._watch``), and Textual drops the pairs of closed
    watchers only when the watched reactive changes. Textual's Footer binds
    every key widget's ``compact`` to its own on each rebuild, and the
    footer's ``compact`` never changes in this project: each change of the
    keys shown (a phase, a screen) kept the old key widgets, some 20 KiB
    each, for the rest of the session. Call this after a rebuild. Retire it
    when Textual prunes a node's watchers when it is removed (or Footer
    unbinds its old keys): not reported upstream yet.
    """
    watchers = getattr(node, "__watchers", {}).get(attribute)
    if watchers:
        watchers[:] = [(watcher, callback) for watcher, callback in watchers
                       if not is_closing(watcher)]


def watchers_of(node: DOMNode, attribute: str) -> list[tuple[DOMNode, Any]]:
    """The ``(watcher, callback)`` pairs kept for ``node.attribute`` (for tests)."""
    return list(getattr(node, "__watchers", {}).get(attribute, []))


# -- 6. screens without tooltips, and toast racks on demand ----------------------

class LeanScreensApp(App[None]):
    """An App whose screens compose no tooltip, and a toast rack only once a
    notification is shown.

    Every screen Textual composes gets a ``Tooltip`` and a ``ToastRack``
    (the container of notifications) as widgets of their own: styled, laid
    out and drawn in each session's start, about a sixth of it. Whether it
    does is decided by the App's private ``_disable_tooltips`` and
    ``_disable_notifications`` flags (only ``run_test`` sets them, through its
    ``tooltips``/``notifications`` arguments); ``_refresh_notifications``
    shows notifications only on a screen that already has a rack. So the flag
    for notifications reads "off" until the first notification, which then
    mounts a rack on the current screen (``ToastRack`` is imported from the
    private ``textual.widgets._toast``), and screens composed later get one
    of their own. Retire it when Textual has public switches for both (say
    ``App.ENABLE_TOOLTIPS`` and a toast rack mounted on first use): not
    reported upstream yet.
    """

    def __init__(self) -> None:
        self._notifications_off = False
        """Notifications turned off (``run_test`` does by default)."""
        self._notified = False
        """Whether a notification was ever shown: screens made since compose
        their own toast rack (Textual reads the flag below when composing)."""
        super().__init__()
        self._disable_tooltips = True

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
            if screen is not None and not has_toast_rack(screen):
                # After the screen's compose, which may be pending and add one.
                screen.call_later(self._add_toast_rack, screen)
                return
        super()._refresh_notifications()

    def _add_toast_rack(self, screen: Screen[Any]) -> None:
        if not screen.is_attached:  # gone meanwhile (the session closed): nobody to tell
            return
        if not has_toast_rack(screen):
            screen.mount(ToastRack(id="textual-toastrack"))
        super()._refresh_notifications()

    def withdraw_notifications(self, notifications: Iterable[Notification]) -> None:
        """Take ``notifications`` (shown with ``Notify``) off the screen before
        their timeout: a pop-up whose news is moot. Textual withdraws one only
        when its toast is clicked (``App._unnotify``, private); retire this
        when it has a public way (not asked upstream yet)."""
        for notification in notifications:
            self._unnotify(notification, refresh=False)
        self._refresh_notifications()


def has_toast_rack(screen: Screen[Any]) -> bool:
    """Whether ``screen`` has a toast rack among its own children."""
    return any(isinstance(child, ToastRack) for child in screen._nodes)


# -- 7. a driver of our own -----------------------------------------------------

class OwnDriver(Driver):
    """A Driver base that names the state Textual's drivers share privately.

    Textual's Driver keeps the App, the loop, the mouse switch and the
    terminal size in ``_app``, ``_loop``, ``_mouse`` and ``_size``, which
    every driver (Textual's own included) reads and writes, and ``App.size``
    reads ``driver._size`` directly: a driver that learns of a resize must
    keep it current. There is no public driver API for any of it. Retire it
    when Textual documents the Driver subclass contract (public properties):
    not reported upstream yet.
    """

    @property
    def app(self) -> App[Any]:
        return self._app

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The event loop the driver was made on (the App's)."""
        return self._loop

    @property
    def mouse(self) -> bool:
        return self._mouse

    @property
    def terminal_size(self) -> tuple[int, int] | None:
        """The size the App reads as its terminal's."""
        return self._size

    @terminal_size.setter
    def terminal_size(self, size: tuple[int, int]) -> None:
        self._size = size


# -- 8. the DataTable's drawing state -------------------------------------------

def data_table_draw_state(table: DataTable[Any]) -> tuple[bool, bool]:
    """``(layout_pending, hover_cursor_shown)`` of ``table``.

    A DataTable that shares its rendered lines with other Apps' (the lobby's
    table list) must not share while it still has to measure its rows
    (``_require_update_dimensions``), and whether it draws the hover cursor
    (``_show_hover_cursor``) changes how the lines look; both are private,
    and no public property tells either. Retire it when DataTable exposes
    them (or a key for what it shows): not reported upstream yet.
    """
    return table._require_update_dimensions, table._show_hover_cursor


_MEASURED_ROWS: OrderedDict[Hashable, tuple[tuple[int, ...], int]] = OrderedDict()
"""Column content widths after measuring a listing's rows, for the next App's table."""
MEASURED_ROWS_KEPT = 64


class RowsMeasuredOnce(LinesAfterMeasuring):
    """A DataTable that measures its rows as another App's showing the same
    rows (``listing``) did.

    Players arriving together see the same lobby list, and a DataTable
    measures every cell of new rows (``_update_dimensions``), a tenth of a
    session's start. When the new rows are all the table's rows, plain ones
    (no label, fixed height), and ``listing`` says what they show, the
    column widths only depend on it and the widths the table had (its
    labels'): those the first table reached are set on the others. The
    private ``_label_column`` is the row labels' column. Retire it when
    DataTable takes known column widths (or caches measures): not reported
    upstream yet.
    """

    listing: Hashable = None
    """What the rows show (set with them); None measures them anew."""

    def _measure(self, new_rows: Iterable[RowKey]) -> None:
        _measure_rows_shared(self, new_rows, self.listing, super()._measure)

    def measure_now(self) -> None:
        """Measure the rows added so far now, not when the table next idles.

        A DataTable measures new rows (``_new_rows``) in its Idle handler,
        which runs after its screen's first layout: a lobby's first frame
        showed an empty list, and measuring sized the table again (one more
        layout and frame per start). Measured before the first layout, the
        first frame is the whole lobby. The same work as on Idle, done once
        either way.
        """
        if self._require_update_dimensions:
            self._require_update_dimensions = False
            new_rows = self._new_rows.copy()
            self._new_rows.clear()
            self._update_dimensions(new_rows)


def _measure_rows_shared(table: DataTable[Any], new_rows: Iterable[RowKey], rows: Hashable,
                         measure: Callable[[Iterable[RowKey]], None]) -> None:
    new = set(new_rows)
    columns = table.ordered_columns
    if rows is None or new != set(table.rows) or any(
            row.label is not None or row.auto_height for row in table.rows.values()):
        measure(new)
        return
    key = (rows, tuple(column.content_width for column in columns),
           table._label_column.content_width)
    measured = _MEASURED_ROWS.get(key)
    if measured is None:
        measure(new)
        _MEASURED_ROWS[key] = (tuple(column.content_width for column in columns),
                               table._label_column.content_width)
        while len(_MEASURED_ROWS) > MEASURED_ROWS_KEPT:
            _MEASURED_ROWS.popitem(last=False)
        return
    _MEASURED_ROWS.move_to_end(key)
    widths, label_width = measured
    for column, width in zip(columns, widths):
        column.content_width = width
    table._label_column.content_width = label_width
    measure(())  # the rest: the table's size from its columns and rows



def translate_footer_keys(widgets: Iterable[Widget],
                          translate: Callable[[str], str]) -> Iterable[Widget]:
    """A Footer's composed widgets with each key's description translated.

    Textual's Footer shows ``Binding.description`` exactly as the binding
    holds it, and bindings are class attributes, written once, in English,
    when a module is imported; but every SSH session reads its screens in
    its own language (fivetowers.i18n), so the description has to be
    translated as the footer composes its keys, per session. The key widget
    class, ``FooterKey``, lives in Textual's private ``_footer`` module and
    keeps the description in a plain attribute that its ``render`` reads.
    Retire it when Footer takes a description formatter (or translates
    through a hook of its own): not reported upstream yet."""
    for widget in widgets:
        if isinstance(widget, FooterKey) and widget.description:
            widget.description = translate(widget.description)
        yield widget


# -- 9. a screen under another is not laid out ----------------------------------

class CoveredScreen(Screen[Any]):
    """A screen that is not laid out while an opaque screen covers it.

    Textual counts the screen just under the top one as visible whatever the
    top one's opacity (``App._background_screens``): every resize the top
    screen gets lays that one out again too, and its new layout's dirty
    regions make the top screen draw again in full. Under the lobby sits
    Textual's default screen, empty: during a session's start it had the
    lobby drawn and sent three times in full rather than twice (a ninth of
    the start's Python calls, ``scripts/bench_start_cost.py --calls``). This screen's private ``_refresh_layout`` does
    nothing while the screen right above it is opaque (Textual's own test for
    what shows through); a layout it skipped runs when it is shown again.
    Retire it when Textual lays out only the screens that can be seen: not
    reported upstream yet. Its first showing, right after mounting styled
    it, does not style it again (``ScreenResume.refresh_styles``).
    """

    skipped_layout = False
    """A layout was asked for while covered: it runs once the screen is seen."""
    resumed = False
    """The screen was shown once: later showings restyle it, as upstream does."""

    def post_message(self, message: Message) -> bool:
        # Textual restyles a screen each time it is shown, the first time
        # too, right after mounting styled it: in every session's start (the
        # default screen is shown before the lobby covers it). Later
        # showings restyle (the theme may have changed meanwhile).
        if isinstance(message, events.ScreenResume) and not self.resumed:
            self.resumed = True
            message.refresh_styles = False
        return super().post_message(message)

    def _refresh_layout(self, size: Size | None = None, scroll: bool = False) -> None:
        if is_covered(self):
            self.skipped_layout = True
            return
        super()._refresh_layout(size, scroll)

    def on_screen_resume(self) -> None:
        if self.skipped_layout:
            self.skipped_layout = False
            self.refresh(layout=True)



class SettledScreen(Screen[Any]):
    """A screen not laid out again for a Resize to the size it is laid out at.

    A screen's first layout sends a Resize event to every widget it showed,
    the screen itself included, and Textual's ``Screen._on_resize`` lays
    the whole screen out again (``_screen_resized``) and draws a frame, even
    when the size is the one it was just laid out at; that layout's own
    Resize to the screen did it once more. A lobby session's start was four
    layouts and five frames where fewer do (each widget sized for the first
    time asks for one more layout, which Textual runs anyway on the screen's
    next update). This screen's private ``_screen_resized`` leaves it to that
    update when its compositor was last laid out at that size and a layout
    is pending (``_layout_required``: the update lays out and draws); any
    other Resize is Textual's. Its first layout (``_refresh_layout``) waits
    until the App can draw, and is the only one: the layout and repaints
    each widget's first sizing asks for find and draw what it did, so they
    are dropped, unless a scrollbar came or went with them; so are the
    layout requests widgets queued before it (``_on_layout``) and the layout
    and repaint its mount's end asks for once it placed every widget of that
    mount (``refresh``). A lobby start is now one layout and one frame, and
    so is an end screen pushed over a table. Retire it when Textual skips a
    Resize to the size a screen already has and a layout its own sizing
    asked for: not reported upstream yet.
    """

    _first_size: Size | None = None
    """The size of a first layout put off until the App draws (see _refresh_layout)."""

    _settled_at: Size | None = None
    """The size the first layout settled at: its own Resize to it needs nothing."""

    _first_laid_out_at: float | None = None
    """When the first layout settled (Textual's message clock)."""

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Self:
        # The end of the screen's mount (``AwaitMount``) asks it for a layout
        # and a full repaint, after the first layout placed and drew every
        # widget that mount brought: the same frame again, per viewer.
        if layout and not regions and not recompose and self._first_laid_out_at is not None:
            mount = _awaited_mount(sys._getframe(1))
            placed = self._compositor.widgets
            if mount is not None and all(widget in placed or not widget.display
                                         for widget in mount._widgets):
                return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    async def _on_layout(self, message: messages.Layout) -> None:
        # A widget that asked for a layout while the screen was composed and
        # shown (its first sizing) posts it to the screen's queue, where it
        # comes after the first layout, which laid the whole screen out from
        # what that widget was by then: one more layout and frame for the
        # same screen, at every viewer of a table whose game ended (the end
        # screen). Stopped here, it does not reach Textual's handler.
        settled = self._first_laid_out_at
        if settled is not None and message.time <= settled:
            message.stop()
            message.prevent_default()

    def _screen_resized(self, size: Size) -> None:
        compositor = self._compositor
        settled, self._settled_at = self._settled_at, None
        if compositor.root is self and compositor.size == size and self._layout_required:
            self.check_idle()  # the update that lays out comes when the screen idles
            return
        if compositor.root is self and compositor.size == size == settled:
            return
        super()._screen_resized(size)

    def _refresh_layout(self, size: Size | None = None, scroll: bool = False) -> None:
        # A first screen is shown while the App mounts, inside Textual's
        # batch_update: its ScreenResume laid it out and rendered a whole
        # frame that App._display then dropped (nothing is drawn in a batch),
        # and the screen's own mount asked for the layout that is drawn. The
        # first layout waits for that one instead: once laid out, once drawn.
        if size is not None and self._compositor.root is None and self.app._batch_count:
            self._first_size = size
            self.refresh(layout=True)
            return
        if size is None and self._first_size is not None:
            size = self._first_size  # the screen has no size of its own yet
        self._first_size = None
        first = (self._compositor.root is None and not scroll and self.is_current
                 and not self.app._batch_count)
        if first:
            # The first layout lays out and draws every widget: what was asked
            # for before it needs no layout and frame of its own.
            self._layout_required = False
            self._dirty_widgets.clear()
        bars = _scrollbars(self) if first else {}
        super()._refresh_layout(size, scroll)
        if first:
            # It drew them after sizing them; the repaint each asked for as it
            # was sized would draw the whole frame again (same bytes). Each
            # one's first virtual size asked for a layout too, which finds
            # what this one found, unless a scrollbar came or went with it.
            settled = bars == _scrollbars(self)
            for widget in self._compositor.widgets:
                widget._repaint_required = False
                if settled:
                    widget._layout_required = False
            if settled:
                self._settled_at = self._compositor.size
                self._first_laid_out_at = get_time()


_AWAIT_MOUNT: CodeType | None = next(
    (code for code in AwaitMount.__await__.__code__.co_consts
     if isinstance(code, CodeType) and code.co_name == "await_mount"), None)
"""The code of ``AwaitMount``'s wait, which refreshes the parent when the mount
is done (None if a Textual release moved it: screens then refresh as Textual's
own do, one layout more, rather than fail to start)."""


def _awaited_mount(frame: FrameType) -> AwaitMount | None:
    """The AwaitMount whose end is running in ``frame`` (None: another caller)."""
    if frame.f_code is not _AWAIT_MOUNT:
        return None
    mount = frame.f_locals.get("self")
    return mount if isinstance(mount, AwaitMount) else None


def _scrollbars(screen: Screen[Any]) -> dict[Widget, tuple[bool, bool]]:
    """Which scrollbars each widget of ``screen`` shows."""
    return {widget: (widget.show_vertical_scrollbar, widget.show_horizontal_scrollbar)
            for widget in screen.walk_children(Widget, with_self=True)}


def covered_default_screen() -> CoveredScreen:
    """An App's default screen (empty, as Textual's) that is not laid out while covered."""
    return CoveredScreen(id="_default")


def is_covered(screen: Screen[Any]) -> bool:
    """Whether an opaque screen lies right on top of ``screen``."""
    stack = screen.app.screen_stack
    above = next((upper for lower, upper in zip(stack, stack[1:]) if lower is screen), None)
    return above is not None and above.styles.background.a == 1


# -- 9. keys that arrive together, in a text field -------------------------------

_INPUT_BINDINGS = BindingsMap(Input.BINDINGS)
_FOCUS_MOVES = {"tab": "focus_next", "shift+tab": "focus_previous"}


class InOrderInput(Input):
    """Textual's Input, taking keys in the order they came when several come at once.

    An Input inserts a printable key in its own key handler
    (``Input._on_key``), but its editing keys (Backspace, Delete, the arrows,
    Enter...) are bindings, and a non-priority binding runs only once the Key
    has bubbled from the Input through every ancestor's message queue up to
    the App (``App._on_key`` -> ``App._check_bindings``). When a terminal's
    read holds Backspace and "d" (a slow link, a fast typist, a key repeat),
    the driver posts both Keys at once and the "d" is inserted before the
    Backspace's binding runs: "abc" becomes "abc" instead of "abd". This
    Input runs its own bindings in its own key handler, before the printable
    path, so each key is applied in turn. A binding it declines (its
    ``check_action``) bubbles as before. Retire it when Textual runs a
    focused widget's bindings before the next key reaches it (upstream
    report text: issue 16's note; not filed yet).
    """

    async def on_key(self, event: events.Key) -> None:
        focused = self.screen.focused
        if focused is not self and focused is not None:
            # Focus moved on (a Tab of the same read, a click) after this key
            # was forwarded here: it belongs to the field that has focus now.
            event.stop()
            event.prevent_default()
            focused._forward_event(events.Key(event.key, event.character))
            return
        if event.key in _FOCUS_MOVES:
            # Tab is the screen's binding, run only once the Key has bubbled
            # up to it; the keys after it in the read would reach this field
            # first. Moving focus here and now sends them on to the next.
            event.stop()
            event.prevent_default()
            getattr(self.screen, _FOCUS_MOVES[event.key])()
            return
        for binding in _INPUT_BINDINGS.key_to_bindings.get(event.key, ()):
            if await self.app.run_action(binding.action, self):
                # Handled here and now: neither the printable path of the
                # Input's handler nor the App's binding check may run it again.
                event.stop()
                event.prevent_default()
                return


# -- 10. writing to the terminal ----------------------------------------------------

def write_to_terminal(app: App[Any], sequence: str) -> None:
    """Send ``sequence`` (an escape sequence: a window title) to ``app``'s terminal.

    Textual writes its own escape sequences (the bell, the clipboard, the
    pointer shape) through the App's driver (``App._driver.write``), but
    offers no public way to write one of an App's own: there is no API for
    the window title. Through the driver the sequence goes where the App's
    frames go (an SSH session's channel, or the local terminal) and in order
    with them; a headless App (tests) writes nothing, as ``App.bell`` does.
    Retire it when Textual has a public way to set the terminal's title or
    to write to the driver: not reported upstream yet.
    """
    driver = app._driver
    if driver is not None and not app.is_headless:
        driver.write(sequence)


# -- 11. the shared selector matching ----------------------------------------------

APPLY_PARAMETERS = ["self", "node", "animate", "cache"]
"""The signature of ``Stylesheet.apply`` the sharing wraps."""
STYLE_MATCHES_KEPT = 1024
"""Matched rules kept: one per kind of node in one place of one screen (and
its component classes), per theme; a few hundred are in use (about 2.1 KiB
each with their candidates'). 20 sessions at 4 tables game after game
(scripts/bench_cache_bounds.py): 522 matches and 396 candidates after two
games, some 70 new a game after; 512 and 4,096 hit the same (matches 89.5%
then 97.0%, candidates 91.8% then 98.5%). 4,096 would have held some 12 MiB
after hours of play, mostly places no screen shows any more. That bench
plays 5 Towers' base game only: GoTown's screens, the variants, a second
theme or language add places in use, so twice 512 are kept (some 2.8 MiB)."""
RULE_LISTS_KEPT = 64
"""Rule lists told apart (each App's stylesheet grows as widget types first
mount, and themes differ)."""

_NO_RULES = object()
"""A node no rule matches: upstream leaves its styles as they are."""
_UNSHARED = ("",)
"""In place of the pseudo-classes: a node matched as upstream does, unshared."""
_ORDERED_PSEUDO_CLASSES = frozenset({"first-of-type", "last-of-type", "first-child",
                                     "last-child", "empty"})
_matches: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_candidates: OrderedDict[tuple[Any, ...], tuple[tuple[str, ...], tuple[bool, ...]]] = (
    OrderedDict())
_rule_lists: OrderedDict[tuple[int, ...], tuple[tuple[Any, ...], object]] = OrderedDict()
"""Tokens by the ids of a list's rule sets, each with the rule sets (held: their
ids stay theirs while kept)."""
_sheet_rules: weakref.WeakKeyDictionary[Stylesheet, tuple[list[Any], object]] = (
    weakref.WeakKeyDictionary())
_style_matches_shared = False
_upstream_apply: Callable[..., None] | None = None
"""``Stylesheet.apply`` as Textual has it, once wrapped (for tests)."""


def _kept(cache: OrderedDict[Any, Any], key: Any, value: Any, most: int) -> Any:
    cache[key] = value
    if len(cache) > most:
        cache.popitem(last=False)
    return value


def _rules_token(sheet: Stylesheet) -> object:
    """One object per distinct list of rule sets (shared parses are the same objects)."""
    rules = sheet.rules
    known = _sheet_rules.get(sheet)
    if known is not None and known[0] is rules:
        return known[1]
    # Keyed on the rule sets' ids (hashing the sets themselves hashed every
    # selector of the sheet, each new App's sheet): the entry holds the sets,
    # so their ids are not reused while it is kept.
    key = tuple(map(id, rules))
    found = _rule_lists.get(key)
    if found is None:
        found = _kept(_rule_lists, key, (tuple(rules), object()), RULE_LISTS_KEPT)
    _sheet_rules[sheet] = (rules, found[1])
    return found[1]


def share_style_matches() -> bool:
    """Make every Stylesheet in the process share which rules match a node; True if it does.

    ``Stylesheet.apply`` works out, for each node it styles, which of the
    stylesheet's rules match the node's path from the App (types, ids,
    classes, pseudo-classes of every node on it) and merges their
    declarations by specificity: about a quarter of a lobby session's start
    (the DataTable's dozen component classes are each a node of their own,
    styled again when it takes focus). Its ``cache`` argument only shares
    the result between siblings in one ``update_nodes`` call, so every
    session redid what the one before it did. The result depends only on
    the rules and on that path, so it is kept for the process, keyed on
    the rule list (shared parses, see ``share_parsed_css``, are the same
    objects for every App) and, for each node on the path, its class, id,
    classes and those pseudo-classes the candidate rules mention. Nodes
    whose candidate rules use the pseudo-classes upstream's own cache
    leaves out (odd/even and the ordered ones) are matched as before.
    ``Stylesheet.apply`` is wrapped only if it still has the signature read
    here (else every App matches its own, as before, with a warning).
    Retire it when Textual caches matched rules across Apps (keyed on the
    selectors' inputs): not reported upstream yet.
    """
    global _style_matches_shared, _upstream_apply
    if _style_matches_shared:
        return True
    original: Callable[..., None] = Stylesheet.apply
    if not _takes(original, APPLY_PARAMETERS,
                  "Textual's stylesheet matching changed: each session matches its own rules"):
        return False
    excluded = frozenset(Stylesheet._EXCLUDE_PSEUDO_CLASSES_FROM_CACHE)

    def candidates(sheet: Stylesheet, token: object, node: DOMNode
                   ) -> tuple[tuple[str, ...], tuple[bool, ...]]:
        """The pseudo-classes the rules that may match ``node`` test, and
        the flags upstream sets from them."""
        names = frozenset(node._selector_names)
        key = (token, names)
        found = _candidates.get(key)
        if found is None:
            rules_map = sheet.rules_map
            pseudo: set[str] = set().union(*[rule.pseudo_classes
                                             for name in rules_map.keys() & names
                                             for rule in rules_map[name]])
            flags = ("hover" in pseudo, "focus-within" in pseudo,
                     not pseudo.isdisjoint(_ORDERED_PSEUDO_CLASSES),
                     "odd" in pseudo or "even" in pseudo)
            shown = _UNSHARED if not pseudo.isdisjoint(excluded) else tuple(sorted(pseudo))
            found = _kept(_candidates, key, (shown, flags), STYLE_MATCHES_KEPT)
        else:
            _candidates.move_to_end(key)
        return found

    def apply(self: Stylesheet, node: DOMNode, *, animate: bool = False,
              cache: dict[tuple[Any, ...], Any] | None = None) -> None:
        token = _rules_token(self)
        pseudo, flags = candidates(self, token, node)
        if pseudo is _UNSHARED:
            original(self, node, animate=animate, cache=cache)
            return
        path = tuple((type(each), each._id, frozenset(each._classes),
                      tuple([name for name in pseudo if each.has_pseudo_class(name)]))
                     for each in node.css_path_nodes)
        key = (token, path)
        rules = _matches.get(key)
        if rules is None:
            found: dict[tuple[Any, ...], Any] = {}
            original(self, node, animate=animate, cache=found)
            _kept(_matches, key, next(iter(found.values()), _NO_RULES), STYLE_MATCHES_KEPT)
            return
        _matches.move_to_end(key)
        (node._has_hover_style, node._has_focus_within, node._has_order_style,
         node._has_odd_or_even) = flags
        if rules is not _NO_RULES:
            self.replace_rules(node, rules, animate=animate)
        self._process_component_classes(node)

    Stylesheet.apply = apply  # type: ignore[method-assign]
    _style_matches_shared, _upstream_apply = True, original
    return True


def shared_style_matches() -> int:
    """How many matched nodes the process shares (for tests and figures)."""
    return len(_matches)


def upstream_style_apply() -> Callable[..., None]:
    """``Stylesheet.apply`` as Textual has it, wrapped or not (for tests)."""
    return _upstream_apply or Stylesheet.apply


# -- which pseudo-classes change a widget's look ---------------------------------

_ODD_EVEN_PSEUDO = frozenset({"odd", "even"})


def look_pseudo_classes(widget: Widget) -> frozenset[str]:
    """``widget``'s pseudo-classes, less the structural ones no rule of its
    stylesheet tests.

    The structural ones (``odd``, ``first-child``...) say where a widget sits
    among its siblings: two viewers see the same opponent's board in
    different places, so with them in a key of shared renders
    (ui/shared_lines.py) each viewer rendered the board again. Textual marks
    on each node, as it styles it, whether a rule matching it tests any of
    them; only then can they change its look. Retire it when Textual says so
    publicly (or its renders are shared).

    The checks of the structural ones left out are not run at all (they
    walk the widget's siblings: a third of the key's cost), so this reads
    ``get_pseudo_classes``' table of checks (``_PSEUDO_CLASSES``) itself.
    With upstream's own table, ``blur``, ``enabled`` and ``light`` are the
    negations of ``focus``, ``disabled`` and ``dark``, checked just before
    them: each pair is checked once (``disabled`` walks the ancestors).
    """
    untested = _UNTESTED[widget._has_order_style, widget._has_odd_or_even]
    checks = widget._PSEUDO_CLASSES
    if checks is not _WIDGET_CHECKS:
        return frozenset([name for name, check in checks.items()
                          if name not in untested and check(widget)])
    found: dict[str, bool] = {}
    for name, check in checks.items():
        if name in untested:
            continue
        negated = _NEGATIONS.get(name)
        found[name] = check(widget) if negated is None else not found[negated]
    return frozenset([name for name, present in found.items() if present])


_UNTESTED: dict[tuple[bool, bool], frozenset[str]] = {
    (True, True): frozenset(),
    (True, False): _ODD_EVEN_PSEUDO,
    (False, True): _ORDERED_PSEUDO_CLASSES,
    (False, False): _ORDERED_PSEUDO_CLASSES | _ODD_EVEN_PSEUDO,
}
"""The structural pseudo-classes left out, by whether the widget's rules
test the ordered ones and odd/even."""
_WIDGET_CHECKS = Widget._PSEUDO_CLASSES
"""Upstream's checks of a widget's pseudo-classes (what ``_NEGATIONS`` was read from)."""
_NEGATIONS = {"blur": "focus", "enabled": "disabled", "light": "dark"}
"""Pseudo-classes upstream checks as the negation of one it checks just before."""


WORKAROUNDS = (
    _recorded("UncachedXTermParser", ("textual._xterm_parser", "_parse_extended_key"),
              "XTermParser stops caching _parse_extended_key class-wide"),
    _recorded("keep_process_output", ("_capture_stdout", "_capture_stderr"),
              "an App can opt out of redirecting sys.stdout/sys.stderr"),
    _recorded("share_parsed_css", ("Stylesheet._parse_rules", "Stylesheet._variables"),
              "Textual shares parsed CSS between Apps"),
    _recorded("release_strip_caches", STRIP_CACHES,
              "Strip.divide stops caching the Strip itself"),
    _recorded("divide_without_cycles", ("Strip.divide", "_divide_cache"),
              "Strip.divide stops caching the Strip itself"),
    _recorded("lazy_strip_caches", ("Strip.__init__", *STRIP_FIELDS, *STRIP_CACHES,
                                    "FIFOCache._maxsize"),
              "Textual makes Strip's caches lazily"),
    _recorded("style_caches_not_kept", ("textual._styles_cache", "StylesCache.get_inner_outer"),
              "StylesCache.get_inner_outer stops caching on the instance"),
    _recorded("drop_closed_watchers", ("__watchers", "_closing", "_closed"),
              "Textual drops a removed node's watchers (or Footer unbinds old keys)"),
    _recorded("is_closing", ("_closing", "_closed"), "MessagePump gets a public is_closing"),
    _recorded("is_being_removed", ("DOMNode._pruning",), "DOMNode gets a public is_removing"),
    _recorded("LeanScreensApp", ("_disable_tooltips", "_disable_notifications",
                                 "_refresh_notifications", "_notifications", "_nodes",
                                 "textual.widgets._toast"),
              "public switches for screens' tooltips and toast racks"),
    _recorded("OwnDriver", ("_app", "_loop", "_mouse", "_size"),
              "a documented Driver subclass contract"),
    _recorded("translate_footer_keys", ("textual.widgets._footer",),
              "Footer takes a description formatter"),
    _recorded("data_table_draw_state", ("_require_update_dimensions", "_show_hover_cursor"),
              "DataTable exposes its pending layout and hover cursor"),
    _recorded("RowsMeasuredOnce", ("_update_dimensions", "_label_column",
                                   "_require_update_dimensions", "_new_rows"),
              "DataTable takes known column widths (or caches measures)"),
    _recorded("CoveredScreen", ("Screen._refresh_layout", "App._background_screens"),
              "Textual lays out only the screens that can be seen"),
    _recorded("SettledScreen", ("Screen._screen_resized", "Screen._compositor",
                                "Screen._layout_required", "Screen._refresh_layout",
                                "Screen._dirty_widgets", "Widget._repaint_required",
                                "Widget._layout_required",
                                "App._batch_count", "Screen._on_layout",
                                "AwaitMount._widgets", "AwaitMount.__await__.await_mount",
                                "sys._getframe"),
              "Textual skips a Resize to the size a screen already has"),
    _recorded("write_to_terminal", ("_driver",),
              "Textual can set the terminal title (or write to its driver) publicly"),
    _recorded("share_style_matches", ("Stylesheet.apply", "Stylesheet._process_component_classes",
                                      "Stylesheet._EXCLUDE_PSEUDO_CLASSES_FROM_CACHE",
                                      "_selector_names", "_id", "_classes", "_has_hover_style",
                                      "_has_focus_within", "_has_order_style",
                                      "_has_odd_or_even"),
              "Textual caches matched rules across Apps"),
    _recorded("look_pseudo_classes", ("_has_order_style", "_has_odd_or_even",
                                      "_PSEUDO_CLASSES"),
              "Textual says which of a node's pseudo-classes its rules test"),
    _recorded("InOrderInput", ("Input._on_key", "App._on_key", "App._check_bindings"),
              "a focused widget's bindings run before its next key (keys in one read)"),
)
