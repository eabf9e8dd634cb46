"""The acting seat's heavy border: the same rules and the same drawn lines as
setting ``styles.border``, and passing the turn refreshes a board once (the
border asked for five refreshes, its unchanged titles for two more)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.widget import Widget

from fivetowers.games.five_towers.rules import TYPES, Score, SeatView
from fivetowers.games.five_towers.tui.widgets.tower_board import TowerBoard
from fivetowers.games.gotown.rules import SeatView as GoTownSeat
from fivetowers.games.gotown.tui.widgets.tower_board import TowerBoard as GoTownBoard
from fivetowers.ui.acting_border import ACTING_BORDER
from fivetowers.ui.styles import stylesheet


def seat(name: str = "Ann") -> SeatView:
    return SeatView(name, {t: (1, 2) for t in TYPES}, 0, Score(4, 0, 0, 0))


class Boards(App[None]):
    CSS = stylesheet()

    def compose(self) -> ComposeResult:
        yield TowerBoard(large=False, id="marked")
        yield TowerBoard(large=False, id="styled")


def drawn(widget: Widget) -> list[Strip]:
    """Its lines as Textual draws them (not another board's shared render)."""
    return Widget.render_lines(widget, widget.region.reset_offset)


async def test_the_acting_border_is_what_styles_border_set() -> None:
    app = Boards()
    async with app.run_test(size=(40, 16)) as pilot:
        marked, styled = app.query_one("#marked", TowerBoard), app.query_one("#styled", TowerBoard)
        marked.show(seat(), "Ann", None, False, False)
        styled.show(seat(), "Ann", None, False, False)
        await pilot.pause()
        plain_rules = styled.styles.inline.get_rules()
        marked.show(seat(), "Ann", None, False, True)
        styled.styles.border = ("heavy", ACTING_BORDER)
        await pilot.pause()
        assert marked.styles.inline.get_rules() == styled.styles.inline.get_rules()
        assert marked.styles.border == styled.styles.border
        assert [s.text for s in drawn(marked)] == [s.text for s in drawn(styled)]
        assert drawn(marked)[0] == drawn(styled)[0]  # the top edge: heavy, #ffd75f
        assert "━" in drawn(marked)[0].text
        marked.show(seat(), "Ann", None, False, False)
        styled.styles.border = None
        await pilot.pause()
        assert marked.styles.inline.get_rules() == plain_rules == styled.styles.inline.get_rules()
        assert drawn(marked)[0] == drawn(styled)[0] and "━" not in drawn(marked)[0].text


def count_refreshes(widget: Widget) -> list[int]:
    counted: list[int] = []
    refresh = widget.refresh

    def counting(*args: object, **kwargs: object) -> Widget:
        counted.append(1)
        return refresh(*args, **kwargs)  # type: ignore[arg-type]

    widget.refresh = counting  # type: ignore[method-assign]
    return counted


async def test_passing_the_turn_refreshes_a_board_once() -> None:
    app = Boards()
    async with app.run_test(size=(40, 16)) as pilot:
        board = app.query_one("#marked", TowerBoard)
        board.show(seat(), "Ann", None, False, False)
        await pilot.pause()
        counted = count_refreshes(board)
        board.show(seat(), "Ann", None, False, True)  # Ann's turn: show()'s own refresh
        assert len(counted) == 1
        counted.clear()
        board.show(seat(), "Ann", None, False, False)  # and past
        assert len(counted) == 1
        await pilot.pause()


class GoTownBoards(App[None]):
    CSS = stylesheet()

    def compose(self) -> ComposeResult:
        yield GoTownBoard(0, id="marked")


async def test_gotown_passing_the_turn_refreshes_a_board_as_its_title_does() -> None:
    app = GoTownBoards()
    async with app.run_test(size=(40, 16)) as pilot:
        board = app.query_one(GoTownBoard)
        tower = GoTownSeat("Ann", (), frozenset(), 3, 0)
        board.show(tower, 5, "Ann", False, {})
        await pilot.pause()
        counted = count_refreshes(board)
        board.show(tower, 5, "Ann (away)", False, {})  # a new title
        by_title = len(counted)
        counted.clear()
        board.show(tower, 5, "Ann (away)", True, {})  # its turn: "▶ " in the title
        assert len(counted) == by_title == 2  # the title's and show()'s own
        await pilot.pause()
        assert "━" in drawn(board)[0].text and "▶ Ann (away)" in drawn(board)[0].text
