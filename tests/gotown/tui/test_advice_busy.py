"""GoTown's hint panel: "Strong bot:" shows the strong bot's own play, never
a busy pool's fallback; meanwhile it says the strong bot is busy, and the
screen asks again until it answers (issue 11: honest hints)."""

from __future__ import annotations

import gc
import weakref
from typing import Any, Iterator

import pytest
from textual.app import App

from fivetowers.compat.installed import install_drawing_workarounds
from fivetowers.games.gotown.kind import GAME
from fivetowers.games.gotown.rules import Game
from fivetowers.games.gotown.tui.widgets.hint_panel import HintPanel, describe
from fivetowers.tables import seat_client
from fivetowers.tables.workers import Workers
from tests.gotown.tui.helpers import (NAMES, Host, ScreenApp, app_for, client_for, settle,
                                     table_of, table_screen)
from tests.tables.advice_helpers import answering, retrying_pool  # noqa: F401 (a fixture)
from tests.tui.helpers import until

BUSY = "Strong bot: busy — retrying…"


def panel_says(app: App[Any]) -> str:
    shown = table_screen(app).query_one(HintPanel).shown
    return "" if shown is None else " ".join(shown.plain.split())


@pytest.mark.parametrize("busy", [True, False], ids=["busy-pool", "free-pool"])
async def test_the_strong_bots_line_is_its_own_play_or_says_it_is_busy(
        retrying_pool: Workers, busy: bool) -> None:
    pool = retrying_pool
    game = Game(NAMES[:3], seed=5)
    assert game.to_move == 0
    client = client_for(game)
    client.table.workers = pool
    if busy:
        answering(pool, "late")
    app = app_for(client)
    async with app.run_test(size=(100, 30)) as pilot:
        if busy:
            await until(pilot, lambda: BUSY in panel_says(app))
            assert table_screen(app).advice is None
            assert "Best:" in panel_says(app)  # the exact hint itself is shown
            await until(pilot, lambda: [m.how for m in pool.stats.moves].count("late") >= 2)
            assert BUSY in panel_says(app)
            answering(pool, "thought")
            await until(pilot, lambda: BUSY not in panel_says(app))
        await settle(pilot)
        screen = table_screen(app)
        assert screen.advice is not None and not screen.advice_busy
        view = client.view()
        assert f"Strong bot: {describe(screen.advice, view)}" in panel_says(app)
        assert [m.how for m in pool.stats.moves if m.role == "advice"][-1] == "thought"


async def test_a_screen_left_while_the_strong_bot_is_busy_is_freed_at_once(
        retrying_pool: Workers, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its retry, due long after, holds no reference to it: a hosted table
    screen left while its adviser was busy is freed by reference counting
    (the server freezes what survives a while: tests/server/test_left_screens.py)."""
    monkeypatch.setattr(seat_client, "ADVICE_RETRY", 600.0)
    monkeypatch.setattr(seat_client, "ADVICE_RETRY_MOST", 600.0)
    install_drawing_workarounds()  # as a session's App: left screens freed when removed
    answering(retrying_pool, "late")
    table = table_of(Game(NAMES[:3], seed=5), {1: "greedy", 2: "greedy"})
    table.workers = retrying_pool
    screen = GAME.screens().table_screen(table, 0, Host(), True)
    app = ScreenApp(table, screen)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: BUSY in panel_says(app))
        assert table_screen(app).advice_retry is not None  # the adviser is asked again later
        left = weakref.ref(screen)
        del screen
        gc.collect()
        gc.disable()
        try:
            setattr(app, "first", None)  # (the test app's own reference to it)
            app.pop_screen()
            await until(pilot, lambda: left() is None, seconds=5.0)
        finally:
            gc.enable()
