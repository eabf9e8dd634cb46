"""share_dispatch_plans: each kind of message finds its handlers once per kind of node."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from textual import on
from textual._context import active_message_pump
from textual.app import App, ComposeResult
from textual.message import Message
from textual.message_pump import MessagePump
from textual.widget import Widget
from textual.widgets import Button

import fivetowers.compat.dispatch as dispatch
from fivetowers.compat.dispatch import (UPSTREAM_SOURCE, dispatch_plans, share_dispatch_plans,
                                        upstream_get_dispatch_methods,
                                        upstream_source_digest)


class Custom(Message):
    pass


class MoreCustom(Custom):
    pass


class Base(Widget):
    def on_custom(self, message: Custom) -> None:
        pass

    @on(Button.Pressed, "#ok")
    def ok_pressed(self, message: Button.Pressed) -> None:
        pass


class Child(Base):
    @on(Custom)
    def first(self, message: Custom) -> None:
        pass

    def _on_custom(self, message: Custom) -> None:  # the private name wins upstream
        message.prevent_default()

    def on_custom(self, message: Custom) -> None:
        pass

    @on(Button.Pressed)
    def any_pressed(self, message: Button.Pressed) -> None:
        pass

    def on_more_custom(self, message: MoreCustom) -> None:
        pass


class GrandChild(Child):
    ok_pressed = Base.ok_pressed  # the same decorated function, twice on the walk


def walk(method: Callable[..., Any], node: MessagePump, message: Message,
         prevent_after: int | None = None) -> list[tuple[type, Any]]:
    """What a dispatch walk yields; the handler at ``prevent_after`` prevents the default."""
    found = []
    for i, (cls, handler) in enumerate(method(node, message.handler_name, message)):
        assert handler.__self__ is node
        found.append((cls, handler.__func__))
        if i == prevent_after:
            message.prevent_default()
    return found


def test_the_dispatch_replayed_is_textual_s() -> None:
    assert upstream_source_digest() == UPSTREAM_SOURCE, (
        "Textual's MessagePump._get_dispatch_methods changed: re-read it, update "
        "compat/dispatch.py and its digest")


@pytest.mark.parametrize("prevent_after", [None, 0, 1, 2])
async def test_plans_find_what_upstream_finds(prevent_after: int | None) -> None:
    assert share_dispatch_plans()
    upstream = upstream_get_dispatch_methods()
    planned = MessagePump._get_dispatch_methods
    assert planned is not upstream

    class Shown(App[None]):
        def compose(self) -> ComposeResult:
            yield GrandChild(Button("ok", id="ok"), Button("no", id="no"))
            yield Child()

    app = Shown()
    async with app.run_test():
        ok, no = app.query_one("#ok", Button), app.query_one("#no", Button)
        token = active_message_pump.set(app)  # messages made in a handler have a sender
        try:
            messages = [Custom(), MoreCustom(), Button.Pressed(ok), Button.Pressed(no)]
        finally:
            active_message_pump.reset(token)
        messages += [Custom(), Button.Pressed(ok)]  # no sender: selectors are not tried
        walks = 0
        for node in [app.query_one(GrandChild), app.query_one(Child), ok, app]:
            for message in messages:
                expected = walk(upstream, node, message, prevent_after)
                message._no_default_action = False
                assert walk(planned, node, message, prevent_after) == expected
                message._no_default_action = False
                walks += len(expected)
        assert walks > 15
        grand = app.query_one(GrandChild)
        assert [cls for cls, _ in walk(planned, grand, messages[2])] == [
            GrandChild, Child]  # Base's ok_pressed is GrandChild's, found once
        assert [f.__name__ for _, f in walk(planned, grand, messages[0], 1)] == [
            "first", "_on_custom"]  # the private name wins; it prevented Base's


async def test_each_kind_of_node_and_message_is_planned_once() -> None:
    assert share_dispatch_plans()
    node = Child()
    walk(MessagePump._get_dispatch_methods, node, MoreCustom())
    planned = dispatch_plans()
    for other in (Child(), Child()):
        walk(MessagePump._get_dispatch_methods, other, MoreCustom())
    assert dispatch_plans() == planned, "another node of a kind planned its walk again"
    walk(MessagePump._get_dispatch_methods, Base(), MoreCustom())
    assert dispatch_plans() == planned + 1


def test_a_changed_dispatch_is_left_alone(monkeypatch: pytest.MonkeyPatch,
                                          caplog: pytest.LogCaptureFixture) -> None:
    def changed(self: MessagePump, method_name: str, message: Message) -> Any:
        return iter(())

    monkeypatch.setattr(dispatch, "_upstream", None)
    monkeypatch.setattr(MessagePump, "_get_dispatch_methods", changed)
    assert not share_dispatch_plans()
    assert MessagePump._get_dispatch_methods is changed
    assert "dispatch changed" in caplog.text
