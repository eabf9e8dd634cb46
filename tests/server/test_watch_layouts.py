"""A spectator joining a table: its table screen is laid out a fixed, small
number of times (each layout of a screen is a good part of a join's CPU on
the serving process), not once more for each widget that sizes itself after
the first layout."""

from __future__ import annotations

import random
from typing import Any, AsyncIterator

import pytest
from textual.screen import Screen

from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.games.five_towers.tui.widgets.opponent_grid import OpponentGrid
from fivetowers.games.five_towers.tui.widgets.tower_board import TowerBoard
from fivetowers.lobby.app import LobbyApp
from fivetowers.lobby.model import Lobby
from fivetowers.server.session import Visitor

from tests.server.history_helpers import settle
from tests.tui import helpers


@pytest.fixture
async def lobby() -> AsyncIterator[Lobby]:
    # Slow bots: the game stands still while the spectator arrives.
    lobby = Lobby(bot_kind="random", bot_delay=60.0, absence_bot_after=60.0, hints=False,
                  rng=random.Random(5))
    yield lobby
    await lobby.close()


async def _join_layouts(lobby: Lobby, players: int, monkeypatch: pytest.MonkeyPatch
                        ) -> tuple[int, list[int]]:
    """The table screen's layouts as a spectator opens a table of ``players``
    (one human, bots), and the widths of the opponents' boards it shows."""
    hosted = lobby.create("SHA256:ann", "ann", title="t", players=players, bots=players - 1,
                          private=False)
    app = LobbyApp(lobby, Visitor(identity="SHA256:zed", name="zed", address="127.0.0.1",
                                  join_code=None, term="xterm-256color", colorterm="truecolor"))
    layouts: list[str] = []
    refresh_layout = Screen._refresh_layout

    def counting(screen: Screen[Any], *args: Any, **kwargs: Any) -> None:
        layouts.append(type(screen).__name__)
        refresh_layout(screen, *args, **kwargs)

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        monkeypatch.setattr(Screen, "_refresh_layout", counting)
        app.open_table(hosted.code, watch=True)
        await helpers.until(pilot, lambda: isinstance(app.screen, TableScreen))
        for _ in range(5):
            await settle(pilot)
        grid = app.screen.query_one(OpponentGrid)
        widths = [board.outer_size.width for board in grid.query(TowerBoard)]
    return layouts.count("TableScreen"), widths


async def test_a_spectator_at_a_full_table_is_laid_out_at_most_three_times(
        lobby: Lobby, monkeypatch: pytest.MonkeyPatch) -> None:
    # Four opponents at 80x24: their second row scrolls, and the scrollbar
    # that comes with it narrows the grid (one layout more, upstream's);
    # the Resize the first layout sends is one more (Textual's).
    layouts, widths = await _join_layouts(lobby, 5, monkeypatch)
    assert len(set(widths)) == 1 and len(widths) == 4  # the columns are one width
    assert 1 <= layouts <= 3

