"""count_parameters_once: a callback's parameter count worked out once per code."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

import pytest
from textual import _callback
from textual.app import App, ComposeResult
from textual.widgets import Static

import fivetowers.compat.callbacks as callbacks
from fivetowers.compat.callbacks import (UPSTREAM_SOURCE, count_parameters_once, counted_kinds,
                                         upstream_count_parameters, upstream_source_digest)


def closure(extra: int) -> Callable[..., Any]:
    def made(a: int, b: int = 0, *rest: int, c: int, **more: int) -> int:
        return a + extra
    return made


class Awaitable:
    def __call__(self, a: int, b: int) -> None:
        pass


class Signed(Awaitable):
    __signature__ = inspect.Signature()


def wrapped(a: int, b: int, c: int) -> None:
    pass


@functools.wraps(wrapped)
def wrapper(*args: Any) -> None:
    pass


CALLABLES: dict[str, Callable[..., Any]] = {
    "closure": closure(1), "closure again": closure(2), "lambda": lambda: None,
    "lambda x": lambda x: x, "callable object": Awaitable(), "signed object": Signed(),
    "wraps": wrapper, "partial": functools.partial(wrapped, 1), "builtin": print,
    "class": Awaitable, "bound method": Awaitable().__call__,
    "partial of a bound method": functools.partial(Awaitable().__call__, 1),
    "signed bound method": Signed().__call__, "bound builtin": [].append}


def signatures_run(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    runs: list[Any] = []
    signature = _callback.signature

    def counted(func: Any) -> inspect.Signature:
        runs.append(func)
        return signature(func)

    monkeypatch.setattr(_callback, "signature", counted)
    return runs


def test_the_counting_replayed_is_textual_s() -> None:
    assert upstream_source_digest() == UPSTREAM_SOURCE, (
        "Textual's count_parameters changed: re-read it, update compat/callbacks.py "
        "and its digest")


@pytest.mark.parametrize("func", CALLABLES.values(), ids=CALLABLES.keys())
def test_counts_are_upstream_s(func: Callable[..., Any]) -> None:
    assert count_parameters_once()
    expected = upstream_count_parameters()(func)
    assert _callback._count_parameters(func) == expected
    assert _callback._count_parameters(func) == expected


def test_a_fresh_closure_or_callable_object_is_counted_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert count_parameters_once()
    runs = signatures_run(monkeypatch)

    def fresh(extra: int) -> Callable[[int], int]:
        return lambda x: x + extra

    class Awaited:  # a class of its own: counted by no test before
        def __call__(self, a: int, b: int) -> None:
            pass

    assert [_callback.count_parameters(fresh(n)) for n in range(5)] == [1] * 5
    assert [_callback.count_parameters(Awaited()) for _ in range(5)] == [2] * 5
    assert [_callback.count_parameters(functools.partial(Awaited().__call__, 1))
            for _ in range(5)] == [1] * 5
    assert len(runs) == 3, "the same code, class or method's function again"
    # What the code alone does not say goes to upstream each time.
    for _ in range(2):
        assert _callback.count_parameters(Signed()) == 0
        assert _callback.count_parameters(functools.partial(wrapped, 1, 2)) == 1
    assert len(runs) == 6  # Signed twice; the partial's function (plain) once


async def test_an_app_calls_its_callbacks_as_upstream_does() -> None:
    assert count_parameters_once()
    seen: list[Any] = []

    class Shown(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("x")

        def on_mount(self) -> None:
            self.call_later(lambda: seen.append("none"))
            self.call_later(lambda *args: seen.append(args))
            self.call_after_refresh(functools.partial(seen.append, "partial"))

    app = Shown()
    async with app.run_test() as pilot:
        await pilot.pause()
    assert seen == ["none", (), "partial"]
    assert counted_kinds() > 0


def test_a_changed_count_is_left_alone(monkeypatch: pytest.MonkeyPatch,
                                       caplog: pytest.LogCaptureFixture) -> None:
    def changed(func: Callable[..., Any]) -> int:
        return 0

    monkeypatch.setattr(callbacks, "_upstream", None)
    monkeypatch.setattr(_callback, "_count_parameters", changed)
    assert not count_parameters_once()
    assert _callback._count_parameters is changed
    assert "callback invocation changed" in caplog.text
