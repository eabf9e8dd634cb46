"""component_styles_kept: a restyle leaves no virtual nodes to the cyclic
collector, and a widget's component styles are what upstream makes them."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.color import Color
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.widget import Widget

from fivetowers.compat import component_styles
from fivetowers.compat.component_styles import (
    UPSTREAM_SOURCE, component_styles_kept, upstream_process_component_classes,
    upstream_source_digest)
from fivetowers.server.hosted import HostedApp
from fivetowers.ui.key_bar import KeyBar


class Keyed(Widget):
    COMPONENT_CLASSES = {"keyed--plain", "keyed--lit"}
    DEFAULT_CSS = """
    Keyed > .keyed--plain { color: red; }
    Keyed > .keyed--lit { color: green; }
    Keyed.on > .keyed--lit { color: blue; }
    """

    def render(self) -> str:
        return "x"


class Restyled(App[None]):
    def compose(self) -> ComposeResult:
        for _ in range(3):
            yield Keyed()
        yield KeyBar()


def virtual_nodes() -> int:
    return sum(1 for each in gc.get_objects() if type(each) is DOMNode)


async def restyle(app: Restyled, changes: int) -> tuple[int, list[Any]]:
    """Virtual nodes left alive without a collection by ``changes`` restyles
    of every widget (the screen's class: rules unchanged; the widgets' own
    class: the lit component's colour changes), and what each lit looked like."""
    async with app.run_test(size=(30, 6)) as pilot:
        await pilot.pause()
        gc.collect()
        gc.disable()
        try:
            before = virtual_nodes()
            looks = []
            for change in range(changes):
                app.screen.toggle_class("restyled")
                for keyed in app.query(Keyed):
                    keyed.toggle_class("on")
                await pilot.pause()
                looks.append([(k.get_component_styles("keyed--plain").color,
                               k.get_component_styles("keyed--lit").color)
                              for k in app.query(Keyed)])
            return virtual_nodes() - before, looks
        finally:
            gc.enable()


def test_the_code_stood_for_is_textual_s() -> None:
    assert upstream_source_digest() == UPSTREAM_SOURCE, (
        "Textual's Stylesheet._process_component_classes changed: re-read it, "
        "update compat/component_styles.py and its digest")


async def test_restyles_leave_no_virtual_nodes_and_look_as_upstream() -> None:
    assert component_styles_kept()
    left, looks = await restyle(Restyled(), 6)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Stylesheet, "_process_component_classes",
                      upstream_process_component_classes())
        upstream_left, upstream_looks = await restyle(Restyled(), 6)
    assert looks == upstream_looks
    red, green, blue = Color.parse("red"), Color.parse("green"), Color.parse("blue")
    assert looks[0] == [(red, blue)] * 3 and looks[1] == [(red, green)] * 3
    assert upstream_left >= 6 * 3 * 2  # a node per component of each widget at each restyle
    assert left == 0


async def test_unchanged_component_styles_are_the_same_object() -> None:
    assert component_styles_kept()
    app = Restyled()
    async with app.run_test(size=(30, 6)) as pilot:
        await pilot.pause()
        keyed = app.query_one(Keyed)
        kept = keyed._component_styles  # (get_component_styles makes a new merge each call)
        plain, lit = kept["keyed--plain"], kept["keyed--lit"]
        keyed.add_class("on")
        await pilot.pause()
        assert kept["keyed--plain"] is plain
        changed = kept["keyed--lit"]
        assert changed is not lit and changed.color == Color.parse("blue")
        assert changed.node is not None and plain.node is not None  # their virtual nodes alive
        assert keyed.get_component_styles("keyed--plain").color == Color.parse("red")


def test_hosted_apps_install_it() -> None:
    HostedApp()
    assert Stylesheet._process_component_classes is component_styles._process_component_classes


def test_changed_code_is_left_alone(monkeypatch: pytest.MonkeyPatch,
                                    caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(component_styles, "_upstream", None)
    monkeypatch.setattr(component_styles, "UPSTREAM_SOURCE", "0" * 16)
    before = Stylesheet.__dict__["_process_component_classes"]
    assert not component_styles_kept()
    assert Stylesheet.__dict__["_process_component_classes"] is before
    assert "component_styles_kept was read in" in caplog.text
