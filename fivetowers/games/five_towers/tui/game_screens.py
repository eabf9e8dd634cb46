"""5 Towers' screens as a host shows them (:class:`~fivetowers.games.screens.GameScreens`)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from textual.screen import Screen

from fivetowers.games.five_towers.client import TableClient
from fivetowers.games.five_towers.tui.screens.end import EndScreen
from fivetowers.games.five_towers.tui.screens.replay import ReplayScreen
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.games.screens import Replay, TableHost
from fivetowers.tables.history import GameHistory
from fivetowers.tables.table import Table


class FiveTowersScreens:
    def table_screen(self, table: Table[Any], seat: int | None, host: TableHost,
                     hints: bool) -> Screen[None]:
        return TableScreen(TableClient(table, seat), host, hints)

    async def next_game(self, screen: Screen[None], table: Table[Any], seat: int | None,
                        host: TableHost, hints: bool) -> bool:
        client = TableClient(table, seat)
        if not isinstance(screen, TableScreen) or not screen.serves(client):
            return False
        await screen.next_game(client, host, hints)
        return True

    def end_screen(self, table: Table[Any], seat: int | None, host: TableHost) -> Screen[None]:
        return EndScreen(TableClient(table, seat), host)

    def replay(self, record: Mapping[str, Any]) -> GameHistory:
        from fivetowers.games.five_towers.kind import GAME  # it imports us lazily
        return GameHistory(GAME, record)

    def replay_screen(self, replay: Replay, game_id: int, names: Sequence[str],
                      seat: int | None) -> Screen[None]:
        if not isinstance(replay, GameHistory):
            raise TypeError(f"not a 5 Towers replay: {type(replay).__name__}")
        return ReplayScreen(replay, game_id, names, seat)


SCREENS = FiveTowersScreens()
