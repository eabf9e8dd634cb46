"""The hint panel's "Strong bot would:" is the strong bot's own search: while
the pool answers for it with a fallback (a busy pool's late bot) the panel
says the strong bot is busy, and the screen asks again until it answers
(issue 11: honest hints). The pause between asks is shortened here; the
client's own pauses are tested in tests/tables/test_advice_busy.py."""

from __future__ import annotations

from typing import Iterator

import pytest

from fivetowers.games.five_towers.client import LocalClient
from fivetowers.games.five_towers.kind import GAME
from fivetowers.games.five_towers.rules import Game, Variant
from fivetowers.games.five_towers.solver import exhaustive_hint
from fivetowers.games.five_towers.tui.screens.plans import PlansScreen
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.games.five_towers.tui.widgets.hint_panel import HintPanel, describe
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table
from fivetowers.tables.workers import Workers
from tests.tables.advice_helpers import answering, retrying_pool  # noqa: F401 (a fixture)
from tests.tui.helpers import PassiveBot, app_for, settle, until

BUSY = "Strong bot busy — retrying…"


def advised_client(pool: Workers) -> LocalClient:
    """The human at seat 0 against a passive bot, advised by the greedy bot
    (quick, and the same every run), in ``pool``."""
    game = Game(["You", "Hedda (bot)"], Variant.BASE, seed=4)
    table = Table(game, [Seat("You"), Seat("Hedda (bot)", bot="passive")], bot_delay=0,
                  bots={1: PassiveBot()}, workers=pool)
    return LocalClient(table, [0], exhaustive_hint, GAME.make_bot("greedy"))


def panel_says(app: object) -> str:
    screen = getattr(app, "screen")
    shown = screen.query_one(HintPanel).shown
    return "" if shown is None else " ".join(shown.plain.split())


async def test_a_busy_pools_fallback_is_not_shown_as_the_strong_bots_advice(
        retrying_pool: Workers) -> None:
    pool = retrying_pool
    answering(pool, "late")
    client = advised_client(pool)
    app = app_for(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: BUSY in panel_says(app))
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert "Strong bot would" not in panel_says(app) and screen.advice is None
        assert "Your highest safe bid" in panel_says(app)  # the hint itself is shown
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, PlansScreen))
        plans = app.screen
        assert isinstance(plans, PlansScreen)
        shown = " ".join(plans.text.plain.split())
        assert BUSY in shown and "Strong bot would" not in shown
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        # Still busy, asked again (and again): never the fallback's move.
        await until(pilot, lambda: [m.how for m in pool.stats.moves].count("late") >= 3)
        assert "Strong bot would" not in panel_says(app)
        answering(pool, "thought")  # a worker is free: the next ask is the strong bot's
        await until(pilot, lambda: "Strong bot would" in panel_says(app))
        await settle(pilot)
        assert screen.advice is not None and not screen.advice_busy
        assert f"Strong bot would: {describe(screen.advice)}" in panel_says(app)
        assert BUSY not in panel_says(app)
        assert [m.how for m in pool.stats.moves][-1] == "thought"


async def test_the_strong_bots_own_answer_shows_as_before(retrying_pool: Workers) -> None:
    pool = retrying_pool
    client = advised_client(pool)
    app = app_for(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert screen.advice is not None and not screen.advice_busy
        assert f"Strong bot would: {describe(screen.advice)}" in panel_says(app)
        assert BUSY not in panel_says(app)
        assert [m.how for m in pool.stats.moves if m.role == "advice"] == ["thought"]


async def test_hidden_hints_ask_the_busy_adviser_no_more_and_ask_again_when_shown(
        retrying_pool: Workers) -> None:
    pool = retrying_pool
    answering(pool, "late")
    client = advised_client(pool)
    app = app_for(client)

    def asks() -> int:
        return sum(m.role == "advice" for m in pool.stats.moves)

    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: BUSY in panel_says(app))
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await pilot.press("h")  # hints hidden while the adviser is busy
        await settle(pilot)
        hidden_at = asks()
        await pilot.pause(1.0)  # several of the shortened retry pauses
        assert asks() == hidden_at and screen.advice_retry is None
        answering(pool, "thought")
        await pilot.press("h")  # shown again: asked again at once, not left "retrying…"
        await until(pilot, lambda: "Strong bot would" in panel_says(app))
        assert asks() == hidden_at + 1
