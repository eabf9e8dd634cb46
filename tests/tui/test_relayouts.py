"""A table change repaints the widgets it changes and lays out the screen
only when a widget's size must change (issue 11: at a hosted table a full
layout per viewer per move was most of the server's CPU)."""

from __future__ import annotations

import threading
from typing import Any

from textual.widgets import OptionList

from fivetowers.games.five_towers.rules import Bid, Pass, Phase, Variant
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.games.five_towers.tui.widgets.game_log import GameLog
from fivetowers.games.five_towers.tui.widgets.hint_panel import HintPanel

from tests.tui.helpers import app_for, held_hints_client, passive_client, settle


def spy_layouts(widget: Any) -> list[bool]:
    """Every ``refresh(layout=True)`` the widget is asked for from now on."""
    asked: list[bool] = []
    refresh = widget.refresh

    def spied(*regions: Any, **kwargs: Any) -> Any:
        if kwargs.get("layout"):
            asked.append(True)
        return refresh(*regions, **kwargs)
    widget.refresh = spied
    return asked


async def test_the_hint_panel_keeps_its_height_while_thinking() -> None:
    release = threading.Event()
    client = held_hints_client(release)
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(HintPanel)
        log = app.screen.query_one(GameLog)
        assert "Your highest safe bid" in str(panel.content)
        tall = panel.region.height  # the bidding hint's height
        hint = await client.hint()
        assert hint is not None
        await client.submit(Bid(0, hint.max_bid))
        if client.table.game.to_move == 1:
            await client.submit(Pass(1))
        await client.submit(hint.plans[hint.max_bid].to_build(0))
        for _ in range(50):
            await pilot.pause(0.02)
            if "thinking…" in str(panel.content) and client.table.game.phase.value == "bid":
                break
        assert "thinking…" in str(panel.content)
        await pilot.pause(0.05)
        assert panel.region.height == tall  # room kept: the log below stays put
        where = log.region
        asked = spy_layouts(panel)
        release.set()
        for _ in range(200):
            await pilot.pause(0.02)
            if "Your highest safe bid" in str(panel.content):
                break
        assert "Your highest safe bid" in str(panel.content)
        await pilot.pause(0.05)
        assert asked == [] and log.region == where and panel.region.height == tall


async def test_a_redraw_with_the_same_choices_keeps_the_build_list() -> None:
    client = passive_client(Variant.BASE, seed=5)
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1")  # the human outbids the starter's 0; the other bot passes
        await settle(pilot)
        view = client.view()
        assert view.phase is Phase.BUILD and view.to_move == 1
        await pilot.press("a", "u")  # the hint's plan, less its last card: one to place
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.guide is not None
        steps = screen.query_one("#steps", OptionList)
        shown = [str(steps.get_option_at_index(i).prompt) for i in range(steps.option_count)]
        assert shown
        rebuilt: list[bool] = []
        clear = steps.clear_options

        def spied() -> OptionList:
            rebuilt.append(True)
            return clear()
        steps.clear_options = spied  # type: ignore[method-assign]
        await pilot.press("s", "s")  # two redraws of the table, the same choices
        assert rebuilt == []
        assert [str(steps.get_option_at_index(i).prompt)
                for i in range(steps.option_count)] == shown
