"""compat.styled_lines: a widget's rows drawn with its styles read once a
render are the rows Textual draws, whatever its border, padding, title and
effects, and whatever part of it is asked for."""

from __future__ import annotations

from rich.text import Text
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from fivetowers.compat import styled_lines
from fivetowers.compat.styled_lines import style_content_lines_once, upstream_source_digest

STYLES = {
    "plain": "",
    "round": "border: round red; border-title-align: center;",
    "padded": "border: heavy $accent; padding: 1 2;",
    "sides": "border-left: thick green; border-right: vkey blue; padding: 0 1;",
    "top_only": "border-top: solid white; border-bottom: dashed yellow;",
    "tall": "height: 9; border: round red;",
    "background": "background: $panel; color: $text-muted; padding: 0 0 1 0;",
    "tinted": "tint: red 30%; border: round red;",
    "faded": "opacity: 60%;",
    "text_faded": "text-opacity: 50%; border: round red;",
    "hatched": "hatch: cross $primary;",
    "outlined": "outline: round green;",
}


class Styled(App[None]):
    CSS = "\n".join(f"#{name} {{ height: auto; {rules} }}" for name, rules in STYLES.items())

    def compose(self) -> ComposeResult:
        with Vertical():
            for name in STYLES:
                text = Text.assemble(("Bo", "bold magenta"), " bids 3 on the ",
                                     ("red", "red"), " tower\nand Al passes, "
                                     "a line long enough to wrap at thirty cells")
                static = Static(text, id=name)
                static.border_title = name
                static.border_subtitle = "↓ 2 newer"
                yield static


def drawn(widget: Widget, crop: Region) -> list[Strip]:
    widget._styles_cache.clear()  # every row drawn again, as after a refresh
    return widget.render_lines(crop)


def same(ours: list[Strip], theirs: list[Strip]) -> bool:
    return ([list(strip) for strip in ours] == [list(strip) for strip in theirs]
            and [strip.cell_length for strip in ours] == [strip.cell_length for strip in theirs])


async def test_every_row_is_the_row_textual_draws() -> None:
    assert style_content_lines_once()
    original = styled_lines._original
    assert original is not None
    app = Styled()
    async with app.run_test(size=(30, 80)) as pilot:
        await pilot.pause()
        for name in STYLES:
            widget = app.query_one(f"#{name}", Static)
            width, height = widget.outer_size
            assert height >= 3, name
            for crop in (Region(0, 0, width, height), Region(0, 1, width, height - 2),
                         Region(3, height - 2, width - 5, 2), Region(0, 0, width, 1)):
                StylesCache.render = original  # type: ignore[method-assign]
                try:
                    theirs = drawn(widget, crop)
                finally:
                    StylesCache.render = styled_lines._render  # type: ignore[method-assign]
                assert same(drawn(widget, crop), theirs), (name, crop)


async def test_a_row_kept_from_before_is_given_again() -> None:
    assert style_content_lines_once()
    app = Styled()
    async with app.run_test(size=(30, 80)) as pilot:
        await pilot.pause()
        widget = app.query_one("#round", Static)
        crop = Region(0, 0, *widget.outer_size)
        first = drawn(widget, crop)
        again = widget.render_lines(crop)  # nothing changed: the kept rows
        assert [a is b for a, b in zip(first, again)] == [True] * len(first)


def test_only_the_code_it_was_read_in_is_replaced() -> None:
    assert upstream_source_digest() == styled_lines.UPSTREAM_SOURCE
