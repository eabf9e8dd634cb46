"""until_restyled: what it relies on (Textual empties a widget's visual-style
cache each time it styles the widget) and that a kept value goes then."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from fivetowers.compat.restyle_memo import until_restyled


class Shown(App[None]):
    CSS = "Static.on { color: red; } #ordered:first-child { color: blue; }"

    def compose(self) -> ComposeResult:
        yield Static("ordered", id="ordered")
        yield Static("plain", id="plain")


async def test_a_value_is_kept_until_textual_restyles_the_widget() -> None:
    app = Shown()
    async with app.run_test(size=(20, 4)) as pilot:
        await pilot.pause()
        plain = app.query_one("#plain", Static)
        worked_out: list[int] = []

        def work_out(widget: Static) -> tuple[str, ...]:
            worked_out.append(1)
            return tuple(sorted(widget.classes))

        assert until_restyled(plain, work_out) == () and until_restyled(plain, work_out) == ()
        assert len(worked_out) == 1  # kept
        plain.get_visual_style()  # upstream's own use of the cache leaves it
        assert until_restyled(plain, work_out) == () and len(worked_out) == 1
        plain.add_class("on")  # restyled at once: notify_style_update empties the cache
        assert until_restyled(plain, work_out) == ("on",) and len(worked_out) == 2


async def test_widgets_whose_rules_test_their_place_are_never_kept() -> None:
    app = Shown()
    async with app.run_test(size=(20, 4)) as pilot:
        await pilot.pause()
        ordered = app.query_one("#ordered", Static)
        worked_out: list[int] = []
        for _ in range(2):
            until_restyled(ordered, lambda widget: worked_out.append(1) or 0)
        assert len(worked_out) == 2
