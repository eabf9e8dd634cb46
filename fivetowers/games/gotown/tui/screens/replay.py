"""GoTown's replay viewer: a kept game, action by action, seen from the
viewer's seat (their own thief's catches named; other hands never shown)."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from fivetowers.games.gotown.chronicle import Chronicle
from fivetowers.games.gotown.tui.history import GoTownHistory
from fivetowers.games.gotown.rules import PlayerView
from fivetowers.games.gotown.tui.look import GOTOWN_CSS
from fivetowers.games.gotown.tui.widgets.game_log import STYLE
from fivetowers.games.gotown.tui.widgets.piles import PilesLine
from fivetowers.games.gotown.tui.widgets.tower_board import TowerBoard
from fivetowers.i18n import N_, _, refusal_text
from fivetowers.ui.key_footer import KeyFooter
from fivetowers.ui.text import safe


class GoTownReplayScreen(Screen[None]):
    CSS_PATH = GOTOWN_CSS
    BINDINGS = [
        Binding("left", "step(-1)", N_("step back"), key_display="←/p", priority=True),
        Binding("p", "step(-1)", show=False, priority=True),
        Binding("right", "step(1)", N_("step on"), key_display="→/n", priority=True),
        Binding("n", "step(1)", show=False, priority=True),
        Binding("home", "jump(0)", N_("start/end"), key_display="Home/End", priority=True),
        Binding("end", "jump(-1)", show=False, priority=True),
        Binding("escape", "back", N_("back")),
        Binding("q", "back", show=False),
    ]

    def __init__(self, history: GoTownHistory, game_id: int, names: Sequence[str],
                 seat: int | None) -> None:
        super().__init__(classes="gotown")
        self.history = history
        self.game_id = game_id
        self.names = list(names)
        """As the host cleaned them (they come out of a file)."""
        self.seat = seat
        self.position = 0
        last = history.game(len(history) - 1)
        chronicle = Chronicle(last)
        chronicle.follow(last)
        self.entries = chronicle.entries

    @property
    def last(self) -> int:
        return len(self.history) - 1

    def compose(self) -> ComposeResult:
        yield Static(id="replay-status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                with Grid(id="towers"):
                    for s in range(len(self.names)):
                        yield TowerBoard(s, id=f"tower{s}")
                yield PilesLine(id="piles")
            with Vertical(id="right"):
                yield Static(id="replay-step")
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        self.show_position()

    def show_position(self) -> None:
        i = self.position
        view: PlayerView = self.history.view(i, self.seat)
        self.query_one("#replay-status", Static).update(
            Text(" " + _("game {game} · step {step}/{last}").format(
                game=self.game_id, step=i, last=self.last) + " ", style="bold reverse"))
        for s, seat in enumerate(view.seats):
            name = self.names[s] if s < len(self.names) else seat.name
            self.query_one(f"#tower{s}", TowerBoard).show(
                seat, view.floors_to_win, name + (_(" (you)") if s == self.seat else ""),
                view.to_move == s, {})
        self.query_one(PilesLine).show(view)
        out = Text()
        for entry in (e for e in self.entries if e.action == i - 1):
            out.append("\n" if out.plain else "")
            out.append(safe(entry.text_for(self.seat)), style=STYLE.get(entry.kind, ""))
        error = self.history.error
        if error is not None and i == self.last:
            reason = (refusal_text(self.history.refused) if self.history.refused is not None
                      else error.message)
            out.append("\n" + _("The record stops here: action {action} is refused "
                                 "({reason}).").format(action=error.action, reason=reason),
                       style="bold red")
        panel = self.query_one("#replay-step", Static)
        panel.border_title = _("The deal") if i == 0 else _("Step {step}").format(step=i)
        panel.update(out)

    def go(self, position: int) -> None:
        position = max(0, min(position, self.last))
        if position != self.position:
            self.position = position
            self.show_position()

    def action_step(self, delta: int) -> None:
        self.go(self.position + delta)

    def action_jump(self, position: int) -> None:
        self.go(position if position >= 0 else self.last)

    def action_back(self) -> None:
        self.app.pop_screen()
