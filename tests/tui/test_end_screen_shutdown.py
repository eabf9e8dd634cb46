"""The end screen shown while the app shuts down (a session closing right at
the game's end) must not crash with NoMatches in its on_mount."""

from __future__ import annotations

from fivetowers.games.five_towers.rules import Variant
from fivetowers.games.five_towers.tui.app import create_app
from fivetowers.games.five_towers.tui.screens.end import EndScreen
from tests.tui.helpers import finished_client


async def test_the_end_screen_survives_the_app_exiting_as_it_opens() -> None:
    client = finished_client(Variant.BASE, 3)
    app = create_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(EndScreen(client, app.table_host))
        app.exit()  # in the same tick: the screen mounts as the app closes
    assert app.return_code == 0


async def test_the_end_screen_still_fills_in_normally() -> None:
    client = finished_client(Variant.BASE, 3)
    app = create_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.push_screen(EndScreen(client, app.table_host))
        await pilot.pause()
        from textual.widgets import DataTable
        assert app.screen.query_one(DataTable).row_count == 3
