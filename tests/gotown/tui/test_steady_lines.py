"""GoTown's piles line changes on nearly every play (the draw pile's count):
a repaint of its one line, never a layout of the whole screen (issue 11: at
a hosted table every viewer's screen was laid out again on every move)."""

from __future__ import annotations

from typing import Any

from fivetowers.games.gotown.tui.app import GoTownApp
from fivetowers.games.gotown.tui.widgets.piles import PilesLine
from tests.gotown.tui.helpers import local, settle
from tests.gotown.tui.test_pilot_game import play_a_turn
from tests.tui.test_relayouts import spy_layouts


async def test_the_piles_line_changes_without_a_layout() -> None:
    client = local(seed=11, players=2, bots=1, short=True)
    app = GoTownApp(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        piles = app.screen.query_one(PilesLine)
        before = str(piles.render())
        asked: list[Any] = spy_layouts(piles)
        for _ in range(2):  # the human's turns and the bot's between them
            await play_a_turn(pilot, client)
            await settle(pilot)
        assert str(piles.render()) != before  # the counts changed on screen
        assert not asked


async def test_a_redraw_with_the_hand_as_it_was_leaves_the_hand_box_alone(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from textual.containers import Vertical

    from tests.gotown.tui.helpers import table_screen

    client = local(seed=11, players=2, bots=1, short=True)
    app = GoTownApp(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table_screen(app)
        box = screen.query_one("#hand-box", Vertical)
        title = box.border_title
        repaints: list[object] = []
        upstream = box.refresh
        monkeypatch.setattr(box, "refresh", lambda *a, **k: repaints.append(a) or upstream(*a, **k))
        # Another seat's move redraws this screen: the same hand, the same title.
        await screen.refresh_table()
        assert box.border_title == title and title
        assert not repaints  # setting even the same title repainted box and hand
