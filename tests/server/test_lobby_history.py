"""The lobby's keys to the history screens (g: my games, l: the leaderboard)."""

from __future__ import annotations

import random
from pathlib import Path

from textual.widgets import DataTable

from fivetowers.lobby.leaderboard_screen import LeaderboardScreen
from fivetowers.lobby.model import Lobby
from fivetowers.lobby.app import LobbyApp
from fivetowers.lobby.lobby_screen import LobbyScreen
from fivetowers.lobby.my_games_screen import MyGamesScreen
from fivetowers.games.five_towers.tui.screens.replay import ReplayScreen
from fivetowers.server.session import Visitor

from tests.server.history_helpers import ANN, kept_store, settle


async def test_lobby_keys_open_my_games_a_replay_and_the_leaderboard(tmp_path: Path) -> None:
    store = kept_store(tmp_path)
    lobby = Lobby(bot_kind="random", bot_delay=0.0, rng=random.Random(1), store=store)
    visitor = Visitor(identity=ANN, name="ann", address="127.0.0.1", join_code=None,
                      term="xterm-256color", colorterm="truecolor")
    app = LobbyApp(lobby, visitor)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, LobbyScreen)
            await pilot.press("g")
            await settle(pilot)
            assert isinstance(app.screen, MyGamesScreen)
            assert app.screen.archive.writer is lobby.writer  # reads wait their turn there
            assert app.screen.query_one(DataTable).row_count == 3
            await pilot.press("down", "enter")
            await settle(pilot)
            assert isinstance(app.screen, ReplayScreen) and app.screen.game_id == 2
            await pilot.press("end", "escape", "escape")
            assert isinstance(app.screen, LobbyScreen)
            await pilot.press("l")
            await settle(pilot)
            assert isinstance(app.screen, LeaderboardScreen)
            assert app.screen.query_one(DataTable).row_count == 3
            await pilot.press("escape")
            assert isinstance(app.screen, LobbyScreen)
    finally:
        await lobby.close()  # the writer, then the store
