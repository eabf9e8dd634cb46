"""The end screen: every player's score breakdown, the winner(s), play again."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Static

from fivetowers.games.five_towers.client import TableClient
from fivetowers.games.screens import TableHost
from fivetowers.games.five_towers.tui.look import name_text
from fivetowers.games.five_towers.tui.widgets.tower_board import TowerBoard
from fivetowers.compat.textual import SettledScreen
from fivetowers.i18n import N_, _
from fivetowers.ui.key_bar import KeyBar
from fivetowers.ui.shared_table import SharedTable


class EndScreen(SettledScreen):
    BINDINGS = [
        Binding("n", "play_again", N_("play again")),
        Binding("b", "back", N_("back to the table")),
        Binding("q", "quit", N_("quit")),
        Binding("q", "leave", N_("back to the lobby")),
    ]

    def __init__(self, client: TableClient, host: TableHost) -> None:
        super().__init__()
        self.client = client
        self.host = host

    def compose(self) -> ComposeResult:
        view = self.client.view()
        names = [s.name for s in self.client.seats()]
        winners = view.winners
        banner = Text()
        banner.append((_("Winner:") if len(winners) == 1 else _("Shared victory:")) + " ",
                      style="bold")
        for n, w in enumerate(winners):
            if n:
                banner.append(" " + _("and") + " ")
            banner.append_text(name_text(names[w], "bold #ffd75f"))
        with Vertical(id="end"):
            yield Static(_("The game is over"), id="end-title")
            yield Static(banner, id="end-winners")
            with Center():
                # Every viewer at the table sees the same scores: drawn once.
                yield SharedTable(id="scores", cursor_type="none", zebra_stripes=True)
            with Horizontal(id="end-boards"):
                for i in range(len(view.seats)):
                    yield TowerBoard(large=False, id=f"final{i}")
            leave = _("back to the lobby") if self.host.in_lobby else _("quit")
            yield Static(Text.assemble(("n", "bold green"), " " + _("play again") + "   ",
                                       ("b", "bold green"), " " + _("look at the table") + "   ",
                                       ("q", "bold green"), " " + leave),
                         id="end-keys")
        yield KeyBar()  # one widget, not a footer of widgets rebuilt with every key change

    def on_mount(self) -> None:
        try:
            self.fill()
        except NoMatches:
            # The app shut down while this screen was being shown (a session
            # closing right at the game's end): its widgets are gone or never
            # came, and nobody is left to read the scores.
            return

    def fill(self) -> None:
        """The score table and the final towers."""
        view = self.client.view()
        table = self.query_one(SharedTable)
        table.add_columns("", _("player"), _("towers"), _("main"), _("pairs"), _("teardown"),
                          _("total"))
        ranked = sorted(range(len(view.seats)), key=lambda i: -view.seats[i].score.total)
        rows = []
        for i in ranked:
            s = view.seats[i]
            mark = "★" if i in view.winners else ""
            row = (mark, s.name, s.score.towers, s.score.main, s.score.pairs, s.score.teardown,
                   s.score.total)
            rows.append(row)
            table.add_row(mark, name_text(s.name, "bold"), *row[2:6],
                          Text(str(s.score.total), "bold"))
        table.listing = tuple(rows)
        table.measure_now()  # sized before the first layout, not after it (one layout less)
        for i, seat in enumerate(view.seats):
            self.query_one(f"#final{i}", TowerBoard).show(seat, seat.name, None, False,
                                                          i in view.winners)

    async def action_play_again(self) -> None:
        await self.host.play_again()

    def action_back(self) -> None:
        self.app.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("quit", "leave"):  # the one q: leaving a hosted table is no quit
            return self.host.in_lobby == (action == "leave")
        return True

    def action_quit(self) -> None:
        self.app.exit()

    async def action_leave(self) -> None:
        await self.host.leave()
