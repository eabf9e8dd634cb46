"""The Textual app: thin. Screens own the bindings; the app only switches
between the table and the end, and starts a new game on "play again"."""

from __future__ import annotations

from importlib.resources import files
from typing import Callable, Sequence

from fivetowers.games.five_towers.client import TableClient
from fivetowers.games.screens import ChatEntry
from fivetowers.games.five_towers.tui.screens.end import EndScreen
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.ui.too_small import FittingApp

NewGame = Callable[[], TableClient]


def stylesheet(name: str = "app.tcss") -> str:
    """A stylesheet shipped in the wheel (the repo's ``styles/`` folder)."""
    return (files("fivetowers.styles") / name).read_text(encoding="utf-8")


class LocalHost:
    """The table host of ``fivetowers play`` (a :class:`TableHost`): q quits
    (mid-game after asking), no chat, and "play again" deals a new game. One
    per game: a table screen of a game already replaced shows no end screen."""

    offers_chat = False
    in_lobby = False

    def __init__(self, app: FiveTowersApp, client: TableClient) -> None:
        self.app = app
        self.client = client

    def chat(self) -> None:
        """Nobody to talk to (the key is not offered)."""

    def chat_lines(self) -> Sequence[ChatEntry]:
        return ()

    def hear_chat(self, listener: Callable[[], bool] | None) -> None:
        """Nothing is ever said here."""

    def show_end(self) -> None:
        if self.client is self.app.client:
            self.app.push_or_hold(EndScreen(self.client, self))

    async def play_again(self) -> None:
        await self.app.play_again()

    async def leave(self) -> None:
        """q: at once once the game is over, else after a yes (it may be kept)."""
        if self.client.table.over:
            self.app.exit()
            return
        from fivetowers.ui.leave import LeaveScreen
        self.app.push_screen(LeaveScreen(self.client.kept), self._answered)

    def _answered(self, leave: bool | None) -> None:
        if leave:
            self.app.exit()


class FiveTowersApp(FittingApp):
    TITLE = "5 Towers"
    ENABLE_COMMAND_PALETTE = False
    CSS = stylesheet()

    def __init__(self, client: TableClient, new_game: NewGame | None = None,
                 hints: bool = True) -> None:
        super().__init__()
        self.client = client
        self.table_host = LocalHost(self, client)
        self.new_game = new_game
        self.hints = hints

    def on_mount(self) -> None:
        self.push_screen(TableScreen(self.client, self.table_host, self.hints))
        self.fit(self.size.width, self.size.height)

    async def play_again(self) -> None:
        if self.new_game is None:
            self.exit()
            return
        old = self.client
        self.client = self.new_game()
        self.table_host = LocalHost(self, self.client)
        await old.table.close()
        await self.pop_screen()  # the end screen; the old table screen is under it
        await self.switch_screen(TableScreen(self.client, self.table_host, self.hints))

    async def on_unmount(self) -> None:
        await self.client.table.close()


def create_app(client: TableClient, new_game: NewGame | None = None,
               hints: bool = True) -> FiveTowersApp:
    """The app factory shared by ``fivetowers play``, the SSH server and tests."""
    return FiveTowersApp(client, new_game, hints)
