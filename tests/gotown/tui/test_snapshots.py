"""Snapshots of GoTown's table at 80x24 and 120x40: a turn with its targets
marked, a refused play with the engine's reason, a milkshake turn, the end
screen. Regenerate after a deliberate change with ``--snapshot-update`` and
look at the SVGs before committing them."""

from __future__ import annotations

from typing import Awaitable, Callable

import pytest
from textual.pilot import Pilot

from fivetowers.games.gotown.rules import Build, Card, Game, Steal
from fivetowers.games.gotown.tui.app import GoTownApp
from fivetowers.games.gotown.tui.screens.table import GoTownTableScreen
from tests.gotown.tui.helpers import client_for, finished, played_until, settle

SIZES = [(80, 24), (120, 40)]
RunBefore = Callable[[Pilot[None]], Awaitable[None]]


def can_steal(game: Game) -> bool:
    return any(isinstance(a, Steal) for a in game.legal_actions())


def stealing_card(game: Game) -> int:
    """The hand index of the first card that steals now."""
    card = next(a.card for a in game.legal_actions() if isinstance(a, Steal))
    return game.view(0).hand.index(card)


def a_marked_turn(app_type: type[GoTownApp] = GoTownApp) -> tuple[GoTownApp, RunBefore]:
    """An app at a turn whose picked card steals, and the keys that pick it."""
    game = played_until(2, 3, lambda g, _: can_steal(g) and len(g.players[0].floors) >= 1)
    index = stealing_card(game)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press(str(index + 1))
        await settle(pilot)

    return app_type(client_for(game)), run_before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_turn_with_its_targets_marked(snap_compare, size: tuple[int, int]) -> None:
    app, run_before = a_marked_turn()
    assert snap_compare(app, terminal_size=size, run_before=run_before)


def refusable(game: Game) -> bool:
    """The human holds a floor card whose first option the engine refuses."""
    view = game.view(0)
    return any(c.number is not None and not any(
        isinstance(a, Build) and c in a.cards for a in view.legal) for c in view.hand) \
        and any(p.floors for p in game.players[1:])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_refused_play_says_why(snap_compare, size: tuple[int, int]) -> None:
    game = played_until(3, 3, lambda g, _: refusable(g))
    view = game.view(0)
    index = next(i for i, c in enumerate(view.hand) if c.number is not None and not any(
        isinstance(a, Build) and c in a.cards for a in view.legal))
    app = GoTownApp(client_for(game))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press(str(index + 1))
        screen = pilot.app.screen
        assert isinstance(screen, GoTownTableScreen)
        refused = next(n for n, c in enumerate(screen.choices) if not c.legal)
        await pilot.press(str(refused + 1))
        await settle(pilot)
        assert screen.notice == screen.choices[refused].refusal and screen.notice_bad

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_milkshake_turn(snap_compare, size: tuple[int, int]) -> None:
    # Seat 0's turn comes because the seat before drank a milkshake, and
    # another milkshake waits before someone.
    game = played_until(2, 3, lambda g, c: "milkshake" in c.reason)
    app = GoTownApp(client_for(game))
    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_end_screen(snap_compare, size: tuple[int, int]) -> None:
    app = GoTownApp(finished(4))
    assert snap_compare(app, terminal_size=size, run_before=settle)


def test_the_milkshake_position_is_one() -> None:
    game = played_until(2, 3, lambda g, c: "milkshake" in c.reason)
    assert game.to_move == 0 and Card.MILKSHAKE in game.discard
