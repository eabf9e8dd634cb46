"""GoTown's screens as a host shows them (:class:`~fivetowers.games.screens.GameScreens`)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from textual.screen import Screen

from fivetowers.games.gotown.client import GoTownClient
from fivetowers.games.gotown.tui.history import GoTownHistory
from fivetowers.games.gotown.tui.screens.end import GoTownEndScreen
from fivetowers.games.gotown.tui.screens.table import GoTownTableScreen
from fivetowers.games.screens import Replay, TableHost
from fivetowers.tables.table import Table


class GoTownScreens:
    def table_screen(self, table: Table[Any], seat: int | None, host: TableHost,
                     hints: bool) -> Screen[None]:
        from fivetowers.games.gotown.kind import GAME  # it imports us lazily

        return GoTownTableScreen(GoTownClient(table, seat, adviser=GAME.make_bot("strong")),
                                 host, hints)

    async def next_game(self, screen: Screen[None], table: Table[Any], seat: int | None,
                        host: TableHost, hints: bool) -> bool:
        from fivetowers.games.gotown.kind import GAME  # it imports us lazily

        if not isinstance(screen, GoTownTableScreen):
            return False
        client = GoTownClient(table, seat, adviser=GAME.make_bot("strong"))
        if not screen.serves(client):
            return False
        await screen.next_game(client, host, hints)
        return True

    def end_screen(self, table: Table[Any], seat: int | None, host: TableHost) -> Screen[None]:
        return GoTownEndScreen(GoTownClient(table, seat), host)

    def replay(self, record: Mapping[str, Any]) -> GoTownHistory:
        return GoTownHistory(record)

    def replay_screen(self, replay: Replay, game_id: int, names: Sequence[str],
                      seat: int | None) -> Screen[None]:
        if not isinstance(replay, GoTownHistory):
            raise TypeError(f"not a GoTown replay: {type(replay).__name__}")
        from fivetowers.games.gotown.tui.screens.replay import GoTownReplayScreen

        return GoTownReplayScreen(replay, game_id, names, seat)


SCREENS = GoTownScreens()
