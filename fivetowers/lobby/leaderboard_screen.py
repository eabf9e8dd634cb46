"""The leaderboard: every rated identity (keys and bots), best rating first,
one game at a time (each game is rated on its own)."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from fivetowers.compat.measured_lines import LinesAfterMeasuring
from fivetowers.games import game_kinds
from fivetowers.games.protocol import GameKind
from fivetowers.lobby.archive import Archive
from fivetowers.ui.styles import HISTORY_CSS
from fivetowers.tables.ratings import INITIAL_RATING
from fivetowers.i18n import N_, _
from fivetowers.tables.store import Rating, StoreError
from fivetowers.user_text import clean_name
from fivetowers.ui.key_footer import KeyFooter

SHOWN = 20


def who_text(rating: Rating, mine: bool) -> Text:
    """A name as Text (never markup); bots by kind, so nobody passes for one."""
    if rating.identity.startswith("bot:"):
        return Text(_("{name} bot").format(name=clean_name(rating.name)), style="italic")
    out = Text(clean_name(rating.name), style="bold" if mine else "")
    if mine:
        out.append(_(" (you)"), style="bold #ffd75f")
    return out


def key_text(identity: str) -> str:
    """The start of a key's fingerprint: two players may share a name, not a key."""
    kind, _colon, rest = identity.partition(":")
    if kind == "bot":
        return _("bot")
    return rest.removeprefix("SHA256:")[:8]


class LeaderboardScreen(Screen[None]):
    CSS_PATH = HISTORY_CSS
    BINDINGS = [
        Binding("g", "next_game", N_("next game")),
        Binding("r", "reload", N_("refresh")),
        Binding("escape", "back", N_("back to the lobby")),
        Binding("q", "back", N_("back"), show=False),
    ]

    def __init__(self, archive: Archive, identity: str | None = None) -> None:
        super().__init__()
        self.archive = archive
        self.identity = identity
        self.kinds: list[GameKind] = game_kinds()
        self.kind = self.kinds[0]
        """The game whose ratings are shown."""

    def compose(self) -> ComposeResult:
        yield Static(self.title_text(), id="history-title", classes="title")
        yield LinesAfterMeasuring(id="leaderboard", cursor_type="none", zebra_stripes=True)
        yield Static(_("Loading the ratings…"), id="history-note", classes="note")
        yield KeyFooter()

    def title_text(self) -> Text:
        if len(self.kinds) == 1:
            return Text.assemble(
                (_("Leaderboard"), "bold"), _(" — Elo-style rating from {start}, "
                                              "every finished game rated, bots too").format(
                    start=f"{INITIAL_RATING:.0f}"))
        return Text.assemble((_("Leaderboard: "), "bold"), (self.kind.title, "bold"),
                             _(" — Elo from {start}, each game rated on its own, "
                               "bots too").format(start=f"{INITIAL_RATING:.0f}"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_game":
            return len(self.kinds) > 1  # one game: no key for another
        return True

    def action_next_game(self) -> None:
        self.kind = self.kinds[(self.kinds.index(self.kind) + 1) % len(self.kinds)]
        self.query_one("#history-title", Static).update(self.title_text())
        self.load()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(" #", _("player"), _("key"), _("rating"), _("games"), _(" wins"))
        self.load()

    def action_reload(self) -> None:
        self.load()

    @work(exclusive=True, group="leaderboard")
    async def load(self) -> None:
        note = self.query_one("#history-note", Static)
        if not self.archive.keeps_games:
            note.update(_("This server keeps no games, so it rates nobody."))
            return
        try:
            ratings = await self.archive.leaderboard(SHOWN, self.kind.name)
        except StoreError as exc:
            note.update(Text(_("Cannot read the ratings: {error}").format(error=exc),
                             style="bold red"))
            return
        table = self.query_one(DataTable)
        table.clear()
        mine = f"key:{self.identity}" if self.identity else None
        for rank, r in enumerate(ratings, 1):
            # Numbers padded to their headings' widths: right-aligned, digits under digits.
            table.add_row(f"{rank:>2}", who_text(r, r.identity == mine), key_text(r.identity),
                          f"{r.rating:>6.0f}", f"{r.games:>5}", f"{r.wins:>5}")
        note.update((_("No finished games of {game} yet: nobody is rated.").format(
                        game=self.kind.title) if len(self.kinds) > 1 else
                     _("No finished games yet: nobody is rated.")) if not ratings else
                    _("A game counts as every pair of its players meeting; a win over a "
                      "higher rating counts more."))

    def action_back(self) -> None:
        self.app.pop_screen()
