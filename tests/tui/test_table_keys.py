"""What the table's key bar offers, and to whom."""

from __future__ import annotations

from fivetowers.games.five_towers.rules import Phase, Variant
from fivetowers.games.five_towers.tui.screens.end import EndScreen
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.ui.key_bar import KeyBar
from tests.tui.helpers import app_for, finished_client, midgame_client, passive_client, settle


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


async def test_local_play_rings_when_the_turn_comes_back_and_b_stops_it() -> None:
    from fivetowers.games.five_towers.tui.screens.table import TableScreen as Table
    client = midgame_client(Variant.BASE, seed=4)
    app = app_for(client)
    rung: list[int] = []
    app.bell = lambda: rung.append(1)  # type: ignore[method-assign]
    async with app.run_test() as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, Table) and client.my_turn() and rung == []

        async def play_my_turn() -> None:
            view = client.view()
            if view.phase is Phase.BID:
                await pilot.press("p" if view.may_pass else "0")
            else:  # the hint's plan for the bid won
                await pilot.press("a", "enter")
            await settle(pilot)

        for _ in range(20):
            await play_my_turn()
            if rung:
                break
        assert rung == [1] and client.my_turn()
        await pilot.press("b")
        for _ in range(6):
            await play_my_turn()
        assert rung == [1]
