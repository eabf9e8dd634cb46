"""compat.freed_screens: a left screen is freed by reference counting, and
a late call on it is harmless."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any, Iterator

import pytest
from textual._compositor import Compositor
from textual import events
from textual.app import App, ComposeResult
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import DataTable, Input, OptionList, Static
from textual.worker import WorkerCancelled

from fivetowers.compat.freed_screens import arrange_without_cycles, freed_when_removed


class Left(Screen[None]):
    """A screen with what the table screens have: component classes (their
    virtual nodes), queried widgets, a layout, a timer."""

    def compose(self) -> ComposeResult:
        yield Static("left", id="words")
        yield OptionList("one", "two")
        yield DataTable()
        yield Input()

    def on_mount(self) -> None:
        self.query_one("#words", Static).update("drawn")
        self.query_one(DataTable).add_columns("a", "b")
        self.set_interval(10, self.refresh)


class Working(Left):
    """A screen whose workers ran (one finished, one cancelled as it left),
    as a table screen's ``fetch_hint``."""

    def on_mount(self) -> None:
        super().on_mount()
        self.run_worker(self.quick(), group="done")
        self.run_worker(self.forever(), group="left")

    async def quick(self) -> int:
        return 1

    async def forever(self) -> None:
        await asyncio.Event().wait()


class Dialog(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield OptionList("yes", "no")


class Home(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("home")


class Plain(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Home())


@pytest.fixture
def no_collections() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def _left(screen: Screen[Any]) -> tuple[weakref.ref[Screen[Any]], list[weakref.ref[Widget]]]:
    """Show ``screen`` over the home screen, then pop it; weak references to
    it and its widgets once it is removed."""
    app = Plain()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await app.push_screen(screen)
        await pilot.pause()
        widgets = [weakref.ref(widget) for widget in screen.walk_children(Widget)]
        left = weakref.ref(screen)
        del screen
        await app.pop_screen()
        for _ in range(4):
            await pilot.pause()
        return left, widgets


@pytest.mark.parametrize("make", [Left, Dialog, Working], ids=["screen", "dialog", "workers"])
async def test_a_left_screen_is_freed_without_a_collection(make: type[Screen[Any]],
                                                           no_collections: None) -> None:
    freed_when_removed()
    arrange_without_cycles()
    left, widgets = await _left(make())
    assert left() is None
    # (Textual's DataTable keeps its last few in a class-wide lru_cache: not a cycle)
    assert [type(w()).__name__ for w in widgets
            if w() is not None and not isinstance(w(), DataTable)] == []


async def test_textual_still_leaves_a_left_screen_to_the_collector(
        monkeypatch: pytest.MonkeyPatch, no_collections: None) -> None:
    freed_when_removed()
    arrange_without_cycles()
    monkeypatch.setattr(Widget, "_message_loop_exit",
                        getattr(Widget._message_loop_exit, "_upstream"))
    monkeypatch.setattr(Compositor, "_arrange_root", getattr(Compositor._arrange_root, "_upstream"))
    left, _ = await _left(Left())
    assert left() is not None, (
        "Textual frees a left screen without the cyclic collector: retire "
        "compat/freed_screens.py (freed_when_removed, arrange_without_cycles)")


async def test_a_late_call_on_a_left_screen_is_harmless() -> None:
    freed_when_removed()
    app = Plain()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        screen = Left()
        await app.push_screen(screen)
        await pilot.pause()
        words = screen.query_one("#words", Static)
        await app.pop_screen()
        for _ in range(4):
            await pilot.pause()
        # What a late callback (a table's listener, a hint arriving) may do.
        words.update("late")
        words.refresh(layout=True)
        words.styles.refresh(layout=True, parent=True)
        words.styles.background = "red"
        screen.refresh(layout=True)
        screen.post_message(events.Show())
        screen.call_later(screen.refresh)
        screen.set_class(True, "late")
        assert screen.query("#words").results() is not None
        await pilot.pause()
        assert isinstance(app.screen, Home)
        app.screen.refresh(layout=True)
        await pilot.pause()


def test_another_arrange_root_is_left_as_upstream_s(monkeypatch: pytest.MonkeyPatch) -> None:
    from fivetowers.compat import freed_screens

    arrange_without_cycles()
    upstream = getattr(Compositor._arrange_root, "_upstream")
    monkeypatch.setattr(Compositor, "_arrange_root", upstream)
    monkeypatch.setattr(freed_screens, "ARRANGE_SOURCE", "0" * 16)
    arrange_without_cycles()
    assert Compositor._arrange_root is upstream


async def test_internals_textual_no_longer_has_leave_a_removal_as_upstream_s(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from fivetowers.compat import freed_screens

    def renamed(widget: Widget) -> list[Any]:
        raise AttributeError("'Left' object has no attribute '_component_styles'")

    freed_when_removed()
    monkeypatch.setattr(freed_screens, "held_nodes", renamed)
    monkeypatch.setattr(freed_screens, "_warned", [])
    app = Plain()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await app.push_screen(Left())
        await pilot.pause()
        await app.pop_screen()
        for _ in range(4):
            await pilot.pause()
        assert isinstance(app.screen, Home)  # removed as upstream removes it, no error
    warnings = [r.getMessage() for r in caplog.records if "freed_when_removed" in r.getMessage()]
    assert len(warnings) == 1 and "_component_styles" in warnings[0]  # once, not a widget


async def test_a_worker_cancelled_before_it_ran_waits_as_cancelled_and_is_freed(
        no_collections: None) -> None:
    # Its task cancelled before its first step: Textual never set its state
    # (RUNNING still), and its wait learns of the cancellation from the task.
    freed_when_removed()
    app = Plain()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        worker = app.run_worker(asyncio.Event().wait)
        worker.cancel()
        for _ in range(4):
            await pilot.pause()
        assert worker not in app.workers  # finished and forgotten (let go of)
        with pytest.raises(WorkerCancelled):
            await worker.wait()
        gone = weakref.ref(worker)
        del worker
        assert gone() is None  # (the run its task never started held it)
