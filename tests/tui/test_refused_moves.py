"""A move the table refuses for its own reasons (the store cannot keep it,
an action for another seat) is shown like any refused move, not a crash:
the table's refusals are the platform's ActionRefused, not 5 Towers' own."""

from __future__ import annotations

from fivetowers.games.five_towers.rules import Game, Variant
from fivetowers.games.five_towers.solver import exhaustive_hint
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.games.protocol import Match
from fivetowers.games.five_towers.client import LocalClient
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import NOT_SAVED, Table
from fivetowers.tables.workers import Workers
from tests.tui.helpers import app_for


def full_disk(match: Match) -> None:
    raise OSError("database or disk is full")


async def test_a_move_the_store_cannot_keep_is_shown_as_refused() -> None:
    game = Game(["Ann", "Bo"], Variant.BASE, seed=3)
    table = Table(game, [Seat("Ann"), Seat("Bo")], bot_delay=0, on_action=full_disk,
                  workers=Workers(threads=True))
    client = LocalClient(table, [0, 1], exhaustive_hint)
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await screen.submit_bid(game.legal_bids()[0])
        assert screen.bid_notice == NOT_SAVED
        assert table.game.actions == [] and table.cannot_save
        await pilot.pause()
        assert app._exception is None and app.is_running
