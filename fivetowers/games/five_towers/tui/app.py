"""The Textual app: thin. Screens own the bindings; the app only switches
between the table and the end, and starts a new game on "play again"
(:mod:`fivetowers.ui.local_play`, shared with GoTown)."""

from __future__ import annotations

from typing import Callable

from fivetowers.games.five_towers.client import TableClient
from fivetowers.games.five_towers.tui.screens.end import EndScreen
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.ui.local_play import LocalHost, LocalPlayApp
from fivetowers.ui.styles import stylesheet

__all__ = ["FiveTowersApp", "LocalHost", "NewGame", "create_app", "stylesheet"]

NewGame = Callable[[], TableClient]


class FiveTowersApp(LocalPlayApp[TableClient]):
    TITLE = "5 Towers"
    CSS = stylesheet()

    def table_screen(self, client: TableClient, host: LocalHost[TableClient]) -> TableScreen:
        return TableScreen(client, host, self.hints)

    def end_screen(self, client: TableClient, host: LocalHost[TableClient]) -> EndScreen:
        return EndScreen(client, host)


def create_app(client: TableClient, new_game: NewGame | None = None,
               hints: bool = True) -> FiveTowersApp:
    """The app factory shared by ``fivetowers play``, the SSH server and tests."""
    return FiveTowersApp(client, new_game, hints)
