"""fresh_styles_at_once: a new node's matched rules stored in one step, as upstream stores them."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.css.styles import Styles
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.layouts.factory import get_layout
from textual.widget import Widget
from textual.widgets import DataTable, Static

import fivetowers.compat.styles as compat_styles
from fivetowers.compat.styles import (UPSTREAM_SOURCE, copied_rule_maps, fresh_styles_at_once,
                                      upstream_replace_rules, upstream_source_digest)
from fivetowers.server.hosted import HostedApp


class Styled(App[None]):
    CSS = """
    Static { text-style: bold; padding: 1 2; max-height: 50%; link-style: underline; }
    #boxed { layout: horizontal; border: round red; display: block; }
    .pointed { pointer: text; }
    """

    def compose(self) -> ComposeResult:
        yield Static("one")
        yield Static("two")
        with Vertical(id="boxed"):
            yield Static("three", classes="pointed")
            yield DataTable()
        yield Static("four", classes="pointed")


def look(node: DOMNode) -> tuple[Any, ...]:
    """What styling left in a node's base styles, comparable across nodes."""
    base = node.styles.base
    rules = {name: (type(value), value.name) if hasattr(value, "arrange") else value
             for name, value in base._rules.items()}
    components = {name: look_styles(styles.base)
                  for name, styles in node._component_styles.items()}
    return rules, attributes(base), components


def look_styles(styles: Styles) -> tuple[Any, ...]:
    return dict(styles._rules), attributes(styles)


def attributes(styles: Styles) -> dict[str, Any]:
    """The styles' own attributes, less its node and its rules' own lookups."""
    assert styles.get_rule.__self__ is styles._rules  # type: ignore[attr-defined]
    return {name: value for name, value in vars(styles).items()
            if name not in ("node", "_rules", "get_rule", "has_rule")}


async def styled_looks() -> list[tuple[Any, ...]]:
    app = Styled()
    async with app.run_test():
        return [(type(node).__name__, look(node)) for node in app.screen.walk_children()]


def test_the_code_stood_for_is_textual_s() -> None:
    assert upstream_source_digest() == UPSTREAM_SOURCE, (
        "Textual's replace_rules, Styles.set_rule/refresh or a style property changed: "
        "re-read them, update compat/styles.py and its digest")


async def test_nodes_styled_at_once_look_as_upstream_styles_them() -> None:
    assert fresh_styles_at_once()
    fast = await styled_looks()
    fast_again = await styled_looks()  # every map known now: all copied
    assert copied_rule_maps() > 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Stylesheet, "replace_rules", upstream_replace_rules())
        upstream = await styled_looks()
    assert fast == upstream == fast_again
    assert len(upstream) == 6


def test_a_fresh_node_gets_a_known_map_without_a_descriptor_call(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert fresh_styles_at_once()
    calls: list[str] = []
    set_rule = Styles.set_rule

    def counted(self: Styles, rule: str, value: object) -> bool:
        calls.append(rule)
        return set_rule(self, rule, value)

    monkeypatch.setattr(Styles, "set_rule", counted)
    rules: Any = {"text_style": "bold", "layout": get_layout("horizontal"), "display": "block",
                  "auto_color": True, "color": None}
    first, second = Widget(), Widget()
    Stylesheet.replace_rules(first, rules)  # upstream's way, the outcome kept
    assert calls
    calls.clear()
    Stylesheet.replace_rules(second, rules)
    assert calls == []  # stored at once
    assert look(first) == look(second)
    # A layout is each node's own, as the layout property makes it.
    assert first.styles.base._rules["layout"] is not second.styles.base._rules["layout"]
    assert first.styles.base._updates == second.styles.base._updates >= 3  # as many counted


def test_styled_animated_and_pointer_rules_go_upstream(monkeypatch: pytest.MonkeyPatch) -> None:
    assert fresh_styles_at_once()
    seen: list[DOMNode] = []
    upstream = upstream_replace_rules()

    def counted(node: DOMNode, rules: Any, animate: bool = False) -> None:
        seen.append(node)
        # A pointer asks the screen, an animation the App: there is none here.
        if "pointer" not in rules and not animate:
            upstream(node, rules, animate=animate)

    monkeypatch.setattr(compat_styles, "_upstream", counted)
    plain: Any = {"text_style": "italic"}
    pointed: Any = {"pointer": "text"}
    nodes = [DOMNode() for _ in range(5)]
    Stylesheet.replace_rules(nodes[0], plain)
    Stylesheet.replace_rules(nodes[1], plain)  # copied
    Stylesheet.replace_rules(nodes[1], plain)  # styled already
    Stylesheet.replace_rules(nodes[2], plain, animate=True)
    Stylesheet.replace_rules(nodes[3], pointed)
    Stylesheet.replace_rules(nodes[4], pointed)  # a pointer asks its screen: never copied
    assert seen == [nodes[0], nodes[1], nodes[2], nodes[3], nodes[4]]


def test_hosted_apps_install_it() -> None:
    HostedApp()
    assert Stylesheet.replace_rules.__func__ is compat_styles._replace_rules  # type: ignore[attr-defined]


def test_changed_code_is_left_alone(monkeypatch: pytest.MonkeyPatch,
                                    caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(compat_styles, "_upstream", None)
    monkeypatch.setattr(compat_styles, "UPSTREAM_SOURCE", "0" * 16)
    before = Stylesheet.__dict__["replace_rules"]
    assert not fresh_styles_at_once()
    assert Stylesheet.__dict__["replace_rules"] is before
    assert "style properties changed" in caplog.text
