"""While the workers compute a hint, the hint panel says "thinking…": never an
older position's hint, and the screen never waits for it (issue 11)."""

from __future__ import annotations

import threading

from fivetowers.games.five_towers.rules import Bid, Pass
from fivetowers.games.five_towers.tui.widgets.hint_panel import HintPanel

from tests.tui.helpers import app_for, held_hints_client, settle


async def test_the_hint_panel_thinks_until_the_new_positions_hint_comes() -> None:
    release = threading.Event()
    client = held_hints_client(release)
    app = app_for(client)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(HintPanel)
        assert "Your highest safe bid" in str(panel.content)
        hint = await client.hint()
        assert hint is not None
        # Ann takes the display and builds the hint's plan: a new round, a new position.
        await client.submit(Bid(0, hint.max_bid))
        if client.table.game.to_move == 1:
            await client.submit(Pass(1))
        await client.submit(hint.plans[hint.max_bid].to_build(0))
        for _ in range(50):
            await pilot.pause(0.02)
            if "thinking…" in str(panel.content):
                break
        text = str(panel.content)
        assert "thinking…" in text and "safe bid" not in text, text
        await pilot.press("s")  # the screen answers keys meanwhile
        release.set()
        for _ in range(200):
            await pilot.pause(0.02)
            if "Your highest safe bid" in str(panel.content):
                break
        assert "Your highest safe bid" in str(panel.content)
