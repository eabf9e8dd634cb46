"""The replay viewer: a kept game, move by move, seen from the viewer's seat.

Drawn with the table's own widgets (display, towers, bidding, log), so a
position looks as it did during the game; the viewer sees their own teardown
pile's cards and, for the others, only counts (DESIGN.md "views, not state").
The lobby opens it through :meth:`FiveTowers.screens` for a kept game.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from typing import Sequence

from fivetowers.games.five_towers.rules import Phase, PlayerView
from fivetowers.tables.history import GameHistory
from fivetowers.ui.styles import HISTORY_CSS
from fivetowers.ui.text import name_text, safe
from fivetowers.games.five_towers.tui.widgets.bid_panel import BidPanel
from fivetowers.games.five_towers.tui.widgets.build_panel import BuildPanel
from fivetowers.games.five_towers.tui.widgets.display_row import DisplayRow
from fivetowers.games.five_towers.tui.widgets.game_log import GameLog
from fivetowers.games.five_towers.tui.widgets.opponent_grid import OpponentGrid
from fivetowers.games.five_towers.tui.widgets.status_bar import StatusBar
from fivetowers.games.five_towers.tui.widgets.tower_board import TowerBoard
from fivetowers.games.five_towers.tui.words import entry_text
from fivetowers.i18n import N_, _
from fivetowers.ui.key_footer import KeyFooter

# As the game log styles them (tui/widgets/game_log.py).
STEP_STYLE = {"reveal": "bold", "auto-pass": "dim", "build": "green", "reshuffle": "yellow",
              "end": "bold magenta", "no-build": "dim"}


class ReplayScreen(Screen[None]):
    CSS_PATH = HISTORY_CSS
    # Priority: the scrolling opponents box would otherwise take the arrows,
    # Home and End for itself whenever it has the focus.
    BINDINGS = [
        Binding("left", "step(-1)", N_("step back"), key_display="←/p", priority=True),
        Binding("p", "step(-1)", show=False, priority=True),
        Binding("right", "step(1)", N_("step on"), key_display="→/n", priority=True),
        Binding("n", "step(1)", show=False, priority=True),
        Binding("pageup", "round(-1)", N_("round"), key_display="PgUp/Dn", priority=True),
        Binding("pagedown", "round(1)", show=False, priority=True),
        Binding("home", "jump(0)", N_("start/end"), key_display="Home/End", priority=True),
        Binding("end", "jump(-1)", show=False, priority=True),
        Binding("s", "toggle_scores", N_("scores")),
        Binding("escape", "back", N_("back")),
        Binding("q", "back", show=False),
    ]

    def __init__(self, history: GameHistory, game_id: int, names: Sequence[str],
                 seat: int | None) -> None:
        super().__init__()
        self.history = history
        self.game_id = game_id
        self.names = list(names)
        """As the host cleaned them (they come out of a file)."""
        self.seat = seat
        self.me = seat if seat is not None else 0
        self.rounds = [self.history.game(i).round for i in range(len(self.history))]
        self.position = 0
        self.show_breakdown = False

    @property
    def last(self) -> int:
        return len(self.history) - 1

    def compose(self) -> ComposeResult:
        others = len(self.names) - 1
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield DisplayRow()
                yield TowerBoard(large=True, id="mine")
                with VerticalScroll(id="opponents"):
                    grid = OpponentGrid(id="opponent-grid")
                    grid.styles.grid_size_columns = min(others, 2)  # as at the table
                    with grid:
                        for i in range(others):
                            yield TowerBoard(large=False, id=f"opp{i}")
            with Vertical(id="right"):
                yield Static(id="replay-step")
                yield BidPanel(id="bids")
                yield BuildPanel()
                yield GameLog()
        yield KeyFooter(compact=True)

    async def on_mount(self) -> None:
        self.query_one(BidPanel).border_title = _("Bidding")
        self.query_one(BuildPanel).border_title = _("Building")
        await self.show_position()

    # -- drawing ------------------------------------------------------------
    async def show_position(self) -> None:
        i = self.position
        view = self.history.view(i, self.seat)
        status = Text(" " + _("game {game} · step {step}/{last}").format(
            game=self.game_id, step=i, last=self.last) + " ", style="bold reverse")
        self.query_one(StatusBar).show(view, status, view.variant.value)
        self.query_one(DisplayRow).show(view.display, set())
        self.draw_boards(view)
        self.draw_step(i, view)
        bids, build = self.query_one(BidPanel), self.query_one(BuildPanel)
        bids.display = view.phase is Phase.BID
        build.display = view.phase is Phase.BUILD
        if view.phase is Phase.BID:
            bids.show(view, self.names, None, "")
        elif view.phase is Phase.BUILD and view.to_move is not None:
            build.show(None, name_text(self.names[view.to_move]))
        self.query_one(GameLog).show(view.log)

    def draw_boards(self, view: PlayerView) -> None:
        me, seated = self.me, self.seat is not None
        self.query_one("#mine", TowerBoard).show(
            view.seats[me],
            _("{name} — your towers").format(name=self.names[me]) if seated else self.names[me],
            view.own_teardown, self.show_breakdown, view.to_move == me)
        count = len(view.seats)
        for k in range(1, count):
            other = (me + k) % count
            self.query_one(f"#opp{k - 1}", TowerBoard).show(
                view.seats[other], self.names[other], None, self.show_breakdown,
                view.to_move == other)

    def draw_step(self, i: int, view: PlayerView) -> None:
        out = Text()
        for n, entry in enumerate(self.history.happened(i)):
            out.append("\n" if n else "")
            out.append(safe(entry_text(entry)), style=STEP_STYLE.get(entry.kind, ""))
        error = self.history.error
        if error is not None and i == self.last:
            out.append("\n" + _("The record stops here: action {action} is refused "
                                 "({reason}).").format(action=error.action, reason=error.message),
                       style="bold red")
        panel = self.query_one("#replay-step", Static)
        panel.border_title = (_("Start: the first display") if i == 0
                              else _("Step {step}").format(step=i))
        panel.update(out)

    # -- keys -----------------------------------------------------------------
    async def go(self, position: int) -> None:
        position = max(0, min(position, self.last))
        if position != self.position:
            self.position = position
            await self.show_position()

    async def action_step(self, delta: int) -> None:
        await self.go(self.position + delta)

    async def action_jump(self, position: int) -> None:
        await self.go(position if position >= 0 else self.last)

    async def action_round(self, direction: int) -> None:
        """To the next round's first position, or back to this round's start
        (the previous round's when already there)."""
        i, rounds = self.position, self.rounds
        if direction > 0:
            later = [j for j in range(i + 1, len(rounds)) if rounds[j] > rounds[i]]
            await self.go(later[0] if later else self.last)
            return
        target = i - 1 if i and rounds[i - 1] != rounds[i] else i
        while target > 0 and rounds[target - 1] == rounds[target]:
            target -= 1
        await self.go(target)

    async def action_toggle_scores(self) -> None:
        self.show_breakdown = not self.show_breakdown
        self.draw_boards(self.history.view(self.position, self.seat))

    def action_back(self) -> None:
        self.app.pop_screen()
