"""compat.dirty_lines: a partial update renders only the rows that changed,
and sends exactly what Textual's own partial update sends."""

from __future__ import annotations

import re
import sys
from types import FrameType
from typing import Any, Callable

from rich.console import Console
from textual._compositor import Compositor
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from fivetowers.compat import dirty_lines
from fivetowers.compat.dirty_lines import _render_partial_update

TEXTUAL_PARTIAL_UPDATE = dirty_lines._original or Compositor.render_partial_update
"""Textual's own (the server may have put the banded one in its place)."""


class Counted(Static):
    renders = 0

    def render_lines(self, crop: Region) -> list[Strip]:
        self.renders += 1
        return super().render_lines(crop)


class Table(App[None]):
    CSS = """
    #top, #bottom { height: 2; }
    #middle { height: 1fr; }
    .panel { border: round red; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield Counted("status", id="top")
        with Horizontal(id="middle"):
            yield Counted("towers\n" * 6, id="towers", classes="panel")
            with Vertical():
                yield Counted("hints", id="hints", classes="panel")
                yield Counted("log", id="log", classes="panel")
        yield Counted("hand", id="bottom")


def segments(update: object, console: Console) -> str:
    assert update is not None
    return update.render_segments(console)  # type: ignore[attr-defined, no-any-return]


async def test_the_same_lines_are_sent_and_only_changed_rows_render() -> None:
    app = Table()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        for widget, text in (("#top", "turn 2"), ("#log", "log\nBo plays"),
                             ("#bottom", "hand 3")):
            app.query_one(widget, Static).update(text, layout=False)
        await pilot.pause()
        compositor = app.screen._compositor
        changed = {app.query_one(w).region for w in ("#top", "#log", "#bottom")}
        console = app.console
        towers = app.query_one("#towers", Counted)
        compositor._dirty_regions.update(changed)
        before = towers.renders
        theirs = segments(TEXTUAL_PARTIAL_UPDATE(compositor), console)
        assert towers.renders > before  # Textual's: everything in the changes' box
        compositor._dirty_regions.update(changed)
        before = towers.renders
        ours = segments(_render_partial_update(compositor), console)
        assert towers.renders == before  # ours: the towers did not change
        assert ours == theirs
        # A change that crosses the towers: their rows that changed, the same lines.
        crossing = Region(0, 5, 60, 3)
        compositor._dirty_regions.add(crossing)
        theirs = segments(TEXTUAL_PARTIAL_UPDATE(compositor), console)
        compositor._dirty_regions.add(crossing)
        assert segments(_render_partial_update(compositor), console) == theirs
        assert _render_partial_update(compositor) is None  # nothing changed: nothing sent


class CountedHorizontal(Horizontal):
    renders = 0

    def render_lines(self, crop: Region) -> list[Strip]:
        self.renders += 1
        return super().render_lines(crop)


class Filled(App[None]):
    """A container its children fill, and one with room left beside them."""

    CSS = """
    #full, #roomy { height: 4; }
    #full > Static { width: 1fr; height: 1fr; }
    #roomy > Static { width: 10; height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        with CountedHorizontal(id="full"):
            yield Counted("towers", id="towers")
            yield Counted("log", id="log")
        with CountedHorizontal(id="roomy"):
            yield Counted("hand", id="hand")


def both_updates(app: App[None], changed: set[Region], counted: tuple[CountedHorizontal, ...]
                 ) -> tuple[str, str, list[int]]:
    """Textual's partial update of ``changed`` and ours, and how many times
    ours rendered each of ``counted``."""
    compositor = app.screen._compositor
    compositor._dirty_regions.update(changed)
    theirs = segments(TEXTUAL_PARTIAL_UPDATE(compositor), app.console)
    before = [widget.renders for widget in counted]
    compositor._dirty_regions.update(changed)
    ours = segments(_render_partial_update(compositor), app.console)
    return theirs, ours, [widget.renders - n for widget, n in zip(counted, before)]


async def test_rows_that_widgets_in_front_fill_render_nothing_behind() -> None:
    app = Filled()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        compositor = app.screen._compositor
        console = app.console
        full = app.query_one("#full", CountedHorizontal)
        roomy = app.query_one("#roomy", CountedHorizontal)
        theirs, ours, renders = both_updates(app, {full.region, roomy.region}, (full, roomy))
        assert ours == theirs
        # Behind its two children, #full shows nowhere: not rendered. #roomy
        # shows to the right of its hand: rendered, on the rows that changed.
        assert renders == [0, 1]



def calls_but_renders(work: Callable[[], Any]) -> int:
    """The Python calls ``work()`` makes outside widgets' ``render_lines``."""
    calls = inside = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal calls, inside
        rendering = frame.f_code.co_name == "render_lines"
        if event == "call":
            if rendering or inside:
                inside += rendering
            else:
                calls += 1
        elif event == "return" and rendering:
            inside -= 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return calls - 1  # work itself


class Rows(App[None]):
    CSS = "Static { height: 1; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            for n in range(20):
                yield Counted(f"row {n}", id=f"row{n}")


async def test_a_partial_update_costs_few_calls_besides_the_renders() -> None:
    # A move changes a few rows of a screen of some 40 widgets: each widget
    # the update looks at costs a call or two, not calls a changed region
    # and row (Region methods, generators), and once every changed cut has
    # its strip the widgets behind are not looked at (the update's own work
    # was 15% of a hosted table's calls per viewer per change).
    app = Rows()
    async with app.run_test(size=(40, 20)) as pilot:
        await pilot.pause()
        compositor = app.screen._compositor
        row = app.query_one("#row0", Static)
        compositor._dirty_regions.add(row.region)
        theirs = segments(TEXTUAL_PARTIAL_UPDATE(compositor), console=app.console)
        compositor._dirty_regions.add(row.region)
        update = None

        def ours() -> None:
            nonlocal update
            update = _render_partial_update(compositor)
        calls = calls_but_renders(ours)
        assert segments(update, app.console) == theirs
        assert calls <= 3 * len(compositor.visible_widgets), calls  # it was 206 for 22


EMPTY_MOVE = re.compile(r"\x1b\[\d+;\d+H(?=\x1b\[\d+;\d+H|\n|$)")
"""A cursor move with nothing drawn after it: Textual's for a piece that
starts where its span ends (shows nothing)."""


class Grid(App[None]):
    """Two boards with a column of their container between them (a table's
    opponents: boards of 23 in a grid of 47), in a column of a screen."""

    CSS = """
    #main { height: 6; }
    #left { width: 21; }
    #left > Static { width: 10; height: 1fr; }
    #right { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        with CountedHorizontal(id="main"):
            with CountedHorizontal(id="left"):
                yield Counted("mine", id="mine")
                yield Counted("theirs", id="theirs")
            yield Counted("log", id="log")


async def test_a_change_renders_only_what_its_spans_send() -> None:
    # A board that changes leaves the other pieces of its rows as they are:
    # neither the container's column beside it nor the screen's other
    # column are sent, so nothing behind them is rendered either.
    app = Grid()
    async with app.run_test(size=(40, 8)) as pilot:
        await pilot.pause()
        counted = (app.query_one("#main", CountedHorizontal),
                   app.query_one("#left", CountedHorizontal))
        theirs, ours, renders = both_updates(app, {app.query_one("#theirs").region}, counted)
        assert renders == [0, 0]
        assert ours == EMPTY_MOVE.sub("", theirs)


def test_cursor_moves_are_made_once_while_upstream_sends_as_it_did() -> None:
    # _Chops replays upstream's render_segments: only while it is that code.
    from textual._compositor import ChopsUpdate

    from fivetowers.compat.checked import source_digest
    assert source_digest(ChopsUpdate.render_segments) == dirty_lines.RENDER_SEGMENTS_SOURCE
    assert dirty_lines._move_to(3, 7) == "\x1b[8;4H"


def test_the_partial_update_is_replaced_only_while_upstream_is_the_code_it_replays() -> None:
    assert dirty_lines.upstream_partial_update_digest() == dirty_lines.PARTIAL_UPDATE_SOURCE
