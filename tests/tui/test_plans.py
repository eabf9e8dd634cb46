"""The hint's plans in full (v) at 80x24, where the hint panel cuts them."""

from __future__ import annotations

from textual.geometry import Region
from textual.widget import Widget

from fivetowers.games.five_towers.rules import Build, Variant
from fivetowers.games.five_towers.solver.plans import Hint
from fivetowers.games.five_towers.tui.screens.plans import PlansScreen
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.games.five_towers.tui.widgets.hint_panel import describe, explain
from fivetowers.ui.key_bar import KeyBar
from tests.tui.helpers import app_for, passive_client, settle


def visible(widget: Widget) -> str:
    """The lines ``widget`` draws on the screen now, as text."""
    size = widget.size
    return "\n".join(strip.text.rstrip()
                     for strip in widget.render_lines(Region(0, 0, size.width, size.height)))


async def test_v_shows_every_bids_whole_plan_at_80x24() -> None:
    app = app_for(passive_client(Variant.BASE, seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen
        assert isinstance(table, TableScreen)
        hint = table.current_hint()
        assert isinstance(hint, Hint)
        panel = visible(table.query_one("#hints"))
        long_plans = [p for p in hint.plans if p.bid and explain(p) not in panel]
        assert long_plans, "the panel shows every plan whole: the test needs a longer one"
        assert "v plans" in table.query_one(KeyBar).line.plain
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, PlansScreen)
        shown = app.screen.text.plain
        for plan in hint.plans[1:]:
            assert f"bid {plan.bid} ({plan.gain:+d} VP): {explain(plan)}" in shown
        # Wrapped to the screen, not cut: every word of the longest plan is on it.
        lines = visible(app.screen.query_one("#plans-text"))
        assert "…" not in lines and "Others can bid up to" in lines
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table


def test_the_strong_bots_build_has_no_doubled_colon() -> None:
    from fivetowers.games.five_towers.rules import Card, Step, TowerType
    card = Card(TowerType.SAND, 5)
    said = describe(Build(0, (card,), (Step(card),), 0, None))
    assert said == "build sand-5", said
