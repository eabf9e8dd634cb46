"""The App each SSH session runs: the lobby, a forming table, a game, its end.

Thin: screens own their keys; the app moves between them and tells the
lobby when this player sits down, steps away, or drops out. ``join CODE``
goes straight to that table, and a player with a seat at a running game goes
straight back to it (the same key is the same player).

Lobby screens ask this app for what :class:`~fivetowers.lobby.host.LobbyHost`
declares; a game's table and end screens ask a :class:`SeatHost` (the
game's :class:`~fivetowers.games.screens.TableHost`), made per table screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from textual import events, on
from textual.app import App
from textual.message import Message
from textual.notifications import Notification, Notify
from textual.screen import Screen

from fivetowers.compat.screen_removal import QuietScreenRemoval
from fivetowers.games.five_towers.tui.app import stylesheet
from fivetowers.i18n import LANGUAGES, _, speak
from fivetowers.i18n.terms import REMATCH_WANTED, said_text
from fivetowers.lobby.host import LobbyHost
from fivetowers.lobby.language import remember_language, remembered_language
from fivetowers.lobby.lobby_screen import LobbyScreen
from fivetowers.lobby.model import ChatLine, HostedTable, Lobby, LobbyError
from fivetowers.lobby.new_table_screen import ChatScreen, NewTable
from fivetowers.lobby.waiting_screen import WaitingScreen
from fivetowers.server.hosted import HostedApp
from fivetowers.server.session import AppFactory, Visitor
from fivetowers.ui.live_table import LiveTableScreen


@dataclass
class ChatSaid(Message):
    line: ChatLine


class SeatHost:
    """What a game's screens at a hosted table ask of the session (a
    :class:`~fivetowers.games.screens.TableHost`): q goes back to the lobby (a
    seat is kept), "play again" asks the table's players for a rematch, c
    talks to the table."""

    offers_chat = True
    in_lobby = True

    def __init__(self, app: LobbyApp, hosted: HostedTable, seat: int | None) -> None:
        self.app = app
        self.hosted = hosted
        self.seat = seat
        self.listener: Callable[[], bool] | None = None
        """The table screen's, told of each new line (see LobbyApp.on_chat_said)."""

    def chat(self) -> None:
        self.app.push_screen(ChatScreen(), self._send)

    def chat_lines(self) -> Sequence[ChatLine]:
        return tuple(self.hosted.chat)

    def hear_chat(self, listener: Callable[[], bool] | None) -> None:
        self.listener = listener

    def _send(self, text: str | None) -> None:
        if not text:
            return
        refusal = self.hosted.say(self.app.identity, self.app.player_name, text)
        if refusal is not None:
            self.app.notify(refusal, severity="warning")

    def show_end(self) -> None:
        table = self.hosted.table
        if table is not None:
            self.app.push_screen(self.hosted.kind.screens().end_screen(table, self.seat, self))

    async def play_again(self) -> None:
        if self.seat is None or not self.hosted.over:  # a watcher: no game to play again
            self.app.back_to_lobby()
        else:
            self.app.play_again(self.hosted)

    async def leave(self) -> None:
        self.app.back_to_lobby()


class LobbyApp(QuietScreenRemoval, HostedApp):
    TITLE = "5 Towers"
    CSS = stylesheet() + stylesheet("lobby.tcss")

    def __init__(self, lobby: Lobby, visitor: Visitor) -> None:
        super().__init__()
        self.lobby = lobby
        self.visitor = visitor
        self.port = visitor.port
        self.server_name = visitor.server_name
        self.here: HostedTable | None = None
        """The table this session is at (seated or watching), if any."""
        self.watching = False
        self.at_game: HostedTable | None = None
        """The table whose game screen this session shows (its chat is heard)."""
        self.seat_host: SeatHost | None = None
        """The host of that game screen: the screen shows the chat in its log."""
        self.rematch_calls: list[Notification] = []
        """The pop-ups of players' "wants a rematch": moot once this player
        says yes or the rematch starts (they covered its first round's log)."""

    @property
    def identity(self) -> str:
        return self.visitor.identity

    @property
    def player_name(self) -> str:
        return self.visitor.name

    @property
    def idle_exempt(self) -> bool:
        """Seated at a running game: waiting for others is not idling."""
        here = self.here
        return here is not None and here.started and not here.over and not self.watching

    def on_load(self) -> None:
        # The App's own task, before any widget's: every task of this App
        # inherits its session's language from here (fivetowers.i18n).
        speak(self.visitor.speech)

    @property
    def language(self) -> str:
        return self.visitor.speech.language

    def switch_language(self, language: str | None = None) -> None:
        """Read ``language`` from now on (None: the next one), kept for this key."""
        speech = self.visitor.speech
        if language is None:
            language = LANGUAGES[(LANGUAGES.index(speech.language) + 1) % len(LANGUAGES)]
        speech.switch(language)
        self.run_worker(remember_language(self.lobby, self.identity, language),
                        group="language")
        self._show(LobbyScreen())  # made anew, in the new language

    @on(events.Mount)
    async def arrive(self) -> None:
        """The first screen, in the language this key chose last time (a
        store read, awaited: the screen must not show in another one first).
        Before HostedApp's on_mount, as an on_mount of this class would be."""
        remembered = await remembered_language(self.lobby, self.visitor.identity)
        if remembered is not None:
            self.visitor.speech.switch(remembered)
        code = self.visitor.join_code
        resume = self.lobby.resumable(self.visitor.identity) if code is None else None
        if code is not None:
            self.open_table(code, watch=None)
        elif resume is not None:
            self.notify(_("Welcome back: your seat at {code} was kept.").format(
                code=resume.code), markup=False)
            self.open_table(resume.code, watch=False)
        if len(self.screen_stack) == 1:  # no table to go to: the lobby
            self.push_screen(LobbyScreen())

    # -- moving between screens ----------------------------------------------
    def open_table(self, code: str, watch: bool | None) -> None:
        """Sit at (``watch`` False), watch (True), or sit-else-watch (None) a table."""
        hosted = self.lobby.find(code)
        if hosted is None:
            self.notify(_("There is no table {code}.").format(code=code), severity="error",
                        markup=False)
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
                # j (or ssh ... join) with the code of a full running table.
                self.notify(_("{refusal}: you join as a watcher.").format(refusal=exc), markup=False)
        elif hosted.seat_of(self.visitor.identity) is not None and hosted.started:
            self.notify(_("You have a seat at {code}: you are only watching it. "
                          "Enter on it in the lobby takes you back to your seat.").format(
                              code=hosted.code), markup=False, timeout=8)
        if seat is None and not hosted.started:
            self.notify(_("That table has not started yet: sit down, or watch later."),
                        severity="warning", markup=False)
            return
        self._leave_here()
        self.here, self.watching = hosted, seat is None
        if seat is None:
            self.lobby.watch(hosted)
            self._show_game(hosted, None, hints=False)
        elif hosted.started:
            self._show_game(hosted, seat, self.lobby.hints)
        else:
            self._show(WaitingScreen(hosted))

    def table_started(self, hosted: HostedTable) -> None:
        seat = hosted.seat_of(self.visitor.identity)
        if self.at_game is hosted or hosted is not self.here:
            return
        if seat is not None:
            self._show_game(hosted, seat, self.lobby.hints)
        else:  # the seat this server took was given to another (a race between servers)
            self.notify(_("table {code} has no free seat").format(code=hosted.code),
                        severity="warning", markup=False)
            self.back_to_lobby()

    def create_table(self, form: NewTable | None) -> None:
        if form is None:
            return
        try:
            hosted = self.lobby.create(self.visitor.identity, self.visitor.name,
                                       title=form.title, kind=form.kind, players=form.players,
                                       bots=form.bots, options=form.options,
                                       private=form.private, address=self.visitor.address)
        except LobbyError as exc:  # taken meanwhile: the form said it could
            self.notify(str(exc), severity="error", markup=False)
            return
        self.open_table(hosted.code, watch=False)

    def new_table_refusal(self) -> str | None:
        """Why this player may not open a table now (the form says it); None."""
        return self.lobby.refusal(self.visitor.identity, self.visitor.address)

    def play_again(self, old: HostedTable) -> None:
        """Say yes to a rematch at ``old``: wait for the others' answers there."""
        try:
            again = self.lobby.play_again(old, self.visitor.identity, self.visitor.name,
                                          session=self)
        except LobbyError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self._leave_here()
        self.withdraw_rematch_calls()
        self.here, self.watching = again, False
        seat = again.seat_of(self.visitor.identity)
        if again.started and seat is not None:
            self._show_game(again, seat, self.lobby.hints)
        else:
            # The game's table screen stays under the wait: the rematch is shown in it.
            self._show(WaitingScreen(again), keep_table=self._kept_table(again) is not None)

    def back_to_lobby(self) -> None:
        self._leave_here()
        if not isinstance(self.screen_stack[-1], LobbyScreen) or len(self.screen_stack) > 2:
            self._show(LobbyScreen())

    def _show_game(self, hosted: HostedTable, seat: int | None, hints: bool) -> None:
        """The game's own table screen, hosted by this session; its chat heard."""
        assert hosted.table is not None
        host = self.seat_host = SeatHost(self, hosted, seat)
        kept = self._kept_table(hosted)
        if kept is not None:
            # Asked of the screen before it is shown again: its queue resets it
            # before it handles its ScreenResume, so its first frame is the
            # rematch's, and the end or the wait on it is not drawn again.
            kept.resetting = True
            kept.call_later(self._next_game, kept, hosted, seat, host, hints)
            while len(self.screen_stack) > 2:  # the end or the wait, and any dialog
                self.pop_screen()
        else:
            self._show(hosted.kind.screens().table_screen(hosted.table, seat, host, hints))
        self._hear_chat(hosted)
        self.withdraw_rematch_calls()

    def _kept_table(self, again: HostedTable) -> LiveTableScreen[Any] | None:
        """The table screen of the game ``again`` is the rematch of, if this
        session shows it (under its end screen): the rematch is shown in it
        rather than in a new screen (see LiveTableScreen.next_game)."""
        if len(self.screen_stack) < 2:
            return None
        screen = self.screen_stack[1]
        if not isinstance(screen, LiveTableScreen) or not isinstance(screen.host, SeatHost):
            return None
        return screen if screen.host.hosted.rematch is again else None

    async def _next_game(self, kept: LiveTableScreen[Any], hosted: HostedTable,
                         seat: int | None, host: SeatHost, hints: bool) -> None:
        if self.seat_host is not host or kept not in self.screen_stack:
            kept.resetting = False
            return  # the player went elsewhere meanwhile
        assert hosted.table is not None
        screens = hosted.kind.screens()
        if not await screens.next_game(kept, hosted.table, seat, host, hints):
            self._show(screens.table_screen(hosted.table, seat, host, hints))

    def _show(self, screen: Screen[Any], keep_table: bool = False) -> None:
        # One screen of ours at a time (dialogs go on top): a lobby kept under
        # a game was a megabyte per session for nothing; it is made anew.
        # (``keep_table``: but for the table screen a rematch is shown in.)
        floor = 3 if keep_table else 2
        while len(self.screen_stack) > floor:
            self.pop_screen()
        if len(self.screen_stack) == floor - 1:
            self.push_screen(screen)
        else:
            self.switch_screen(screen)

    def _leave_here(self) -> None:
        self._hear_chat(None)
        here, self.here = self.here, None
        if here is None:
            return
        if self.watching:
            self.lobby.unwatch(here)
        else:
            self.lobby.away(here, self.visitor.identity, session=self)
        self.watching = False

    # -- chat at the table shown -----------------------------------------------
    def _hear_chat(self, hosted: HostedTable | None) -> None:
        old, self.at_game = self.at_game, hosted
        if old is not None and self._on_chat in old.chat_listeners:
            old.chat_listeners.remove(self._on_chat)
        if hosted is not None:
            hosted.chat_listeners.append(self._on_chat)

    def _on_chat(self, line: ChatLine) -> None:
        # Called from the session that spoke: only post here, so the
        # notification is made in this App's own context; its own sender, not
        # the speaker's App, which may end while this one keeps the message.
        self.post_message(ChatSaid(line).set_sender(self))

    def on_chat_said(self, message: ChatSaid) -> None:
        host = self.seat_host
        if host is not None and host.hosted is self.at_game and host.listener is not None \
                and host.listener():
            return  # the table screen shows it in its log, with the earlier lines
        # Not looking at the table (its end screen, a dialog): a pop-up.
        # Plain text: a name or a line is never parsed as markup.
        call = message.line.text == REMATCH_WANTED
        here = self.here
        if call and here is not None and here.started and not here.over:
            return  # heard after the rematch started (the last yes started it)
        pop_up = Notification(f"{message.line.name}: {said_text(message.line.text)}",
                              title="chat", timeout=8, markup=False)
        if call:
            self.rematch_calls.append(pop_up)
        self.post_message(Notify(pop_up))

    def withdraw_rematch_calls(self) -> None:
        """Take the "wants a rematch" pop-ups off: this player said yes, or
        the rematch started."""
        calls, self.rematch_calls = self.rematch_calls, []
        if calls:
            self.withdraw_notifications(calls)

    def on_unmount(self) -> None:
        self._leave_here()


def lobby_factory(lobby: Lobby) -> AppFactory:
    """The app factory of a hosted server: every session shares ``lobby``."""
    def make(visitor: Visitor) -> App[Any]:
        return LobbyApp(lobby, visitor)
    return make


def _implements(app: LobbyApp) -> LobbyHost:
    return app  # mypy checks here that LobbyApp is every LobbyHost asks for
