"""The build panel offers a scrap rebuild only when the pile has a card."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from fivetowers.games.five_towers.rules import Board, BuildSession, Step, card
from fivetowers.games.five_towers.tui.build_guide import BuildGuide
from fivetowers.games.five_towers.tui.widgets.build_panel import BuildPanel
from tests.tui.test_build_guide import DISPLAY, SCRAP, board

SCRAP_NOTE = "scrap: you may bring one card back from your pile"


class PanelApp(App[None]):
    def compose(self) -> ComposeResult:
        yield BuildPanel()


async def panel_after_scrap(pile: bool) -> str:
    start: Board = board()
    if not pile:
        start.teardown = []
    guide = BuildGuide(BuildSession(start, DISPLAY, True, 3))
    for i in range(3):
        guide.toggle(i)
    guide.confirm_choice()
    guide.pick(next(o for o in guide.options() if o.step == Step(card("scrap-11"))))
    assert guide.session.rebuild_pending and start.towers[SCRAP] == [14]
    app = PanelApp()
    async with app.run_test() as pilot:
        panel = app.query_one(BuildPanel)
        panel.show(guide, Text("You"))
        await pilot.pause()
        return panel.shown.plain if panel.shown else ""


async def test_the_scrap_note_shows_with_a_card_on_the_pile() -> None:
    assert SCRAP_NOTE in await panel_after_scrap(pile=True)


async def test_no_scrap_note_when_the_pile_is_empty() -> None:
    assert SCRAP_NOTE not in await panel_after_scrap(pile=False)
