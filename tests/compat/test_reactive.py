"""fast_reactive_reads: a reactive that has its value is read without more questions."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.reactive import Reactive, ReactiveError, reactive, var
from textual.widget import Widget

import fivetowers.compat.reactive as compat_reactive
from fivetowers.compat.reactive import (UPSTREAM_SOURCES, fast_reactive_reads, reactive_kinds,
                                        upstream_reactive_get, upstream_sources_digest)
from tests.compat.calls import python_calls


class Counter(Widget):
    count = reactive(0)
    made = var(list)  # a callable default: made at the first read
    doubled = reactive(0)
    seen: list[tuple[int, int]]

    def __init__(self) -> None:
        super().__init__()
        self.computed = 0
        self.seen = []

    def compute_doubled(self) -> int:
        self.computed += 1
        return self.count * 2

    def watch_doubled(self, old: int, new: int) -> None:
        self.seen.append((old, new))


class Named(Counter):
    """A node whose ``id`` is its own: every read goes to upstream."""

    @property
    def id(self) -> str | None:  # type: ignore[override]
        return "named"


class Unready(Widget):
    count = reactive(0)

    def __init__(self) -> None:  # no super().__init__(): upstream says so on a read
        pass




def test_the_read_stood_for_is_textual_s() -> None:
    assert upstream_sources_digest() == UPSTREAM_SOURCES, (
        "Textual's Reactive.__get__ or DOMNode.id changed: re-read them, update "
        "compat/reactive.py and its digest")


def test_a_stored_value_is_read_in_one_call() -> None:
    assert fast_reactive_reads()
    counter = Counter()
    assert counter.count == 0  # the first read initialises, upstream's way
    counter.count = 3
    assert python_calls(lambda: counter.count) == 1
    assert counter.has_focus is False
    assert python_calls(lambda: counter.has_focus) == 1
    # Upstream asks the id property and more each time.
    assert python_calls(lambda: upstream_reactive_get()(Counter.count, counter, Counter)) > 2


def test_reads_answer_what_upstream_answers() -> None:
    assert fast_reactive_reads()
    upstream = upstream_reactive_get()
    assert isinstance(Counter.count, Reactive)  # through the class: the descriptor
    assert Reactive.__get__ is not upstream

    def reads(counter: Counter) -> list[Any]:
        made = counter.made
        made.append(1)
        counter.count = 5
        return [counter.count, counter.made, counter.made is made, counter.doubled,
                counter.doubled, counter.computed, counter.seen]

    fast = reads(Counter())
    for kind in (Counter, Named):
        node = kind()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Reactive, "__get__", upstream)
            assert reads(node) == fast
    assert fast[:5] == [5, [1], True, 10, 10] and fast[5] >= 2  # computed at each read
    named = Named()
    named.count = 2
    assert python_calls(lambda: named.count) > 2  # its own id: upstream's read
    with pytest.raises(ReactiveError):
        Unready().count


async def test_reads_in_a_running_app_answer_as_upstream() -> None:
    assert fast_reactive_reads()

    class Shown(App[None]):
        def compose(self) -> ComposeResult:
            yield Counter()

    async def run() -> list[Any]:
        app = Shown()
        async with app.run_test() as pilot:
            counter = app.query_one(Counter)
            counter.count = 4
            await pilot.pause()
            return [counter.count, counter.doubled, counter.seen, app.query_one(Counter).disabled,
                    app.dark if hasattr(app, "dark") else None, app.screen.size]

    fast = await run()
    kinds = reactive_kinds()
    assert kinds > 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Reactive, "__get__", upstream_reactive_get())
        assert await run() == fast


def test_a_changed_read_is_left_alone(monkeypatch: pytest.MonkeyPatch,
                                      caplog: pytest.LogCaptureFixture) -> None:
    def changed(self: Reactive[Any], obj: Any, obj_type: Any = None) -> Any:
        return None

    monkeypatch.setattr(compat_reactive, "_upstream", None)
    monkeypatch.setattr(Reactive, "__get__", changed)
    assert not fast_reactive_reads()
    assert Reactive.__get__ is changed
    assert "reactive read changed" in caplog.text
