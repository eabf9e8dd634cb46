"""The leaderboard: every rated identity (keys and bots), best rating first,
one game at a time (each game is rated on its own)."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from fivetowers.games import game_kinds
from fivetowers.games.protocol import GameKind
from fivetowers.lobby.archive import Archive
from fivetowers.ui.styles import HISTORY_CSS
from fivetowers.tables.ratings import INITIAL_RATING
from fivetowers.tables.store import Rating, StoreError
from fivetowers.user_text import clean_name
from fivetowers.ui.key_footer import KeyFooter

SHOWN = 20


def who_text(rating: Rating, mine: bool) -> Text:
    """A name as Text (never markup); bots by kind, so nobody passes for one."""
    if rating.identity.startswith("bot:"):
        return Text(f"{clean_name(rating.name)} bot", style="italic")
    out = Text(clean_name(rating.name), style="bold" if mine else "")
    if mine:
        out.append(" (you)", style="bold #ffd75f")
    return out


def key_text(identity: str) -> str:
    """The start of a key's fingerprint: two players may share a name, not a key."""
    kind, _, rest = identity.partition(":")
    if kind == "bot":
        return "bot"
    return rest.removeprefix("SHA256:")[:8]


class LeaderboardScreen(Screen[None]):
    CSS_PATH = HISTORY_CSS
    BINDINGS = [
        Binding("g", "next_game", "next game"),
        Binding("r", "reload", "refresh"),
        Binding("escape", "back", "back to the lobby"),
        Binding("q", "back", "back", show=False),
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
        yield DataTable(id="leaderboard", cursor_type="none", zebra_stripes=True)
        yield Static("Loading the ratings…", id="history-note", classes="note")
        yield KeyFooter()

    def title_text(self) -> Text:
        if len(self.kinds) == 1:
            return Text.assemble(
                ("Leaderboard", "bold"), f" — Elo-style rating from {INITIAL_RATING:.0f}, "
                "every finished game rated, bots too")
        return Text.assemble(("Leaderboard: ", "bold"), (self.kind.title, "bold"),
                             f" — Elo from {INITIAL_RATING:.0f}, each game rated "
                             "on its own, bots too")

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
        table.add_columns(" #", "player", "key", "rating", "games", " wins")
        self.load()

    def action_reload(self) -> None:
        self.load()

    @work(exclusive=True, group="leaderboard")
    async def load(self) -> None:
        note = self.query_one("#history-note", Static)
        if not self.archive.keeps_games:
            note.update("This server keeps no games, so it rates nobody.")
            return
        try:
            ratings = await self.archive.leaderboard(SHOWN, self.kind.name)
        except StoreError as exc:
            note.update(Text(f"Cannot read the ratings: {exc}", style="bold red"))
            return
        table = self.query_one(DataTable)
        table.clear()
        mine = f"key:{self.identity}" if self.identity else None
        for rank, r in enumerate(ratings, 1):
            # Numbers padded to their headings' widths: right-aligned, digits under digits.
            table.add_row(f"{rank:>2}", who_text(r, r.identity == mine), key_text(r.identity),
                          f"{r.rating:>6.0f}", f"{r.games:>5}", f"{r.wins:>5}")
        of_game = f" of {self.kind.title}" if len(self.kinds) > 1 else ""
        note.update(f"No finished games{of_game} yet: nobody is rated." if not ratings else
                    "A game counts as every pair of its players meeting; a win over a "
                    "higher rating counts more.")

    def action_back(self) -> None:
        self.app.pop_screen()
