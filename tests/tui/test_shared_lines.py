"""The shared render cache: bounded, and what it drops is freed at once."""

from __future__ import annotations

import gc
from collections import Counter, OrderedDict
from weakref import WeakSet

from textual.app import App, ComposeResult
from textual.geometry import Region
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
    # App of this process has installed divide_without_cycles (every App does).
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


class Sign(Static):
    """A widget whose lines every screen showing ``text`` shares."""

    renders: Counter[str] = Counter()

    def __init__(self, text: str, **kwargs: object) -> None:
        super().__init__(text, **kwargs)  # type: ignore[arg-type]
        self.text = text

    def render_lines(self, crop: Region) -> list[Strip]:
        return shared.shared_lines(self, self.text, crop, self._count)

    def _count(self, crop: Region) -> list[Strip]:
        Sign.renders[self.text] += 1
        return super().render_lines(crop)


class Row(App[None]):
    """Signs side by side; ``first`` says which comes first among its siblings."""

    CSS = "Sign { width: 12; height: 3; border: round white; }"

    def __init__(self, first: str, second: str) -> None:
        super().__init__()
        self.signs = (first, second)

    def compose(self) -> ComposeResult:
        for text in self.signs:
            yield Sign(text, id=text)


class Striped(Row):
    CSS = Row.CSS + "Sign:odd { color: red; }"


async def _render_in(app: Row, crops: list[Region]) -> list[list[Strip]]:
    async with app.run_test(size=(30, 8)) as pilot:
        await pilot.pause()
        sign = app.query_one("#ann", Sign)
        return [sign.render_lines(crop) for crop in crops]


async def test_screens_share_a_render_wherever_the_widget_sits_and_whatever_rows_they_ask(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(shared, "_lines", OrderedDict())
    Sign.renders.clear()
    whole, band = Region(0, 0, 12, 3), Region(0, 1, 12, 1)
    first = await _render_in(Row("ann", "bob"), [whole])
    # ann's sign is the second child here (first-child/odd differ), and this
    # screen repaints only its middle row (compat/dirty_lines.py).
    again = await _render_in(Row("bob", "ann"), [band, whole])
    assert Sign.renders["ann"] == 1
    assert again[0] == first[0][1:2] and again[1] == first[0]
    # A strip cut from the middle, as a screen clipping the widget asks.
    (part,) = await _render_in(Row("ann", "bob"), [Region(2, 0, 5, 3)])
    assert [line.text for line in part] == [line.text[2:7] for line in first[0]]


async def test_a_rule_on_odd_or_even_keeps_renders_apart(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(shared, "_lines", OrderedDict())
    Sign.renders.clear()
    await _render_in(Striped("ann", "bob"), [Region(0, 0, 12, 3)])
    await _render_in(Striped("bob", "ann"), [Region(0, 0, 12, 3)])
    assert Sign.renders["ann"] == 2  # ann is odd in one, even in the other: it looks different


class Knob(Sign):
    can_focus = True


class Lit(App[None]):
    CSS = "Knob { width: 12; height: 3; } Knob.lit { color: red; } Knob:focus { color: blue; }"

    def compose(self) -> ComposeResult:
        yield Knob("ann", id="ann")
        yield Knob("bob", id="bob")


async def test_a_widgets_look_key_is_worked_out_once_until_it_is_restyled(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    worked_out: list[object] = []
    upstream = shared.look_pseudo_classes

    def counting(widget: object) -> frozenset[str]:
        worked_out.append(widget)
        return upstream(widget)  # type: ignore[arg-type]

    monkeypatch.setattr(shared, "look_pseudo_classes", counting)
    app = Lit()
    async with app.run_test(size=(30, 8)) as pilot:
        await pilot.pause()
        sign = app.query_one("#ann", Knob)
        plain = shared.look_key(sign)
        worked_out.clear()
        assert [shared.look_key(sign) for _ in range(3)] == [plain] * 3
        assert worked_out == []  # kept: not worked out again
        sign.add_class("lit")
        await pilot.pause()
        lit = shared.look_key(sign)
        assert lit != plain and worked_out == [sign]  # a class: restyled, a new key
        assert sign.has_focus  # the first focusable widget
        app.query_one("#bob", Knob).focus()
        await pilot.pause()
        blurred = shared.look_key(sign)
        assert blurred not in (plain, lit)  # focus went: restyled, a new key
        sign.remove_class("lit")
        sign.focus()
        await pilot.pause()
        assert shared.look_key(sign) == plain  # the same look, the same key again


class Boards(App[None]):
    CSS = ".board { border: round white; padding: 0 1; height: 8; }"

    def compose(self) -> ComposeResult:
        from fivetowers.games.five_towers.tui.widgets.tower_board import TowerBoard
        yield TowerBoard(large=False, id="board")


async def test_a_board_whose_border_changed_keeps_its_towers_lines(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # The turn passing to a seat (or leaving it) changes its board's border
    # and title on every screen: the towers inside are drawn once, not again.
    from fivetowers.games.five_towers.rules import Game, Variant
    from fivetowers.games.five_towers.tui.widgets.tower_board import TowerBoard

    monkeypatch.setattr(shared, "_lines", OrderedDict())
    monkeypatch.setattr(shared, "_contents", OrderedDict())
    renders = Counter[str]()
    upstream = TowerBoard.render

    def counted(self: TowerBoard) -> object:
        renders[str(self.id)] += 1
        return upstream(self)

    monkeypatch.setattr(TowerBoard, "render", counted)
    seat = Game(["A", "B"], Variant.BASE, seed=1).view(0).seats[1]
    app = Boards()
    async with app.run_test(size=(30, 10)) as pilot:
        board = app.query_one(TowerBoard)
        board.show(seat, "B", None, False, False)
        await pilot.pause()
        idle = app.screen._compositor.render_update(full=True)  # what it shows, idle
        drawn = renders["board"]
        before = shared._lines.copy()
        for acting, note in ((True, ""), (False, "bid≤3"), (False, "")):
            board.show(seat, "B", None, False, acting, note)
            await pilot.pause()
        assert len(shared._lines) == len(before) + 2  # the whole board drawn again, twice
        assert renders["board"] == drawn  # its towers: not again
        again = app.screen._compositor.render_update(full=True)
        console = app.console
        assert again.render_segments(console) == idle.render_segments(console)
