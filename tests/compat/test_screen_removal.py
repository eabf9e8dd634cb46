"""compat.screen_removal: a removed screen does not have the current one laid out again."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from fivetowers.compat.screen_removal import QuietScreenRemoval


class Opaque(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("on top")


class Base(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("under", id="under")


class Plain(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Base())


class Quiet(QuietScreenRemoval, Plain):
    pass


async def _layouts_after_pop(app: App[None], monkeypatch: pytest.MonkeyPatch
                             ) -> tuple[int, str]:
    """Layouts the screen under made once the one over it was popped and
    removed; and what the screen then shows."""
    layouts: list[Screen[Any]] = []
    refresh_layout = Screen._refresh_layout

    def counting(screen: Screen[Any], *args: Any, **kwargs: Any) -> None:
        layouts.append(screen)
        refresh_layout(screen, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counting)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        base = app.screen
        await app.push_screen(Opaque())
        await pilot.pause()
        layouts.clear()
        await app.pop_screen()
        for _ in range(4):
            await pilot.pause()
        assert app.screen is base
        shown = app.export_screenshot()
        return sum(screen is base for screen in layouts), shown


async def test_textual_still_lays_out_the_screen_shown_when_one_is_removed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    layouts, shown = await _layouts_after_pop(Plain(), monkeypatch)
    assert layouts > 0, "re-check compat/screen_removal.py: QuietScreenRemoval (Textual stopped)"
    assert "under" in shown


async def test_a_removed_screen_does_not_lay_out_the_one_shown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    layouts, shown = await _layouts_after_pop(Quiet(), monkeypatch)
    assert layouts == 0  # its ScreenResume redraws it: nothing moved
    assert "under" in shown and "on top" not in shown


async def test_a_changed_upstream_prune_is_left_to_do_its_work(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Another Textual's ``App._prune`` may do more for the App than refresh
    it: the screen shown is then laid out as upstream does."""
    from fivetowers.compat import screen_removal
    monkeypatch.setattr(screen_removal, "UPSTREAM_SOURCE", "0" * 16)
    layouts, shown = await _layouts_after_pop(Quiet(), monkeypatch)
    assert layouts > 0
    assert "under" in shown
