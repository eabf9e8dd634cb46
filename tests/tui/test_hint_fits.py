"""At 80x24 with the most seats 5 Towers allows, the hint panel is six lines
of 28 columns: the strong bot's advice and the best build are read whole
(wrapped, never cut with an ellipsis), in bidding and in building."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from fivetowers.games.five_towers.client import LocalClient
from fivetowers.games.five_towers.kind import GAME
from fivetowers.games.five_towers.rules import Game, Variant
from fivetowers.games.five_towers.rules.players import MAX_PLAYERS
from fivetowers.games.five_towers.solver import exhaustive_hint
from fivetowers.games.five_towers.tui.widgets.hint_panel import HintPanel, describe, explain
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table
from tests.tui.helpers import PassiveBot, app_for, settle
from tests.tui.test_vietnamese import screen_text

NAMES = ["Hedda (bot)", "You", "Peter (bot)", "Ingrid (bot)", "Olav (bot)"][:MAX_PLAYERS]


def advised_client() -> LocalClient:
    """The human at seat 1 of a full table of passive bots, with advice. The
    adviser is the greedy bot (quick and the same every run; the strong
    bot's time budget could end differently on a busy machine): the panel
    words its advice the same whoever gives it."""
    game = Game(NAMES, Variant.BASE, seed=4)
    seats = [Seat(name) if i == 1 else Seat(name, bot="passive") for i, name in enumerate(NAMES)]
    table = Table(game, seats, bot_delay=0,
                  bots={i: PassiveBot() for i in range(len(NAMES)) if i != 1})
    return LocalClient(table, [1], exhaustive_hint, GAME.make_bot("greedy"))


def panel_text(pilot: Pilot[None]) -> str:
    """What the hint panel shows, its lines joined by spaces."""
    panel = pilot.app.screen.query_one(HintPanel)
    region = panel.content_region
    lines = screen_text(pilot.app).splitlines()[region.y:region.bottom]  # type: ignore[arg-type]
    return " ".join(" ".join(line[region.x:region.right].split()) for line in lines)


async def bid_all(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("5")  # the whole display: every bot passes, the build is long
    await settle(pilot)


@pytest.mark.parametrize("phase", ["bidding", "building"])
async def test_the_advice_and_the_best_build_are_read_whole(phase: str) -> None:
    client = advised_client()
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await (settle if phase == "bidding" else bid_all)(pilot)
        screen = pilot.app.screen
        assert screen.advice is not None  # type: ignore[attr-defined]
        shown = panel_text(pilot)
        assert f"Strong bot would: {describe(screen.advice)}" in shown  # type: ignore[attr-defined]
        if phase == "building":
            plan = screen.hint.plans[5]  # type: ignore[attr-defined]
            assert f"Best build for bid 5 ({plan.gain:+d} VP): {explain(plan)}" in shown
            assert "…" not in shown  # (a plan while bidding is cut: every bid on a line)


@pytest.mark.parametrize("phase", ["bidding", "building"])
def test_the_hint_panel_at_80x24_with_five_seats(snap_compare, phase: str) -> None:
    app = app_for(advised_client())
    assert snap_compare(app, terminal_size=(80, 24),
                        run_before=settle if phase == "bidding" else bid_all)
