"""A board's border titles are set only where they changed, and it shows
what it would show had they all been set."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import Static

from fivetowers.games.five_towers.rules import TYPES, Score, SeatView
from fivetowers.games.five_towers.tui.widgets.tower_board import TowerBoard
from fivetowers.ui.border_titles import put_titles
from fivetowers.ui.styles import stylesheet


def seat(cards: int, teardown: int = 0) -> SeatView:
    return SeatView("Ann", {t: tuple(range(1, cards + 1)) for t in TYPES}, teardown,
                    Score(3, 0, 0, 0))  # the same points: towers only


class Boards(App[None]):
    CSS = stylesheet()

    def compose(self) -> ComposeResult:
        yield TowerBoard(large=False, id="kept")
        yield TowerBoard(large=False, id="fresh")
        yield Static(id="plain")


def titles_set(widget: Widget) -> list[str]:
    """Which of ``widget``'s border titles are set from now on."""
    found: list[str] = []
    cls = type(widget)

    class Spied(cls):  # type: ignore[valid-type,misc]
        def __setattr__(self, name: str, value: object) -> None:
            if name in ("border_title", "border_subtitle"):
                found.append(name)
            super().__setattr__(name, value)

    widget.__class__ = Spied
    return found


async def test_a_move_sets_only_the_titles_it_changed() -> None:
    app = Boards()
    async with app.run_test(size=(40, 20)) as pilot:
        kept = app.query_one("#kept", TowerBoard)
        kept.show(seat(1), "Ann", None, False, False)
        found = titles_set(kept)
        kept.show(seat(2), "Ann", None, False, False)  # towers only
        assert found == []
        kept.show(seat(2, teardown=1), "Ann", None, False, False)  # the pile count
        assert found == ["border_subtitle"]
        found.clear()
        kept.show(seat(2, teardown=1), "Bea", None, False, True)  # a new name, its turn
        assert found == ["border_title"]
        await pilot.pause()
        fresh = app.query_one("#fresh", TowerBoard)
        fresh.show(seat(2, teardown=1), "Bea", None, False, True)
        await pilot.pause()
        assert (kept.border_title, kept.border_subtitle) == (fresh.border_title,
                                                             fresh.border_subtitle)
        assert (Widget.render_lines(kept, kept.region.reset_offset)
                == Widget.render_lines(fresh, fresh.region.reset_offset))


async def test_a_text_and_a_str_of_the_same_words_are_not_the_same_title() -> None:
    app = Boards()
    async with app.run_test(size=(40, 20)):
        plain = app.query_one("#plain", Static)
        last = put_titles(plain, (Text("[b]x[/b]"), Text("y")), (None, None))
        as_text = plain.border_title  # the brackets shown as written
        last = put_titles(plain, ("[b]x[/b]", Text("y")), last)  # markup: a bold x
        assert plain.border_title != as_text and plain.border_title == "[b]x[/b]"
        put_titles(plain, ("[b]x[/b]", Text("y", style="bold")), last)  # a new style
        assert plain.border_subtitle == "[bold]y[/bold]"
