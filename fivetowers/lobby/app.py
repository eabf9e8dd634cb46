"""The App each SSH session runs: the lobby, a forming table, a game, its end.

Thin: screens own their keys; the app moves between them and tells the
lobby when this player sits down, steps away, or drops out. ``join CODE``
goes straight to that table, and a player with a seat at a running game goes
straight back to it (the same key is the same player).
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.screen import Screen

from fivetowers.lobby.model import HostedTable, Lobby, LobbyError
from fivetowers.lobby.lobby_screen import LobbyScreen
from fivetowers.lobby.new_table_screen import NewTable
from fivetowers.server.hosted import HostedApp
from fivetowers.server.session import AppFactory, Visitor
from fivetowers.lobby.waiting_screen import ServerTableScreen, WaitingScreen
from fivetowers.tables.client import TableClient
from fivetowers.games.five_towers.tui.app import stylesheet
from fivetowers.games.five_towers.tui.screens.end import EndScreen


class LobbyApp(HostedApp):
    TITLE = "5 Towers"
    CSS = stylesheet() + stylesheet("lobby.tcss")

    def __init__(self, lobby: Lobby, visitor: Visitor) -> None:
        super().__init__()
        self.lobby = lobby
        self.visitor = visitor
        self.port = visitor.port
        self.here: HostedTable | None = None
        """The table this session is at (seated or watching), if any."""
        self.watching = False

    @property
    def idle_exempt(self) -> bool:
        """Seated at a running game: waiting for others is not idling."""
        here = self.here
        return here is not None and here.started and not here.over and not self.watching

    def on_mount(self) -> None:
        code = self.visitor.join_code
        resume = self.lobby.resumable(self.visitor.identity) if code is None else None
        if code is not None:
            self.open_table(code, watch=None)
        elif resume is not None:
            self.notify(f"Welcome back: your seat at {resume.code} was kept.", markup=False)
            self.open_table(resume.code, watch=False)
        if len(self.screen_stack) == 1:  # no table to go to: the lobby
            self.push_screen(LobbyScreen())

    # -- moving between screens ----------------------------------------------
    def open_table(self, code: str, watch: bool | None) -> None:
        """Sit at (``watch`` False), watch (True), or sit-else-watch (None) a table."""
        hosted = self.lobby.find(code)
        if hosted is None:
            self.notify(f"There is no table {code}.", severity="error", markup=False)
            return
        seat: int | None = None
        if not watch:
            try:
                seat = self.lobby.sit(hosted, self.visitor.identity, self.visitor.name,
                                      session=self)
            except LobbyError as exc:
                if watch is False or not hosted.started:
                    self.notify(str(exc), severity="error", markup=False)
                    return
        if seat is None and not hosted.started:
            self.notify("That table has not started yet: sit down, or watch later.",
                        severity="warning", markup=False)
            return
        self._leave_here()
        self.here, self.watching = hosted, seat is None
        if seat is None:
            self.lobby.watch(hosted)
            self._show(ServerTableScreen(self.lobby.client(hosted, None), hosted, hints=False))
        elif hosted.started:
            self._show(ServerTableScreen(self.lobby.client(hosted, seat), hosted,
                                         self.lobby.hints))
        else:
            self._show(WaitingScreen(hosted))

    def table_started(self, hosted: HostedTable) -> None:
        seat = hosted.seat_of(self.visitor.identity)
        if isinstance(self.screen, ServerTableScreen) and self.screen.hosted is hosted:
            return
        if hosted is self.here and seat is not None:
            self._show(ServerTableScreen(self.lobby.client(hosted, seat), hosted,
                                         self.lobby.hints))

    def create_table(self, form: NewTable | None) -> None:
        if form is None:
            return
        try:
            hosted = self.lobby.create(self.visitor.identity, self.visitor.name,
                                       title=form.title, players=form.players, bots=form.bots,
                                       variant=form.variant, private=form.private,
                                       address=self.visitor.address)
        except LobbyError as exc:  # taken meanwhile: the form said it could
            self.notify(str(exc), severity="error", markup=False)
            return
        self.open_table(hosted.code, watch=False)

    def new_table_refusal(self) -> str | None:
        """Why this player may not open a table now (the form says it); None."""
        return self.lobby.refusal(self.visitor.identity, self.visitor.address)

    def back_to_lobby(self) -> None:
        self._leave_here()
        if not isinstance(self.screen_stack[-1], LobbyScreen) or len(self.screen_stack) > 2:
            self._show(LobbyScreen())

    def _show(self, screen: Screen[Any]) -> None:
        # One screen of ours at a time (dialogs go on top): a lobby kept under
        # a game was a megabyte per session for nothing; it is made anew.
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if len(self.screen_stack) == 1:
            self.push_screen(screen)
        else:
            self.switch_screen(screen)

    def _leave_here(self) -> None:
        here, self.here = self.here, None
        if here is None:
            return
        if self.watching:
            self.lobby.unwatch(here)
        else:
            self.lobby.away(here, self.visitor.identity, session=self)
        self.watching = False

    # -- what the table screens ask of the app ---------------------------------
    def show_end(self, client: TableClient) -> None:
        self.push_screen(EndScreen(client))

    async def play_again(self) -> None:
        self.back_to_lobby()

    def on_unmount(self) -> None:
        self._leave_here()


def lobby_factory(lobby: Lobby) -> AppFactory:
    """The app factory of a hosted server: every session shares ``lobby``."""
    def make(visitor: Visitor) -> App[Any]:
        return LobbyApp(lobby, visitor)
    return make
