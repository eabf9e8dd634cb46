"""'My games': every game a key has played, newest first; enter replays one."""

from __future__ import annotations

import time

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from fivetowers.compat.measured_lines import LinesAfterMeasuring
from fivetowers.games import UnknownGame, game_kind, game_kinds
from fivetowers.games.protocol import GameKind
from fivetowers.i18n import N_, _, pgettext
from fivetowers.lobby.archive import Archive, is_key, seat_of
from fivetowers.lobby.model import option_text
from fivetowers.tables.store import StoreError, TableInfo
from fivetowers.user_text import clean_name
from fivetowers.ui.key_footer import KeyFooter
from fivetowers.ui.styles import HISTORY_CSS

SHOWN = 50  # games listed at most, the newest


def date_text(when: float) -> str:
    """UTC: the server's own time zone means nothing to players elsewhere."""
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(when))


_SUFFIXES = {1: N_("{n}st"), 2: N_("{n}nd"), 3: N_("{n}rd")}


def ordinal(n: int) -> str:
    form = N_("{n}th") if 10 <= n % 100 <= 20 else _SUFFIXES.get(n % 10, N_("{n}th"))
    return _(form).format(n=n)


def result_text(info: TableInfo, seat: int | None, unit: str = "VP") -> Text:
    """``won, 52 VP``, ``=2nd of 4, 30 VP``, ``going on`` for an unfinished game,
    ``abandoned`` for one the server closed when nobody came back to it.
    ``unit``: what its game's scores count (``GameKind.score_unit``)."""
    if info.finished is None:
        return Text(_("going on"), style="italic")
    if info.scores is None:
        return Text(_("abandoned"), style="dim italic")
    if seat is None:
        return Text(_("finished"), style="dim")
    mine = info.scores[seat]
    rank = 1 + sum(1 for s in info.scores if s > mine)
    tied = sum(1 for s in info.scores if s == mine) > 1
    if info.winners is not None and seat in info.winners:
        won = (_("won (shared), {points} {unit}") if tied else _("won, {points} {unit}"))
        return Text(won.format(points=mine, unit=unit), style="bold green")
    return Text(_("{place} of {players}, {points} {unit}").format(
        place=("=" if tied else "") + ordinal(rank), players=len(info.scores), points=mine,
        unit=unit))


def known_game(kind: str) -> GameKind | None:
    """The game a kept table played; None for one this server does not know."""
    try:
        return game_kind(kind)
    except UnknownGame:
        return None


def players_text(info: TableInfo, seat: int | None) -> Text:
    """The other players (everyone, if the viewer did not play); Text, never markup."""
    return Text(", ".join(clean_name(s.name) for i, s in enumerate(info.seats) if i != seat))


class MyGamesScreen(Screen[None]):
    """The games of the session's key; a finished one opens in the replay viewer."""

    CSS_PATH = HISTORY_CSS
    BINDINGS = [
        Binding("enter", "replay", N_("replay"), priority=True),
        Binding("escape", "back", N_("back to the lobby")),
        Binding("q", "back", N_("back"), show=False),
    ]

    def __init__(self, archive: Archive, identity: str) -> None:
        super().__init__()
        self.archive = archive
        self.identity = identity
        self.games: dict[int, TableInfo] = {}
        self.help_note: str | Text = ""
        self.games_shown = len(game_kinds()) > 1
        """Whether the list says each game's game: only when there is a choice."""

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble((_("My games"), "bold"), _(" — newest first; enter replays "
                                   "a finished one")), id="history-title", classes="title")
        yield LinesAfterMeasuring(id="my-games", cursor_type="row", zebra_stripes=True)
        yield Static(_("Loading your games…"), id="history-note", classes="note")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(
            pgettext("a kept game's number", "game"), *((_("of"),) if self.games_shown else ()),
            _("date (UTC)"), _("rules"),
            _("result"), _("with"))
        self.load_games()

    def note(self, text: str | Text) -> None:
        self.query_one("#history-note", Static).update(text)

    @work(exclusive=True, group="my-games")
    async def load_games(self) -> None:
        if not self.archive.keeps_games:
            self.note(_("This server keeps no games."))
            return
        if not is_key(self.identity):
            self.note(_("Games are kept by SSH key: you logged in with a password, "
                        "so none are kept for you."))
            return
        try:
            games = await self.archive.games_of(self.identity, SHOWN)
        except StoreError as exc:
            self.note(Text(_("Cannot read the kept games: {error}").format(error=exc),
                           style="bold red"))
            return
        table = self.query_one(DataTable)
        table.clear()
        self.games = {info.id: info for info in games}
        for info in games:
            seat = seat_of(info, self.identity)
            game = known_game(info.kind)
            of = (game.title if game else info.kind,) if self.games_shown else ()
            table.add_row(str(info.id), *of, date_text(info.created),
                          ", ".join(map(option_text, info.options.values())),
                          result_text(info, seat, game.score_unit if game else _("points")),
                          players_text(info, seat), key=str(info.id))
        if not games:
            self.note(_("No games yet: the games you play here are kept, by your key."))
        else:
            self.help_note = Text.assemble(
                _("Your newest {count} games. ").format(count=SHOWN)
                if len(games) == SHOWN else "",
                _("The host prints a game's record with  "), ("fivetowers export GAME", "bold"),
                _("  (for fivetowers replay)."))
            self.note(self.help_note)

    def selected(self) -> TableInfo | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return None if key.value is None else self.games.get(int(key.value))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()  # a mouse click on a row: the same as enter
        self.action_replay()

    def action_replay(self) -> None:
        info = self.selected()
        if info is None:
            return
        if info.finished is None:
            self.app.notify(_("Game {number} is still going on: only finished games "
                              "are replayed.").format(number=info.id), severity="warning")
            return
        self.open_game(info.id)

    @work(exclusive=True, group="open-game")
    async def open_game(self, table_id: int) -> None:
        self.note(_("Loading game {number}…").format(number=table_id))
        try:
            kept = await self.archive.game(table_id, self.identity)
        except StoreError as exc:
            self.note(Text(str(exc), style="bold red"))
            return
        self.note(self.help_note)
        screens = kept.kind.screens()
        await self.app.push_screen(screens.replay_screen(kept.replay, kept.info.id,
                                                         kept.names, kept.seat))

    def action_back(self) -> None:
        self.app.pop_screen()
