"""``fivetowers play --game gotown``: a thin app that switches between the
table and the end screen and deals a new game on "play again"
(:mod:`fivetowers.ui.local_play`, shared with 5 Towers)."""

from __future__ import annotations

from typing import Callable

from fivetowers.games.gotown.client import LocalClient
from fivetowers.games.gotown.tui.screens.end import GoTownEndScreen
from fivetowers.games.gotown.tui.screens.table import GoTownTableScreen
from fivetowers.ui.local_play import LocalHost, LocalPlayApp
from fivetowers.ui.styles import stylesheet

RESUME = "fivetowers play --game gotown --resume"

NewGame = Callable[[], LocalClient]

GoTownHost = LocalHost[LocalClient]
"""The table host of local play."""


class GoTownApp(LocalPlayApp[LocalClient]):
    TITLE = "GoTown"
    CSS = stylesheet()  # the tables' shared styles; GoTown's screens bring their own
    RESUME = RESUME

    def table_screen(self, client: LocalClient, host: GoTownHost) -> GoTownTableScreen:
        return GoTownTableScreen(client, host, self.hints)

    def end_screen(self, client: LocalClient, host: GoTownHost) -> GoTownEndScreen:
        return GoTownEndScreen(client, host)
