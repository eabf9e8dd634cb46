"""Snapshots of the table at 80x24 and 120x40, in both variants: bidding,
the hint panel, a build with a refused placement, help, and the end screen.

Regenerate after a deliberate change with ``pytest tests/tui --snapshot-update``
and look at the SVGs before committing them.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from textual.pilot import Pilot

from fivetowers.games.five_towers.rules import Card, Game, Variant
from fivetowers.games.five_towers.rules.towers import can_place
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.games.five_towers.tui.widgets.phase_panel import PhasePanel
from tests.tui.helpers import (
    NAMES, app_for, finished_client, midgame_client, passive_client, settle, until,
)

SIZES = [(80, 24), (120, 40)]
VARIANTS = [Variant.BASE, Variant.GREAT_POWERS]


def refusable_pair(display: list[Card]) -> tuple[Card, Card] | None:
    """Two display cards of one type where the lower placed first refuses the higher."""
    for low, high in combinations(sorted(display), 2):
        if low.type is high.type and low.value < high.value and not can_place(high.value,
                                                                              low.value):
            return low, high
    return None


def seed_with_refusal(variant: Variant) -> int:
    """The first seed whose first display lets a placement be refused."""
    return next(s for s in range(1, 500)
                if refusable_pair(Game(NAMES, variant, seed=s).display) is not None)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_bidding(snap_compare, variant: Variant, size: tuple[int, int]) -> None:
    app = app_for(passive_client(variant, seed=4))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("h")  # hints hidden: the plain table
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_hint_panel(snap_compare, variant: Variant, size: tuple[int, int]) -> None:
    app = app_for(passive_client(variant, seed=4))
    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_build_with_a_refused_placement(snap_compare, variant: Variant,
                                        size: tuple[int, int]) -> None:
    seed = seed_with_refusal(variant)
    client = passive_client(variant, seed)
    low, high = refusable_pair(list(client.view().display)) or (None, None)
    app = app_for(client)

    async def option(pilot: Pilot[None], card: Card | None) -> str:
        panel = pilot.app.screen.query_one(PhasePanel)
        await until(pilot, lambda: any(o.step.card == card for o in panel.options))
        return str(next(i + 1 for i, o in enumerate(panel.options) if o.step.card == card))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        count = len(client.view().display)
        await pilot.press(str(count))  # bid the whole display; the other bot passes
        await settle(pilot)
        await until(pilot, lambda: getattr(pilot.app.screen, "guide", None) is not None)
        await pilot.press(*[str(i + 1) for i in range(count)], "enter")
        await pilot.press(await option(pilot, low))
        await pilot.press(await option(pilot, high))  # refused: shown in place
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, TableScreen) and screen.guide is not None
        assert screen.guide.notice_bad and "refused" in screen.guide.notice

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_help_screen(snap_compare, variant: Variant, size: tuple[int, int]) -> None:
    app = app_for(passive_client(variant, seed=4))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_end_screen(snap_compare, variant: Variant, size: tuple[int, int]) -> None:
    app = app_for(finished_client(variant, seed=9))
    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_mid_game_with_score_breakdowns(snap_compare, size: tuple[int, int]) -> None:
    app = app_for(midgame_client(Variant.GREAT_POWERS, seed=12))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_hot_seat_names_whose_turn_it_is(snap_compare) -> None:
    from fivetowers.games.five_towers.client import new_local_game
    from fivetowers.games.five_towers.solver import exhaustive_hint

    client = new_local_game(2, 0, Variant.BASE, seed=3, names=["Ann", "Bo"], bot_delay=0,
                            hinter=exhaustive_hint, advice=False)
    app = app_for(client)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("2")  # Ann bids; now Bo's screen
        await settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
