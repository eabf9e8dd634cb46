"""compat.sized_once: a layout's own sizing of widgets asks for no second layout."""

from __future__ import annotations

from typing import Any

import pytest
from textual._compositor import Compositor
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from fivetowers.compat.sized_once import SizedOnceScreen, upstream_unchanged


class Panels(Screen[None]):
    CSS = "#grows { height: auto; } #scroll { height: 5; } .row { height: 1; }"

    def compose(self) -> ComposeResult:
        yield Static("one line", id="grows")
        yield Static("below", id="below")
        with VerticalScroll(id="scroll"):
            yield Static("row", classes="row")


class SizedOnce(SizedOnceScreen, Panels):
    pass


class Host(App[None]):
    def __init__(self, screen: Screen[None]) -> None:
        super().__init__()
        self.first = screen

    def on_mount(self) -> None:
        self.push_screen(self.first)


def spy_reflows(monkeypatch: pytest.MonkeyPatch) -> list[Widget]:
    """The root of every layout (``Compositor.reflow``) from now on."""
    reflowed: list[Widget] = []
    reflow = Compositor.reflow

    def spied(self: Compositor, parent: Widget, size: Any) -> Any:
        reflowed.append(parent)
        return reflow(self, parent, size)
    monkeypatch.setattr(Compositor, "reflow", spied)
    return reflowed


async def grown(screen: Screen[None], monkeypatch: pytest.MonkeyPatch
                ) -> tuple[int, dict[str, Region], str]:
    """Layouts for a panel growing by two lines, then the regions and what shows."""
    app = Host(screen)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        reflowed = spy_reflows(monkeypatch)
        screen.query_one("#grows", Static).update("one\ntwo\nthree")
        for _ in range(5):
            await pilot.pause()
        layouts = sum(1 for root in reflowed if root is screen)
        monkeypatch.undo()
        regions = {str(w.id): w.region for w in screen.query("#grows, #below, #scroll")}
        return layouts, regions, app.export_screenshot()


async def test_a_grown_widget_is_laid_out_once_and_looks_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert upstream_unchanged()
    plain = await grown(Panels(), monkeypatch)
    once = await grown(SizedOnce(), monkeypatch)
    assert plain[0] == 2  # Textual: the layout, then one more its sizing asked for
    assert once[0] == 1
    assert once[1] == plain[1] and once[2] == plain[2]


async def scrolled(screen: Screen[None]) -> tuple[bool, Region, str]:
    """A scroll box filled past its height: its scrollbar, a row's place, what shows."""
    app = Host(screen)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        box = screen.query_one("#scroll", VerticalScroll)
        await box.mount_all([Static(f"row {n}", classes="row") for n in range(8)])
        for _ in range(5):
            await pilot.pause()
        return box.show_vertical_scrollbar, box.query(Static).last().region, \
            app.export_screenshot()


async def test_a_scrollbar_that_comes_with_a_layout_still_gets_its_own() -> None:
    plain = await scrolled(Panels())
    once = await scrolled(SizedOnce())
    assert plain[0] and once == plain
