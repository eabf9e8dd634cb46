"""The shared render cache: bounded, and what it drops is freed at once."""

from __future__ import annotations

import gc
from collections import OrderedDict
from weakref import WeakSet

from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.widgets import Static

import fivetowers.ui.shared_lines as shared
from fivetowers.compat.textual import STRIP_CACHES, UPSTREAM_DIVIDE
from fivetowers.games.five_towers.tui.widgets.status_bar import StatusBar


def live_strips() -> int:
    return sum(isinstance(obj, Strip) for obj in gc.get_objects())


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield Static("filler")


async def test_dropped_renders_are_freed_without_a_full_collection(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from fivetowers.games.five_towers.rules import Game, Variant
    from rich.text import Text

    monkeypatch.setattr(shared, "KEPT", 32)  # a small cache: quick to fill
    monkeypatch.setattr(shared, "PER_APP", 1)
    # This test's App alone (others still alive in this process would count).
    monkeypatch.setattr(shared, "_lines", OrderedDict())
    monkeypatch.setattr(shared, "_apps", WeakSet())
    # Upstream's divide, which makes every drawn Strip a cycle, even where a
    # server of this process has installed divide_without_cycles.
    monkeypatch.setattr(Strip, "divide", UPSTREAM_DIVIDE)
    game = Game(["A", "B"], Variant.BASE, seed=1)
    app = Host()
    async with app.run_test(size=(60, 5)) as pilot:
        bar = app.query_one(StatusBar)
        first_key = None
        old: list[Strip] = []
        gc.collect()
        gc.disable()  # only reference counting may free what the cache drops
        try:
            for i in range(2 * shared.KEPT + 40):
                bar.show(game.view(0), Text(f"turn {i}"), "base")
                await pilot.pause()
                if i == 0:
                    first_key = next(reversed(shared._lines))
                    old = list(shared._lines[first_key])
                    assert any(strip._divide_cache for strip in old)  # drawn: cycles
                if i == shared.KEPT + 20:
                    middle = live_strips()
            assert first_key not in shared._lines  # dropped long ago
            assert len(shared._lines) <= max(shared.KEPT, shared.PER_APP * len(shared._apps))
            # Dropped lines hold no cycle through their caches any more...
            assert all(not getattr(strip, name) for strip in old
                       for name in STRIP_CACHES)
            # ...so Strips stop piling up even with the cyclic collector off.
            assert live_strips() < middle + 50
        finally:
            gc.enable()
