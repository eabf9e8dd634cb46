"""A card played or put back lays the player's screen out once (issue 11:
the play panel shrinking asked for a second layout through its sizing)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widget import Widget

from fivetowers.games.gotown.tui.widgets.play_panel import PlayPanel
from tests.compat.test_sized_once import spy_reflows
from tests.gotown.tui.helpers import app_for, client_for, played_until, settle, table_screen


async def laid_out(pilot: Any, screen: Any) -> None:
    """Until the screen has no layout or repaint pending: a second layout
    asked for late is made before the count is read, however slow the run."""
    await pilot.pause()
    while screen._layout_required or screen._repaint_required or screen._dirty_widgets \
            or any(w._layout_required for w in screen.walk_children(Widget)):
        await pilot.pause()


async def test_playing_and_putting_back_a_card_lay_out_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = played_until(2, 3, lambda g, _: g.to_move == 0 and len(g.legal_actions()) > 3)
    client = client_for(game)
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table_screen(app)
        reflowed = spy_reflows(monkeypatch)
        played = put_back = False
        for index in range(len(client.view().hand)):
            if played and put_back:
                break
            await pilot.press(str(index + 1))
            await settle(pilot)
            panel = screen.query_one(PlayPanel)
            assert screen.choices and panel.region.height > 5  # the choices show
            legal = [n for n, choice in enumerate(screen.choices) if choice.legal]
            reflowed.clear()
            if legal and not played:
                version = client.version
                await pilot.press(str(legal[0] + 1))
                played = True
            else:
                await pilot.press("escape")
                put_back = True
            await settle(pilot)
            await laid_out(pilot, screen)
            assert not screen.choices and panel.region.height == 5
            assert [root for root in reflowed if root is screen] == [screen]
            if not client.view().my_turn:
                break
        assert played and client.version > version


async def test_picking_a_card_lays_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The choices' list is sized where the layout sizes it: its first draw
    # asks for no second layout.
    game = played_until(2, 3, lambda g, _: g.to_move == 0 and len(g.legal_actions()) > 3)
    client = client_for(game)
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table_screen(app)
        reflowed = spy_reflows(monkeypatch)
        await pilot.press("1")
        await settle(pilot)
        await laid_out(pilot, screen)
        assert screen.choices and screen.query_one(PlayPanel).region.height > 5
        assert [root for root in reflowed if root is screen] == [screen]
        choices = screen.query_one("#choices")
        assert choices.virtual_size.height == len(screen.choices)
