"""compat.textual: each workaround's internals still have the shape it uses,
the upstream behaviour it works around is still there, and it still works."""

from __future__ import annotations

import gc
import inspect
import sys
import weakref
from typing import Any

import pytest
from rich.segment import Segment
from rich.style import Style
from textual._xterm_parser import XTermParser
from textual.app import App, ComposeResult
from textual.css.stylesheet import Stylesheet
from textual.driver import Driver
from textual.layout import Layout
from textual.notifications import Notification, Notify
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static, Tooltip
from textual.widgets._toast import Toast, ToastRack

import fivetowers.compat.textual as compat
from fivetowers.compat.textual import (APPLY_PARAMETERS, PARSE_RULES_PARAMETERS, STRIP_CACHES,
                                       CoveredScreen, SettledScreen,
                                       InOrderInput, LeanScreensApp,
                                       OwnDriver, UncachedXTermParser, data_table_draw_state,
                                       divide_without_cycles, drop_closed_watchers,
                                       has_toast_rack, is_being_removed, is_closing,
                                       lazy_strip_caches,
                                       look_pseudo_classes,
                                       strip_cache,
                                       keep_process_output, release_strip_caches,
                                       share_parsed_css, share_style_matches,
                                       shared_style_matches, strip_caches_filled,
                                       translate_footer_keys, upstream_style_apply, watchers_of,
                                       write_to_terminal)

KITTY = "\x1b[1;5A\x1b[1;2B"  # ctrl+up, shift+down: the parser's extended-key path


# -- the xterm parser's cache -----------------------------------------------------

def test_the_parser_still_caches_extended_keys_class_wide() -> None:
    cached = XTermParser._parse_extended_key
    assert hasattr(cached, "__wrapped__") and hasattr(cached, "cache_info"), (
        "re-check compat/textual.py: UncachedXTermParser (the cache changed)")
    assert list(inspect.signature(cached.__wrapped__).parameters) == ["self", "sequence"]
    # Upstream behaviour: a finished parser stays alive in the cache.
    parser = XTermParser()
    list(parser.feed(KITTY))
    ref = weakref.ref(parser)
    del parser
    gc.collect()
    assert ref() is not None, "upstream stopped caching parsers: retire UncachedXTermParser"
    cached.cache_clear()


def test_the_uncached_parser_parses_the_same_and_lets_go() -> None:
    cached = XTermParser._parse_extended_key
    before = cached.cache_info()
    parser = UncachedXTermParser()
    keys = list(parser.feed(KITTY))
    assert [getattr(key, "key", None) for key in keys] == ["ctrl+up", "shift+down"]
    after = cached.cache_info()
    assert (after.hits, after.misses, after.currsize) == (
        before.hits, before.misses, before.currsize)
    ref = weakref.ref(parser)
    del parser, keys
    gc.collect()
    assert ref() is None


# -- the App's stdout capture -----------------------------------------------------

class Blank(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("blank")


def test_the_app_still_redirects_through_its_capture() -> None:
    app = Blank()
    assert hasattr(app, "_capture_stdout") and hasattr(app, "_capture_stderr")
    source = inspect.getsource(App._process_messages)
    assert "redirect_stdout(self._capture_stdout)" in source, (
        "re-check compat/textual.py: keep_process_output")
    assert "redirect_stderr(self._capture_stderr)" in source


async def run_two_ending_first_to_last(first: App[Any], second: App[Any]) -> None:
    """Start ``first``, then ``second``; end ``first`` before ``second``."""
    one, two = first.run_test(), second.run_test()
    await one.__aenter__()
    await two.__aenter__()
    await one.__aexit__(None, None, None)
    await two.__aexit__(None, None, None)


async def test_apps_ending_out_of_order_leave_stdout_to_a_dead_app() -> None:
    stdout, stderr = sys.stdout, sys.stderr
    try:
        await run_two_ending_first_to_last(Blank(), Blank())
        moved = sys.stdout is not stdout
    finally:
        sys.stdout, sys.stderr = stdout, stderr
    assert moved, "upstream stopped swapping sys.stdout: retire keep_process_output"


async def test_apps_that_keep_process_output_leave_stdout_alone() -> None:
    stdout, stderr = sys.stdout, sys.stderr
    apps = [Blank(), Blank()]
    for app in apps:
        keep_process_output(app, stdout, stderr)
    try:
        await run_two_ending_first_to_last(*apps)
        assert sys.stdout is stdout and sys.stderr is stderr
    finally:
        sys.stdout, sys.stderr = stdout, stderr


# -- the shared stylesheet parse ----------------------------------------------------

CSS = "#probe { height: 3; background: $background; }"


def test_the_stylesheet_parse_has_the_signature_wrapped() -> None:
    assert list(inspect.signature(Stylesheet._parse_rules).parameters) == \
        PARSE_RULES_PARAMETERS, "re-check compat/textual.py: share_parsed_css"
    sheet = Stylesheet(variables={"background": "red"})
    assert sheet._variables == {"background": "red"}
    # Upstream behaviour: each stylesheet has a cache of its own.
    assert sheet._parse_cache is not Stylesheet()._parse_cache


def test_stylesheets_with_the_same_variables_share_parsed_rules() -> None:
    assert share_parsed_css()
    first = Stylesheet(variables={"background": "red"})
    second = Stylesheet(variables={"background": "red"})
    other = Stylesheet(variables={"background": "blue"})
    rules = first._parse_rules(CSS, ("probe.tcss", ""))
    assert rules and second._parse_rules(CSS, ("probe.tcss", "")) is rules
    assert other._parse_rules(CSS, ("probe.tcss", "")) is not rules


class CountedVariables(dict[str, str]):
    """CSS variables that count how often their items are read."""

    reads = 0

    def items(self) -> Any:
        CountedVariables.reads += 1
        return super().items()


def test_a_stylesheets_variables_are_keyed_once_per_dict() -> None:
    # A start parses a dozen sources: the variables (a theme's ~170) were
    # sorted into the key for each of them.
    assert share_parsed_css()
    sheet = Stylesheet(variables=CountedVariables(background="green"))
    rules = sheet._parse_rules(CSS, ("probe.tcss", ""))  # parsed: reads them
    CountedVariables.reads = 0
    for _ in range(4):
        assert sheet._parse_rules(CSS, ("probe.tcss", "")) is rules
    assert CountedVariables.reads == 0


def test_variables_replaced_are_keyed_anew() -> None:
    assert share_parsed_css()
    sheet = Stylesheet(variables={"background": "red"})
    red = sheet._parse_rules(CSS, ("probe.tcss", ""))
    sheet.set_variables({"background": "blue"})
    blue = sheet._parse_rules(CSS, ("probe.tcss", ""))
    assert blue is not red
    assert Stylesheet(variables={"background": "blue"})._parse_rules(
        CSS, ("probe.tcss", "")) is blue


async def test_a_node_is_being_removed_from_its_removal_on() -> None:
    class Two(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("stays", id="stays")
            yield Static("goes", id="goes")

    app = Two()
    async with app.run_test() as pilot:
        goes, stays = app.query_one("#goes"), app.query_one("#stays")
        assert not is_being_removed(goes) and not is_being_removed(stays)
        removal = goes.remove()
        assert is_being_removed(goes) and not is_being_removed(stays)
        await removal
        await pilot.pause()
        assert not app.query("#goes")


def test_a_changed_parse_is_left_alone(monkeypatch: pytest.MonkeyPatch,
                                       caplog: pytest.LogCaptureFixture) -> None:
    def changed(self: Stylesheet, css: str, read_from: Any, *, scope: str = "") -> Any:
        return []

    monkeypatch.setattr(compat, "_css_shared", False)
    monkeypatch.setattr(Stylesheet, "_parse_rules", changed)
    assert not share_parsed_css()
    assert Stylesheet._parse_rules is changed
    assert "stylesheet parser changed" in caplog.text


# -- the shared selector matching ----------------------------------------------------

class Styled(App[None]):
    """Rules that hang on a parent's class, an id, focus and component classes."""

    CSS = """
    .panel > Static { color: red; }
    .panel Static.loud { text-style: bold; }
    #first { height: 3; }
    DataTable:focus > .datatable--cursor { background: green; }
    DataTable > .datatable--header { color: yellow; }
    Static:focus-within { border: solid blue; }
    """

    def compose(self) -> ComposeResult:
        with Widget(classes="panel"):
            yield Static("one", id="first")
            yield Static("two", classes="loud")
        yield Static("three", classes="loud")
        yield DataTable()


def styles_of(app: App[None]) -> dict[str, Any]:
    """Every node's own rules and its component classes' rules, by its place
    (a layout by its kind: each parse makes layout objects of its own)."""
    seen: dict[str, Any] = {}

    def rules(styles: Any) -> dict[str, Any]:
        return {name: type(value) if isinstance(value, Layout) else value
                for name, value in styles.base.get_rules().items()}

    for index, node in enumerate(app.screen.walk_children(with_self=True)):
        place = f"{index}:{type(node).__name__}#{node.id}.{'.'.join(sorted(node.classes))}"
        seen[place] = rules(node.styles)
        for component, styles in node._component_styles.items():
            seen[f"{place}>{component}"] = rules(styles)
    return seen


async def styled(focus: bool) -> dict[str, Any]:
    app = Styled()
    async with app.run_test() as pilot:
        if focus:
            app.query_one(DataTable).focus()
        else:
            app.set_focus(None)
        await pilot.pause()
        return styles_of(app)


def test_the_stylesheet_apply_has_the_signature_wrapped() -> None:
    assert list(inspect.signature(upstream_style_apply()).parameters) == APPLY_PARAMETERS, \
        "re-check compat/textual.py: share_style_matches"
    # Upstream behaviour: the cache it takes is the caller's, one update_nodes long.
    assert "cache" in inspect.signature(upstream_style_apply()).parameters
    assert "focus-within" in Stylesheet._EXCLUDE_PSEUDO_CLASSES_FROM_CACHE


async def test_apps_alike_share_matched_rules_and_style_as_upstream(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert share_parsed_css() and share_style_matches()  # as hosted Apps have them
    focused = await styled(focus=True)
    kept = shared_style_matches()
    assert kept > 0
    assert await styled(focus=True) == focused
    assert shared_style_matches() == kept, "a second App alike matched its own rules"
    blurred = await styled(focus=False)
    assert blurred != focused  # the cursor's background hangs on focus
    # What Textual itself makes of the same Apps.
    monkeypatch.setattr(Stylesheet, "apply", upstream_style_apply())
    assert await styled(focus=True) == focused
    assert await styled(focus=False) == blurred


async def test_a_new_app_s_sheet_finds_its_rules_token_without_hashing_its_rules(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.css.model import RuleSet

    assert share_parsed_css() and share_style_matches()
    app = Styled()
    async with app.run_test():
        sheet = app.stylesheet
        token = compat._rules_token(sheet)
        hashed: list[RuleSet] = []
        rule_hash = RuleSet.__hash__

        def counted(self: RuleSet) -> int:
            hashed.append(self)
            return rule_hash(self)

        monkeypatch.setattr(RuleSet, "__hash__", counted)
        del compat._sheet_rules[sheet]  # as a new App's sheet, sharing the parse, is
        assert compat._rules_token(sheet) is token
        assert hashed == []


def test_a_changed_apply_is_left_alone(monkeypatch: pytest.MonkeyPatch,
                                       caplog: pytest.LogCaptureFixture) -> None:
    def changed(self: Stylesheet, node: Any) -> None:
        return None

    monkeypatch.setattr(compat, "_style_matches_shared", False)
    monkeypatch.setattr(Stylesheet, "apply", changed)
    assert not share_style_matches()
    assert Stylesheet.apply is changed
    assert "stylesheet matching changed" in caplog.text


def test_a_screen_resized_to_its_own_size_with_a_layout_pending_waits_for_it() -> None:
    assert list(inspect.signature(Screen._screen_resized).parameters) == ["self", "size"], \
        "re-check compat/textual.py: SettledScreen"
    screen = SettledScreen()
    assert screen._layout_required is False and screen._compositor.root is None


async def test_a_settled_screen_draws_what_textual_draws() -> None:
    class Shown(App[None]):
        def on_mount(self) -> None:
            self.push_screen(Settled())

    class Settled(SettledScreen):
        def compose(self) -> ComposeResult:
            yield Static("one")
            yield DataTable()

    app = Shown()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        assert app.screen.query_one(Static).region.height == 1
        await pilot.resize_terminal(50, 12)
        await pilot.pause()
        assert app.screen.size == (50, 12) and app.screen.query_one(Static).region.width == 50


async def pushed_screen_counts(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Layouts and full repaints of a SettledScreen pushed over another (an
    end screen over a table), until the App is quiet."""
    from textual._compositor import Compositor
    from textual.containers import Center, Vertical

    counts = {"layouts": 0, "full repaints": 0}
    reflow, full = Compositor.reflow, Compositor.render_full_update

    def counted_reflow(self: Compositor, *args: Any, **kwargs: Any) -> Any:
        counts["layouts"] += 1
        return reflow(self, *args, **kwargs)

    def counted_full(self: Compositor, *args: Any, **kwargs: Any) -> Any:
        counts["full repaints"] += 1
        return full(self, *args, **kwargs)

    class Ended(SettledScreen):  # a class of its own each time: no dispatch plan kept
        def compose(self) -> ComposeResult:
            with Vertical():
                yield Static("The game is over")
                with Center():
                    yield DataTable()

        def on_mount(self) -> None:
            self.query_one(DataTable).add_columns("player", "total")

    app = App[None]()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        with monkeypatch.context() as counting:
            counting.setattr(Compositor, "reflow", counted_reflow)
            counting.setattr(Compositor, "render_full_update", counted_full)
            app.push_screen(Ended())  # not awaited, as a session pushes it
            for _ in range(8):
                await pilot.pause()
        assert app.screen.query_one(Static).region.width == 40  # laid out
        await pilot.resize_terminal(50, 12)  # a later layout is Textual's
        await pilot.pause()
        assert app.screen.query_one(Static).region.width == 50
    return counts


async def test_a_pushed_settled_screen_is_not_laid_out_again_for_what_its_first_layout_did(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The layouts its widgets asked for while it was shown, and the one its
    mount's end asks for, find what its first layout found: an end screen
    at every viewer of a table was laid out and drawn twice."""
    ours = await pushed_screen_counts(monkeypatch)
    monkeypatch.setattr(SettledScreen, "refresh", Widget.refresh)
    monkeypatch.delattr(SettledScreen, "_on_layout")
    upstream = await pushed_screen_counts(monkeypatch)
    assert ours["layouts"] < upstream["layouts"], (ours, upstream)
    assert ours["full repaints"] < upstream["full repaints"], (ours, upstream)


# -- the Strip caches -------------------------------------------------------------

def test_strip_caches_are_the_ones_released() -> None:
    slots = set(Strip.__slots__)
    caches = {name for name in slots if name.endswith("_cache")} - {"_render_cache"}
    assert caches == set(STRIP_CACHES), "re-check compat/textual.py: release_strip_caches"
    strip = Strip([Segment("abc")])
    for name in STRIP_CACHES:
        cache = getattr(strip, name)
        assert callable(cache.keys) and callable(cache.get) and callable(cache.clear)


def strips_showing(text: str) -> int:
    return sum(isinstance(obj, Strip) and obj.text == text for obj in gc.get_objects())


def test_a_released_strip_is_freed_without_the_cyclic_collector() -> None:
    gc.collect()
    gc.disable()
    try:
        kept = Strip([Segment("kept strip")])
        # upstream: it caches itself (what divide_without_cycles stops)
        assert compat.UPSTREAM_DIVIDE(kept, [kept.cell_length])[0] is kept
        kept.crop(0, 4)
        assert strip_caches_filled(kept)
        del kept
        assert strips_showing("kept strip") == 1, "upstream stopped the cycle: retire it"
        freed = Strip([Segment("freed strip")])
        compat.UPSTREAM_DIVIDE(freed, [freed.cell_length])
        freed.crop(0, 4)
        release_strip_caches([freed])
        assert not strip_caches_filled(freed)
        del freed
        assert strips_showing("freed strip") == 0 and strips_showing("free") == 0
    finally:
        gc.enable()
        gc.collect()


def test_a_divided_strip_is_freed_without_the_cyclic_collector() -> None:
    """Once divide_without_cycles is in, a Strip drawn (divided at its own end,
    cropped, styled) is freed when dropped, by reference counting alone: with
    upstream's divide it stays until a full collection (see the test above)."""
    assert divide_without_cycles() and divide_without_cycles()  # once, then a no-op
    gc.collect()
    gc.disable()
    try:
        line = Strip([Segment("drawn line"), Segment(" more")])
        assert line.divide([line.cell_length]) == [line]
        assert line.divide([line.cell_length, 99]) == [line]  # cuts past its end dropped
        left, right = line.divide([4, line.cell_length])  # a real cut: upstream's answer
        assert (left.text, right.text) == ("draw", "n line more")
        assert line.divide([4, line.cell_length]) == [left, right]  # and its cache
        line.crop(0, 4)
        del line, left, right
        assert strips_showing("drawn line more") == 0 and strips_showing("draw") == 0
    finally:
        gc.enable()
        gc.collect()


def test_upstream_strips_make_seven_empty_caches() -> None:
    """What lazy_strip_caches saves, and the shape it was written for."""
    strip = Strip.__new__(Strip)
    compat.UPSTREAM_STRIP_INIT(strip, [Segment("line")], 4)
    assert all(strip_cache(strip, name) is not None for name in STRIP_CACHES)
    assert compat._upstream_strip_shape() is not None, "re-check compat/textual.py: lazy_strip_caches"


def test_a_new_strip_holds_no_caches_until_used() -> None:
    assert lazy_strip_caches() and lazy_strip_caches()  # once, then a no-op
    line = Strip([Segment("drawn "), Segment("line", Style(bold=True))])
    assert all(strip_cache(line, name) is None for name in STRIP_CACHES)
    cropped = line.crop(1, 5)
    made = {name for name in STRIP_CACHES if strip_cache(line, name) is not None}
    assert made == {"_crop_cache"}
    assert line.crop(1, 5) is cropped  # cached, as upstream caches it
    assert strip_cache(cropped, "_crop_cache") is None


def test_lazy_caches_answer_as_upstream_and_keep_its_sizes() -> None:
    assert lazy_strip_caches()
    upstream = Strip.__new__(Strip)
    compat.UPSTREAM_STRIP_INIT(upstream, [Segment("drawn "), Segment("line", Style(bold=True))])
    lazy = Strip([Segment("drawn "), Segment("line", Style(bold=True))])
    style = Style(italic=True)
    for strip in (upstream, lazy):
        for _ in range(2):  # a miss, then a hit
            strip.adjust_cell_length(12, style)
            strip.crop_extend(2, 14, style)
            strip.apply_style(style)
            strip.apply_offsets(1, 2)
            strip.divide([3, 10])
    assert lazy == upstream and lazy.cell_length == upstream.cell_length
    for name in STRIP_CACHES:
        made, upstreams = getattr(lazy, name), getattr(upstream, name)
        assert type(made) is type(upstreams) and made._maxsize == upstreams._maxsize
        assert list(made.keys()) == list(upstreams.keys())
        assert [made.get(key) for key in made.keys()] == [upstreams.get(key)
                                                          for key in upstreams.keys()]
    # a filled lazy cache is released as an upstream one is
    release_strip_caches([lazy])
    assert not strip_caches_filled(lazy)


# -- the widgets' line caches kept by a style cache -----------------------------------

def test_upstream_inner_outer_keeps_every_style_cache_that_asked() -> None:
    """What style_caches_not_kept works around: the lru_cache on the method
    keeps the StylesCache (and every line it holds) in its key."""
    from textual._styles_cache import StylesCache
    from textual.color import Color

    wrapped = getattr(compat.UPSTREAM_INNER_OUTER, "__wrapped__", None)
    assert wrapped is not None and list(inspect.signature(wrapped).parameters) == [
        "cls", "base_background", "background"], "re-check compat/textual.py: style_caches_not_kept"
    from fivetowers.compat.checked import source_digest
    from fivetowers.compat.textual import INNER_OUTER_SOURCE
    assert source_digest(wrapped) == INNER_OUTER_SOURCE, (
        "upstream's get_inner_outer changed: re-check that it never reads its first argument")
    cache = StylesCache()
    kept = weakref.ref(cache)
    compat.UPSTREAM_INNER_OUTER(cache, Color(1, 2, 3), Color(4, 5, 6))
    del cache
    gc.collect()
    try:
        assert kept() is not None, "upstream stopped keeping StylesCaches: retire style_caches_not_kept"
    finally:
        compat.UPSTREAM_INNER_OUTER.cache_clear()  # type: ignore[attr-defined]


async def test_a_style_cache_that_drew_is_not_kept_once_its_widget_is_gone() -> None:
    from textual._styles_cache import StylesCache
    from textual.color import Color

    assert compat.style_caches_not_kept() and compat.style_caches_not_kept()  # once, then a no-op
    background = (Color(10, 20, 30), Color(40, 50, 60, 0.5))
    assert StylesCache().get_inner_outer(*background) == wrapped_inner_outer(*background)

    class Board(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("a board of a finished game\nsecond line", id="board")

    async with Board().run_test() as pilot:
        board = pilot.app.query_one("#board", Static)
        await pilot.pause()
        assert board._styles_cache._cache  # it drew (asking for its colours)
        cache = board._styles_cache
        board._styles_cache = StylesCache()  # as when the widget is gone
    lines = weakref.ref(cache)
    del cache, board
    gc.collect()
    assert lines() is None


def wrapped_inner_outer(base_background: Any, background: Any) -> Any:
    """Upstream's answer, without its cache."""
    return compat.UPSTREAM_INNER_OUTER.__wrapped__(None, base_background, background)


# -- the footer's watchers, and closing nodes ----------------------------------------

class Bound(Static):
    compact = reactive(False)


class Holder(Widget):
    """Binds its keys' ``compact`` to its own, as Textual's Footer does."""

    compact = reactive(False)
    keys = False
    """Keys are composed on recompose (in the holder's context), as the footer's are."""

    def compose(self) -> ComposeResult:
        if self.keys:
            yield Bound("key").data_bind(compact=Holder.compact)


class Binding(App[None]):
    def compose(self) -> ComposeResult:
        yield Holder(id="holder")


async def test_closed_watchers_stay_until_dropped() -> None:
    app = Binding()
    async with app.run_test() as pilot:
        holder = app.query_one(Holder)
        holder.keys = True
        for _ in range(3):
            holder.call_later(holder.recompose)  # in the holder's own context
            await pilot.pause()
            await pilot.pause()
        pairs = watchers_of(holder, "compact")
        # Upstream behaviour: the removed keys' watchers stay (compact never changed).
        assert len(pairs) == 3, "re-check compat/textual.py: drop_closed_watchers"
        assert [is_closing(node) for node, _ in pairs] == [True, True, False]
        drop_closed_watchers(holder, "compact")
        assert [node for node, _ in watchers_of(holder, "compact")] == \
            list(holder.query(Bound))


async def test_is_closing_follows_a_widget_being_removed() -> None:
    app = Binding()
    async with app.run_test() as pilot:
        holder = app.query_one(Holder)
        assert not is_closing(holder) and not is_closing(app)
        await holder.remove()
        await pilot.pause()
        assert is_closing(holder)


# -- screens without tooltips, toast racks on demand ----------------------------------

class Lean(LeanScreensApp):
    seen: tuple[bool, bool] | None = None
    """Whether the first screen had a tooltip and a toast rack (run_async only)."""

    def compose(self) -> ComposeResult:
        yield Static("lean")

    def look_and_leave(self) -> None:
        self.seen = bool(self.screen.query(Tooltip)), has_toast_rack(self.screen)
        self.exit()


def test_screens_still_ask_the_app_s_private_switches() -> None:
    source = inspect.getsource(Screen)
    for flag in ("self.app._disable_tooltips", "self.app._disable_notifications"):
        assert flag in source, f"re-check compat/textual.py: LeanScreensApp ({flag})"
    assert callable(App._refresh_notifications)
    assert "ToastRack" in inspect.getsource(App._refresh_notifications)


async def test_a_lean_app_run_as_sessions_run_has_neither() -> None:
    # As the server runs it: run_async, which leaves the switches to the App
    # (run_test sets both from its own arguments).
    app = Lean()
    app.call_later(app.call_after_refresh, app.look_and_leave)
    await app.run_async(headless=True, size=(40, 8))
    assert app.seen == (False, False)


async def test_a_lean_screen_has_a_toast_rack_once_notified() -> None:
    app = Lean()
    async with app.run_test(notifications=True) as pilot:
        await pilot.pause()
        screen = app.screen
        assert not screen.query(Tooltip) and not has_toast_rack(screen)
        app.notify("hello")
        for _ in range(5):
            await pilot.pause()
        assert has_toast_rack(screen) and len(screen.query(ToastRack)) == 1
        assert screen.query(Toast)
        app.push_screen(Screen())
        await pilot.pause()
        assert has_toast_rack(app.screen)  # later screens compose their own


async def test_a_withdrawn_pop_up_leaves_the_screen_and_the_others_stay() -> None:
    assert list(inspect.signature(App._unnotify).parameters) == ["self", "notification",
                                                                 "refresh"]
    app = Lean()
    async with app.run_test(notifications=True) as pilot:
        moot, news = Notification("moot", timeout=60), Notification("news", timeout=60)
        app.post_message(Notify(moot))
        app.post_message(Notify(news))
        for _ in range(5):
            await pilot.pause()
        assert len(app.screen.query(Toast)) == 2
        app.withdraw_notifications([moot])
        for _ in range(5):
            await pilot.pause()
        shown = [str(toast.render()) for toast in app.screen.query(Toast)]
        assert len(shown) == 1 and "news" in shown[0]


async def test_a_plain_app_s_screen_has_both() -> None:
    app = Blank()
    async with app.run_test(tooltips=True, notifications=True) as pilot:
        await pilot.pause()
        assert app.screen.query(Tooltip) and has_toast_rack(app.screen)


# -- a driver of our own ------------------------------------------------------------

class Quiet(OwnDriver):
    def write(self, data: str) -> None:
        pass

    def start_application_mode(self) -> None:
        pass

    def disable_input(self) -> None:
        pass

    def stop_application_mode(self) -> None:
        pass


async def test_the_driver_state_is_where_the_app_reads_it() -> None:
    assert list(inspect.signature(Driver.__init__).parameters) == [
        "self", "app", "debug", "mouse", "size"]
    app = Blank()
    driver = Quiet(app, mouse=False, size=(30, 7))
    assert driver.app is app and not driver.mouse and driver.terminal_size == (30, 7)
    assert driver.loop.is_running()
    driver.terminal_size = (50, 9)
    assert driver._size == (50, 9)
    assert "self._driver._size" in inspect.getsource(App), (
        "re-check compat/textual.py: OwnDriver (App.size)")


# -- the DataTable's drawing state ----------------------------------------------------

class Rows(App[None]):
    def compose(self) -> ComposeResult:
        yield DataTable()


async def test_a_data_table_s_draw_state() -> None:
    app = Rows()
    async with app.run_test() as pilot:
        table = app.query_one(DataTable)
        await pilot.pause()
        table.add_column("name")
        table.add_row("Ann")
        assert data_table_draw_state(table) == (True, False)
        await pilot.pause()
        assert data_table_draw_state(table) == (False, False)
        await pilot.hover(DataTable, offset=(2, 1))
        await pilot.pause()
        assert data_table_draw_state(table)[1]


# -- the footer's descriptions, per session's language ------------------------------

async def test_footer_keys_take_a_translated_description() -> None:
    from textual.app import App, ComposeResult
    from textual.binding import Binding as KeyBinding
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    class Translated(Footer):
        def compose(self) -> ComposeResult:
            yield from translate_footer_keys(super().compose(), str.upper)

    class Keys(App[None]):
        ENABLE_COMMAND_PALETTE = False
        BINDINGS = [KeyBinding("q", "quit", "leave")]

        def compose(self) -> ComposeResult:
            yield Translated()

    app = Keys()
    async with app.run_test() as pilot:
        await pilot.pause()
        keys = list(app.query(FooterKey))
        assert [key.description for key in keys] == ["LEAVE"], (
            "re-check compat/textual.py: translate_footer_keys (Footer composes otherwise)")
        assert "LEAVE" in keys[0].render().plain  # what it draws is the description


# -- a screen under another is not laid out ----------------------------------------

class Opaque(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("on top")


class SeeThrough(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield Static("a dialog")


class Layered(App[None]):
    def __init__(self, covered: bool) -> None:
        super().__init__()
        self.covered = covered

    def get_default_screen(self) -> Screen[Any]:
        class Base(CoveredScreen if self.covered else Screen):  # type: ignore[misc]
            def compose(self) -> ComposeResult:
                yield Static("under", id="under")

        return Base(id="_default")


async def _layouts_while_covered(covered: bool, top: Screen[None],
                                 monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """Layouts the default screen made while ``top`` covered it and the app was
    resized; and the width of its widget once it is on top again."""
    app = Layered(covered)
    layouts: list[Screen[Any]] = []
    refresh_layout = Screen._refresh_layout

    def counting(screen: Screen[Any], *args: Any, **kwargs: Any) -> None:
        layouts.append(screen)
        refresh_layout(screen, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counting)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        base = app.screen
        await app.push_screen(top)
        await pilot.pause()
        layouts.clear()
        await pilot.resize_terminal(60, 12)
        await pilot.pause()
        under = sum(screen is base for screen in layouts)
        app.pop_screen()
        await pilot.pause()
        await pilot.pause()
        return under, base.query_one("#under").size.width


async def test_textual_still_lays_out_a_screen_under_an_opaque_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    layouts, width = await _layouts_while_covered(False, Opaque(), monkeypatch)
    assert layouts > 0, "re-check compat/textual.py: CoveredScreen (Textual stopped)"
    assert width == 60


async def test_a_covered_screen_is_laid_out_only_once_seen_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    layouts, width = await _layouts_while_covered(True, Opaque(), monkeypatch)
    assert layouts == 0
    assert width == 60  # the layout it skipped ran when it was shown again


async def test_a_screen_seen_through_the_one_on_top_is_laid_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    layouts, width = await _layouts_while_covered(True, SeeThrough(), monkeypatch)
    assert layouts > 0 and width == 60


async def restyles_of_the_default_screen(covered: bool, monkeypatch: pytest.MonkeyPatch
                                         ) -> tuple[list[str], Any, Any]:
    """When the default screen was styled again while an App started and when
    it was shown again after a theme change (upstream: never); its styles
    after the start and once shown again."""
    app = Layered(covered)
    restyled: list[str] = []
    phase = ["start"]
    update = Screen.update_node_styles

    def counting(screen: Screen[Any], animate: bool = True) -> None:
        if screen.id == "_default":
            restyled.append(phase[0])
        update(screen, animate)

    monkeypatch.setattr(Screen, "update_node_styles", counting)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        base = app.screen
        started = styles_of(app)
        await app.push_screen(Opaque())
        await pilot.pause()
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        phase[0] = "shown again"
        app.pop_screen()
        await pilot.pause()
        assert app.screen is base
        return restyled, started, styles_of(app)


async def test_the_default_screen_is_not_styled_again_when_first_shown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    upstream = await restyles_of_the_default_screen(False, monkeypatch)
    assert "start" in upstream[0], "re-check compat/textual.py: CoveredScreen (Textual stopped)"
    covered = await restyles_of_the_default_screen(True, monkeypatch)
    assert covered[0] == upstream[0][1:] == []
    # Styled as upstream styles it: at the start, and after another theme.
    assert covered[1:] == upstream[1:]
    assert covered[1] != covered[2]


# -- keys that arrive together, in a text field ------------------------------------

class Field(App[None]):
    def __init__(self, field: Input) -> None:
        super().__init__()
        self.field = field
        self.submitted: list[str] = []

    def compose(self) -> ComposeResult:
        yield self.field

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.submitted.append(event.value)


async def typed_in_one_read(field: Input, value: str, read: str) -> tuple[str, list[str]]:
    """``field`` holding ``value``, after the keys of one terminal read."""
    app = Field(field)
    async with app.run_test() as pilot:
        field.value = value
        field.cursor_position = len(value)
        for event in XTermParser().feed(read):
            app.post_message(event)  # as a driver does: all of one read at once
        await pilot.pause()
        await pilot.pause()
        return field.value, app.submitted


async def test_upstream_input_still_takes_keys_of_one_read_out_of_order() -> None:
    assert await typed_in_one_read(Input(), "abc", "\x7fd") == ("abc", []), (
        "upstream fixed the key order: retire InOrderInput")


@pytest.mark.parametrize("read, value, submitted", [
    ("\x7fd", "abd", []),
    ("\x7f\x7fxy", "axy", []),
    ("\x1b[Dz", "abzc", []),  # left, then z: inserted before the c
    ("\x7f\r", "ab", ["ab"]),
    ("d\x7fe\r", "abce", ["abce"]),
])
async def test_the_in_order_input_takes_them_in_order(read: str, value: str,
                                                     submitted: list[str]) -> None:
    assert await typed_in_one_read(InOrderInput(), "abc", read) == (value, submitted)


class Form(App[None]):
    def compose(self) -> ComposeResult:
        yield InOrderInput("kept", id="title")
        yield InOrderInput("3", id="seats")


@pytest.mark.parametrize("read, title, seats", [
    ("\t\x7f2", "kept", "2"),  # a field takes focus with its text selected
    ("\t\x1b[F\x7f2", "kept", "2"),  # Tab, End, Backspace, 2
    ("!\t2\x1b[Z?", "?", "2"),  # Shift+Tab back to the title: "?" replaces it
])
async def test_keys_after_a_tab_in_one_read_reach_the_next_field(read: str, title: str,
                                                                 seats: str) -> None:
    app = Form()
    async with app.run_test() as pilot:
        first = app.query_one("#title", Input)
        first.focus()
        first.cursor_position = 4
        await pilot.pause()
        for event in XTermParser().feed(read):
            app.post_message(event)  # as a driver does: all of one read at once
        for _ in range(4):
            await pilot.pause()
        assert (first.value, app.query_one("#seats", Input).value) == (title, seats)


# -- writing to the terminal ------------------------------------------------------------

class Recording(Quiet):
    def __init__(self, app: App[Any]) -> None:
        super().__init__(app)
        self.written: list[str] = []

    def write(self, data: str) -> None:
        self.written.append(data)


async def test_a_sequence_goes_through_the_driver_as_textual_s_bell_does() -> None:
    assert "self._driver.write" in inspect.getsource(App.bell), (
        "re-check compat/textual.py: write_to_terminal (how Textual writes its bell)")
    app = Blank()
    write_to_terminal(app, "\x1b]2;t\x1b\\")  # no driver yet: nothing to write to
    driver = Recording(app)
    app._driver = driver
    write_to_terminal(app, "\x1b]2;t\x1b\\")
    assert driver.written == ["\x1b]2;t\x1b\\"]
    async with Blank().run_test() as pilot:  # headless: written nowhere, no error
        write_to_terminal(pilot.app, "\x1b]2;t\x1b\\")


# -- which pseudo-classes change a widget's look ------------------------------------

class Sited(Static):
    """A widget that counts how often its place among its siblings is asked."""

    asked: list[str] = []
    _PSEUDO_CLASSES = {
        **Static._PSEUDO_CLASSES,
        **{name: (lambda widget, name=name, check=check:  # type: ignore[misc]
                  Sited.asked.append(name) or check(widget))
           for name, check in Static._PSEUDO_CLASSES.items()
           if name in ("first-child", "last-child", "first-of-type", "last-of-type",
                       "empty", "odd", "even")},
    }


class Placed(Static):
    """Upstream's own checks (the fast path), counting the places asked."""

    asked: list[str] = []

    def _asked(self, name: str, value: bool) -> bool:
        Placed.asked.append(name)
        return value

    first_child = property(lambda self: self._asked("first-child", False))  # type: ignore[assignment]
    last_child = property(lambda self: self._asked("last-child", False))  # type: ignore[assignment]
    first_of_type = property(lambda self: self._asked("first-of-type", False))  # type: ignore[assignment]
    last_of_type = property(lambda self: self._asked("last-of-type", False))  # type: ignore[assignment]
    is_odd = property(lambda self: self._asked("odd", False))  # type: ignore[assignment]
    is_even = property(lambda self: self._asked("even", False))  # type: ignore[assignment]
    is_empty = property(lambda self: self._asked("empty", False))  # type: ignore[assignment]


class SitedApp(App[None]):
    CSS = "#tested:odd { color: red; }"

    def compose(self) -> ComposeResult:
        yield Sited("one", id="plain")
        yield Sited("two", id="tested")
        yield Placed("three", id="placed")


async def test_the_look_key_asks_no_structural_class_no_rule_tests() -> None:
    app = SitedApp()
    async with app.run_test(size=(30, 6)) as pilot:
        await pilot.pause()
        plain, tested = app.query_one("#plain", Sited), app.query_one("#tested", Sited)
        Sited.asked.clear()
        assert look_pseudo_classes(plain) == frozenset(plain.get_pseudo_classes()) - {
            "first-child", "last-child", "first-of-type", "last-of-type", "empty", "odd", "even"}
        Sited.asked.clear()
        look_pseudo_classes(plain)
        assert Sited.asked == []  # no rule tests them: their checks are not run
        classes = look_pseudo_classes(tested)
        assert "even" in classes and "odd" not in classes  # its rule tests odd/even
        assert set(Sited.asked) == {"odd", "even"}
        placed = app.query_one("#placed", Placed)
        assert Placed._PSEUDO_CLASSES is Widget._PSEUDO_CLASSES
        Placed.asked.clear()
        look_pseudo_classes(placed)
        assert Placed.asked == []  # upstream's checks: none of its place is asked
        placed.get_pseudo_classes()
        assert Placed.asked  # (which upstream's key does ask)


def test_upstream_checks_blur_enabled_and_light_as_negations_after_their_pair() -> None:
    """What look_pseudo_classes relies on to check each pair once."""
    names = list(Widget._PSEUDO_CLASSES)
    source = {name: inspect.getsource(check).strip() for name, check in
              Widget._PSEUDO_CLASSES.items()}
    for negated, pair in compat._NEGATIONS.items():
        assert names.index(pair) < names.index(negated), "re-check look_pseudo_classes"
        body = source[pair].split("lambda widget:")[1].strip().rstrip(",")
        assert source[negated].endswith(f"lambda widget: not {body},"), source[negated]


class Switched(App[None]):
    CSS = "Input:disabled { color: red; }"

    def compose(self) -> ComposeResult:
        yield Input(id="typed")
        yield Input(id="off", disabled=True)


async def test_the_look_key_checks_each_pair_once_and_says_what_upstream_says() -> None:
    app = Switched()
    async with app.run_test(size=(30, 8)) as pilot:
        await pilot.pause()
        for widget in (app.query_one("#typed"), app.query_one("#off")):
            structural = {"first-child", "last-child", "first-of-type", "last-of-type",
                          "empty", "odd", "even"}
            assert look_pseudo_classes(widget) == frozenset(
                widget.get_pseudo_classes()) - structural
        app.theme = "textual-light"
        await pilot.pause()
        typed = app.query_one("#typed")
        assert {"light", "focus", "enabled"} <= look_pseudo_classes(typed)
        disabled_checks = 0
        real = type(typed).is_disabled

        class Counted(Input):
            @property
            def is_disabled(self) -> bool:
                nonlocal disabled_checks
                disabled_checks += 1
                return bool(real.fget(self))  # type: ignore[attr-defined]
        typed.__class__ = Counted
        try:
            look_pseudo_classes(typed)
        finally:
            typed.__class__ = Input
        assert disabled_checks == 1  # disabled checked, enabled its negation


def test_the_settled_screen_still_finds_textual_s_wait_for_a_mount() -> None:
    # SettledScreen tells a mount's refresh by AwaitMount's inner wait; a
    # Textual that moved it would leave screens refreshing as upstream does.
    assert compat._AWAIT_MOUNT is not None
