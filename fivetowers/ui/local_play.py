"""``fivetowers play``'s app, the same for every game: it switches between the
table and the end screen and deals a new game on "play again". A game's app
names its table and end screens (and its resume command); the rest is here."""

from __future__ import annotations

from typing import Any, Callable, Generic, Protocol, TypeVar

from textual.screen import Screen

from fivetowers.compat.installed import install_drawing_workarounds
from fivetowers.ui.too_small import FittingApp


class LocalTable(Protocol):
    """What the app asks of a local game's table."""

    @property
    def over(self) -> bool: ...

    async def close(self) -> None: ...


class LocalClient(Protocol):
    """What the app asks of a local game's client (a game's seat client)."""

    @property
    def table(self) -> LocalTable: ...

    @property
    def kept(self) -> bool:
        """Whether the store keeps the game, so that it can be resumed."""
        ...


C = TypeVar("C", bound=LocalClient)


class LocalHost(Generic[C]):
    """The table host of local play (a game's ``TableHost``): q quits
    (mid-game after asking), no chat, and "play again" deals a new game. One
    per game: a table screen of a game already replaced shows no end screen."""

    offers_chat = False
    in_lobby = False

    def __init__(self, app: LocalPlayApp[C], client: C) -> None:
        self.app = app
        self.client = client

    def chat(self) -> None:
        """Nobody to talk to (the key is not offered)."""

    def chat_lines(self) -> tuple[()]:
        return ()

    def hear_chat(self, listener: Callable[[], bool] | None) -> None:
        """Nothing is ever said here."""

    def show_end(self) -> None:
        if self.client is self.app.client:
            self.app.push_or_hold(self.app.end_screen(self.client, self))

    async def play_again(self) -> None:
        await self.app.play_again()

    async def leave(self) -> None:
        """q: at once once the game is over, else after a yes (it may be kept)."""
        if self.client.table.over:
            self.app.exit()
            return
        from fivetowers.ui.leave import LeaveScreen
        self.app.push_screen(LeaveScreen(self.client.kept, self.app.RESUME), self._answered)

    def _answered(self, leave: bool | None) -> None:
        if leave:
            self.app.exit()


class LocalPlayApp(FittingApp, Generic[C]):
    """A local game's app: thin. Screens own the bindings."""

    ENABLE_COMMAND_PALETTE = False
    RESUME = "fivetowers play --resume"
    """The command the leave question names to come back to a kept game."""

    def __init__(self, client: C, new_game: Callable[[], C] | None = None,
                 hints: bool = True) -> None:
        install_drawing_workarounds()  # drawn as a served session is
        super().__init__()
        self.client = client
        self.table_host = LocalHost(self, client)
        self.new_game = new_game
        self.hints = hints

    def table_screen(self, client: C, host: LocalHost[C]) -> Screen[Any]:
        """The game's table screen for ``client``."""
        raise NotImplementedError

    def end_screen(self, client: C, host: LocalHost[C]) -> Screen[Any]:
        """The game's end screen for ``client``."""
        raise NotImplementedError

    def on_mount(self) -> None:
        self.push_screen(self.table_screen(self.client, self.table_host))
        self.fit(self.size.width, self.size.height)

    async def play_again(self) -> None:
        if self.new_game is None:
            self.exit()
            return
        old, self.client = self.client, self.new_game()
        self.table_host = LocalHost(self, self.client)
        await old.table.close()
        await self.pop_screen()  # the end screen; the old table screen is under it
        await self.switch_screen(self.table_screen(self.client, self.table_host))

    async def on_unmount(self) -> None:
        await self.client.table.close()
