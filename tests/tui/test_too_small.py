"""Local play at a terminal too small for the table: a notice covers it, and
no key pressed at the notice reaches the game."""

from __future__ import annotations

from fivetowers.games.five_towers.rules import Phase, Variant
from fivetowers.games.five_towers.tui.screens.end import EndScreen
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.ui.too_small import TooSmallScreen
from tests.tui.helpers import app_for, finished_client, passive_client, settle


async def test_a_small_terminal_gets_the_notice_and_its_keys_do_not_play() -> None:
    client = passive_client(Variant.BASE, seed=3)
    app = app_for(client)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TooSmallScreen)
        text = str(app.screen.query_one("#too-small").render())
        assert "Your terminal is 60x20." in text and "80x24" in text
        assert client.view().phase is Phase.BID and client.my_turn()
        version = client.version
        await pilot.press("1", "0", "p", "enter")
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert client.version == version and client.my_turn()
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "70x20" in str(app.screen.query_one("#too-small").render())
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_the_end_screen_waits_for_the_notice_to_go() -> None:
    app = app_for(finished_client(Variant.BASE, seed=5))
    async with app.run_test(size=(70, 20)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
