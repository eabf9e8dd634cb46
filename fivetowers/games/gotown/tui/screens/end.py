"""GoTown's end screen: who won, every tower's height, the final towers, play again."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.css.query import NoMatches
from textual.widgets import Static

from fivetowers.games.gotown.client import GoTownClient
from fivetowers.games.gotown.rules import PlayerView
from fivetowers.games.gotown.tui.look import GOTOWN_CSS
from fivetowers.games.gotown.tui.widgets.tower_board import TowerBoard
from fivetowers.games.screens import TableHost
from fivetowers.compat.textual import SettledScreen
from fivetowers.i18n import N_, _, ngettext
from fivetowers.ui.key_bar import KeyBar
from fivetowers.ui.text import name_text


def result_text(view: PlayerView) -> Text:
    """The winner(s), and how: a full tower, or the turn limit's tallest."""
    names = [s.name for s in view.seats]
    out = Text((_("Winner:") if len(view.winners) == 1 else _("Shared victory:")) + " ",
               style="bold")
    for n, w in enumerate(view.winners):
        if n:
            out.append(" " + _("and") + " ")
        out.append_text(name_text(names[w], "bold #ffd75f"))
    tallest = max((len(s.floors) for s in view.seats), default=0)
    if tallest >= view.floors_to_win:
        out.append(" " + ngettext("with {count} floor", "with {count} floors",
                                  view.floors_to_win).format(count=view.floors_to_win))
    else:
        out.append(" " + ngettext("(the turn limit: tallest tower, {count} floor)",
                                  "(the turn limit: tallest tower, {count} floors)",
                                  tallest).format(count=tallest))
    out.append("\n")
    ranked = sorted(range(len(view.seats)), key=lambda s: -len(view.seats[s].floors))
    out.append("   ".join(f"{'★ ' if s in view.winners else ''}{names[s]}: "
                          f"{len(view.seats[s].floors)}" for s in ranked), style="dim")
    return out


class GoTownEndScreen(SettledScreen):
    CSS_PATH = GOTOWN_CSS
    BINDINGS = [
        Binding("n", "play_again", N_("play again")),
        Binding("b", "back", N_("back to the table")),
        Binding("q", "quit", N_("quit")),
        Binding("q", "leave", N_("back to the lobby")),
    ]

    def __init__(self, client: GoTownClient, host: TableHost) -> None:
        super().__init__(classes="gotown")
        self.client = client
        self.host = host

    def compose(self) -> ComposeResult:
        view = self.client.view()
        with Vertical(id="end"):
            yield Static(_("The game is over"), id="end-title")
            yield Static(result_text(view), id="end-winners")
            with Grid(id="end-towers"):
                for s in range(len(view.seats)):
                    yield TowerBoard(s, id=f"final{s}")
            leave = _("back to the lobby") if self.host.in_lobby else _("quit")
            yield Static(Text.assemble(("n", "bold green"), " " + _("play again") + "   ",
                                       ("b", "bold green"), " " + _("look at the table") + "   ",
                                       ("q", "bold green"), " " + leave),
                         id="end-keys")
        yield KeyBar()  # one widget, not a footer of widgets rebuilt with every key change

    def on_mount(self) -> None:
        view = self.client.view()
        try:
            for s, seat in enumerate(view.seats):
                self.query_one(f"#final{s}", TowerBoard).show(
                    seat, view.floors_to_win, seat.name, s in view.winners, {})
        except NoMatches:  # the app shut down while this screen came: nobody to show
            return

    async def action_play_again(self) -> None:
        await self.host.play_again()

    def action_back(self) -> None:
        self.app.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("quit", "leave"):  # the one q: "quit" locally, "lobby" hosted
            return self.host.in_lobby == (action == "leave")
        return True

    async def action_quit(self) -> None:
        await self.host.leave()

    async def action_leave(self) -> None:
        await self.host.leave()
