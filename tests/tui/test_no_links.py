"""ui.no_links: a widget without links draws the lines it drew with Textual's
link styling, and keeps its Textual base's stylesheet rules."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Static

from fivetowers.ui.no_links import NoLinks
from fivetowers.ui.shared_static import SharedStatic

WORDS = Text.assemble(("Bo", "bold magenta"), " bids 3 on the ", ("red", "red on white"),
                      " tower, and Al passes: a line long enough to wrap")


class Linked(Static):
    pass


class Unlinked(NoLinks, Static):
    pass


class Both(App[None]):
    CSS = "Static { border: round red; padding: 0 1; }"

    def compose(self) -> ComposeResult:
        yield Linked(WORDS, id="linked")
        yield Unlinked(WORDS, id="unlinked")
        yield SharedStatic(WORDS, id="shared")


def lines(widget: Widget) -> list[list[tuple[str, object]]]:
    # Textual's link styling gives an unstyled piece no style (None for a
    # null style): the same on screen.
    strips = widget.render_lines(Region(0, 0, *widget.outer_size))
    return [[(text, style or None) for text, style, _ in strip] for strip in strips]


async def test_the_same_lines_without_link_styling() -> None:
    app = Both()
    async with app.run_test(size=(30, 16)) as pilot:
        await pilot.pause()
        linked, unlinked = app.query_one("#linked"), app.query_one("#unlinked")
        assert linked.auto_links and not unlinked.auto_links
        assert not app.query_one("#shared").auto_links
        assert unlinked.outer_size == linked.outer_size  # Static's rules: height auto
        assert linked.outer_size.height == 5
        assert lines(unlinked) == lines(linked)
