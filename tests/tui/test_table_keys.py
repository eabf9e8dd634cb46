"""What the table's key bar offers, and to whom."""

from __future__ import annotations

from fivetowers.games.five_towers.rules import Phase, Variant
from fivetowers.games.five_towers.tui.screens.end import EndScreen
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.ui.key_bar import KeyBar
from tests.tui.helpers import app_for, finished_client, passive_client, settle


async def test_the_key_bar_offers_no_bids_once_the_game_is_over() -> None:
    client = finished_client(Variant.BASE, seed=5)
    app = app_for(client)
    async with app.run_test() as pilot:
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        await pilot.press("b")  # back to look at the table
        await settle(pilot)
        assert isinstance(app.screen, TableScreen) and client.view().phase is Phase.OVER
        keys = app.screen.query_one(KeyBar).line.plain
        assert "bid" not in keys and "pass" not in keys
        assert "e results" in keys and "q quit" in keys


async def test_during_the_bidding_the_key_bar_offers_bids() -> None:
    app = app_for(passive_client(Variant.BASE, seed=3))
    async with app.run_test() as pilot:
        await settle(pilot)
        keys = app.screen.query_one(KeyBar).line.plain
        assert "0-9 bid / pick" in keys and "p pass" in keys
        assert not str(app.screen.query_one("#status").render()).startswith(" watching")
