"""``fivetowers play --game gotown``: a thin app that switches between the
table and the end screen and deals a new game on "play again"."""

from __future__ import annotations

from importlib.resources import files
from typing import Callable, Sequence


from fivetowers.games.gotown.client import LocalClient
from fivetowers.games.screens import ChatEntry
from fivetowers.games.gotown.tui.screens.end import GoTownEndScreen
from fivetowers.games.gotown.tui.screens.table import GoTownTableScreen
from fivetowers.ui.too_small import FittingApp

RESUME = "fivetowers play --game gotown --resume"

NewGame = Callable[[], LocalClient]


def stylesheet() -> str:
    """The tables' shared styles (GoTown's screens bring their own on top)."""
    return (files("fivetowers.styles") / "app.tcss").read_text(encoding="utf-8")


class GoTownHost:
    """The table host of local play (a TableHost): q quits (mid-game after
    asking), no chat, and "play again" deals a new game; a replaced game's
    screen shows no end."""

    offers_chat = False
    in_lobby = False

    def __init__(self, app: GoTownApp, client: LocalClient) -> None:
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
            self.app.push_or_hold(GoTownEndScreen(self.client, self))

    async def play_again(self) -> None:
        await self.app.play_again()

    async def leave(self) -> None:
        """q: at once once the game is over, else after a yes (it may be kept)."""
        if self.client.table.over:
            self.app.exit()
            return
        from fivetowers.ui.leave import LeaveScreen
        self.app.push_screen(LeaveScreen(self.client.kept, RESUME), self._answered)

    def _answered(self, leave: bool | None) -> None:
        if leave:
            self.app.exit()


class GoTownApp(FittingApp):
    TITLE = "GoTown"
    ENABLE_COMMAND_PALETTE = False
    CSS = stylesheet()

    def __init__(self, client: LocalClient, new_game: NewGame | None = None,
                 hints: bool = True) -> None:
        super().__init__()
        self.client = client
        self.new_game = new_game
        self.hints = hints

    def on_mount(self) -> None:
        self.push_screen(GoTownTableScreen(self.client, GoTownHost(self, self.client),
                                           self.hints))
        self.fit(self.size.width, self.size.height)

    async def play_again(self) -> None:
        if self.new_game is None:
            self.exit()
            return
        old, self.client = self.client, self.new_game()
        await old.table.close()
        await self.pop_screen()  # the end screen; the old table screen is under it
        await self.switch_screen(GoTownTableScreen(self.client, GoTownHost(self, self.client),
                                                   self.hints))

    async def on_unmount(self) -> None:
        await self.client.table.close()
