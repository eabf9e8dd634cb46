"""GoTown's table screen: every tower, your hand, the piles, the play panel,
hints and the log, for whichever human seat is to act at this terminal.

Playing: pick a hand card (its key, ←→ enter, or a click), then what it
does (the option's key, ↑↓ enter, or a click on the partner card or the
tower floor); ``e`` ends the turn. Whatever hosts the table comes in as a
:class:`~fivetowers.games.screens.TableHost`."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical

from fivetowers.games.gotown.client import GoTownClient
from fivetowers.games.gotown.hint import Hint
from fivetowers.games.gotown.rules import Action, End, PlayerView
from fivetowers.games.gotown.tui.choices import Choice, choice_at, choices_for
from fivetowers.games.gotown.tui.log_lines import log_lines
from fivetowers.games.gotown.tui.look import GOTOWN_CSS, label
from fivetowers.games.gotown.tui.messages import ChoicePicked, FloorClicked, HandCardClicked
from fivetowers.games.gotown.tui.threats import threats
from fivetowers.games.gotown.tui.widgets.game_log import GameLog
from fivetowers.games.gotown.tui.widgets.hand_row import HandRow
from fivetowers.games.gotown.tui.widgets.hint_panel import HintPanel
from fivetowers.games.gotown.tui.widgets.piles import PilesLine
from fivetowers.games.gotown.tui.widgets.play_panel import PlayPanel
from fivetowers.games.gotown.tui.widgets.threat_line import ThreatLine
from fivetowers.games.gotown.tui.widgets.status_bar import StatusBar, turn_text
from fivetowers.games.gotown.tui.widgets.tower_board import TowerBoard
from fivetowers.games.protocol import ActionRefused
from fivetowers.games.screens import TableHost
from fivetowers.i18n import N_, _
from fivetowers.ui.key_bar import KeyBar
from fivetowers.ui.live_table import TABLE_KEYS, LiveTableScreen, away_mark

WATCHER_LOCKED = {"digit", "hand", "option", "confirm", "end_turn", "toggle_hints",
                  "toggle_alerts"}
"""The actions a watcher is not offered."""


class GoTownTableScreen(LiveTableScreen[GoTownClient]):
    CSS_PATH = GOTOWN_CSS
    TITLES = ("GoTown", N_("GoTown — your turn"))
    BINDINGS = [
        Binding("1", "digit(1)", N_("pick"), key_display="1-9"),
        *[Binding(str(d), f"digit({d})", show=False) for d in (*range(2, 10), 0)],
        Binding("left", "hand(-1)", show=False),
        Binding("right", "hand(1)", show=False),
        Binding("up", "option(-1)", show=False),
        Binding("down", "option(1)", show=False),
        Binding("enter", "confirm", N_("play")),
        Binding("escape", "back", N_("back")),
        Binding("backspace", "back", show=False),
        Binding("e", "end_turn", N_("end turn")),
        Binding("r", "results", N_("results")),
        *TABLE_KEYS,
    ]

    def __init__(self, client: GoTownClient, host: TableHost, hints: bool = True) -> None:
        super().__init__(client, host, hints, classes="gotown")
        self.hand_title = ""
        """The hand box's title as last set."""

    def start_state(self) -> None:
        super().start_state()
        self.picked: int | None = None
        self.picked_hand: tuple[object, ...] = ()
        self.cursor = 0
        self.choices: list[Choice] = []
        self.notice = ""
        self.notice_bad = False

    def compose(self) -> ComposeResult:
        view = self.client.view()
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                with Grid(id="towers"):
                    for seat in self.seat_order(view):
                        yield TowerBoard(seat, id=f"tower{seat}")
                yield PilesLine(id="piles")
                with Vertical(id="hand-box"):
                    yield HandRow()
                yield ThreatLine(id="threats")
            with Vertical(id="right"):
                yield PlayPanel()
                yield HintPanel(id="hints")
                yield GameLog()
        yield KeyBar()

    def seat_order(self, view: PlayerView) -> list[int]:
        """Your tower first, then the others in turn order."""
        me = self.client.seat or 0
        return [(me + k) % len(view.seats) for k in range(len(view.seats))]

    async def lay_out(self) -> None:
        self.query_one(PlayPanel).border_title = _("Play")
        self.query_one(HintPanel).border_title = _("Hints (h)")

    # -- drawing ------------------------------------------------------------
    async def refresh_table(self) -> None:
        view = self.client.view()
        seat = self.client.seat
        names = [s.name for s in view.seats]
        reason, entries = self.client.log()
        if self.picked is not None and (view.hand != self.picked_hand or not view.my_turn):
            self.picked = None  # the hand changed under the pick (a new turn, a seat)
        self.cursor = min(self.cursor, max(len(view.hand) - 1, 0))
        card = view.hand[self.picked] if self.picked is not None else None
        self.choices = choices_for(card, view, self.client.refusal) if card else []
        turn = turn_text(view, names, self.client.human_seats, reason)
        problem = self.client.problem()
        if problem is not None:
            turn = Text(f" {problem} " + (_("(q quits) ") if self.client.table.bot_error else ""),
                        style="bold white on red")
        self.query_one(StatusBar).show(view, self.status_extras(turn, seat is None))
        self.draw_towers(view, seat, names)
        self.query_one(PilesLine).show(view)
        self.draw_hand(view)
        self.query_one(PlayPanel).show(self.play_head(view, names), card, self.choices,
                                       self.notice, self.notice_bad)
        self.query_one(GameLog).show(log_lines(entries, seat, self.host.chat_lines(),
                                               self.client.stand_in_moves()))
        self.draw_hints(view)
        keys = (view.my_turn, self.picked is None, view.over)
        if keys != self.binding_keys:
            self.binding_keys = keys
            self.refresh_bindings()
        if self.show_hints and self.hint_version != self.client.version:
            self.load_hint(self.client.version)
        self.alert(not view.over and view.to_move in self.client.human_seats)
        if view.over and not self.ended:
            self.ended = True
            self.app.call_later(self.host.show_end)

    def play_head(self, view: PlayerView, names: list[str]) -> Text:
        if view.over:
            return Text(_("The game is over: r shows the result."), style="bold")
        if self.client.seat is None:
            return Text(_("You are watching."), style="dim")
        if not view.my_turn:
            return Text(_("Wait for your turn."), style="dim")
        if self.picked is not None:
            return Text("")
        out = Text(_("Pick a card: "), style="bold")
        out.append("1-9", style="bold green")
        out.append(_(", ←→ enter or click.\n"))
        out.append("e", style="bold green")
        out.append(_(" ends the turn."))
        return out

    def draw_towers(self, view: PlayerView, seat: int | None, names: list[str]) -> None:
        seats = self.client.seats()
        for s, sv in enumerate(view.seats):
            marks: dict[int | None, int] = {}
            for n, choice in enumerate(self.choices):
                if choice.legal and choice.seat == s and choice.floor not in marks:
                    marks[choice.floor] = n + 1
            title = names[s] + (_(" (you)") if s == seat and names[s] != "You" else "")
            title += away_mark(seats[s])
            self.query_one(f"#tower{s}", TowerBoard).show(sv, view.floors_to_win, title,
                                                           view.to_move == s, marks)

    def draw_hand(self, view: PlayerView) -> None:
        if self.client.seat is None:
            self.title_hand(_("Watching"))
            self.query_one(HandRow).show((), None, None, {}, _("hands are secret"))
            return
        self.title_hand(_("Your hand ({count})").format(count=len(view.hand)))
        marks = {}
        for n, choice in enumerate(self.choices):
            if choice.legal and choice.partner is not None:
                at = self.partner_index(view, choice)
                if at is not None:
                    marks[at] = n + 1
        cursor = self.cursor if view.my_turn and self.picked is None else None
        self.query_one(HandRow).show(view.hand, self.picked, cursor, marks)

    def title_hand(self, title: str) -> None:
        # Setting even the same title repaints the box and the hand in it:
        # on every viewer's screen, on every move at the table.
        if title != self.hand_title:
            self.hand_title = title
            self.query_one("#hand-box", Vertical).border_title = title

    def partner_index(self, view: PlayerView, choice: Choice) -> int | None:
        """Where a build's partner card is in the hand (not the picked card itself)."""
        for i, c in enumerate(view.hand):
            if c is choice.partner and i != self.picked:
                return i
        return None

    def draw_hints(self, view: PlayerView) -> None:
        panel = self.query_one(HintPanel)
        panel.display = self.show_hints
        if self.show_hints:
            current = self.hint_version == self.client.version
            hint: Hint | None = self.hint if current else self.client.known_hint()
            panel.show(view, hint, hint is None, self.advice if current else None,
                       current and self.advice_busy)
        self.query_one(ThreatLine).show(threats(view) if self.show_hints else "")

    def draw_hint(self) -> None:
        if self.showing():
            self.draw_hints(self.client.view())

    # -- acting -------------------------------------------------------------
    def allows(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in WATCHER_LOCKED and self.client.seat is None:
            return False  # a watcher's keys: no picks, no plays, no hints
        if action == "results":
            return self.client.view().over
        if action == "end_turn":
            return None if not self.client.my_turn() else True
        if action == "back":
            return self.picked is not None
        return super().allows(action, parameters)

    def say(self, notice: str, bad: bool = False) -> None:
        self.notice, self.notice_bad = notice, bad

    async def pick(self, index: int) -> None:
        view = self.client.view()
        if not view.my_turn:
            self.say(_("it is not your turn"), True)
        elif 0 <= index < len(view.hand):
            self.picked, self.picked_hand = index, view.hand
            self.cursor = index
            self.say("")
        else:
            self.say(_("there is no card {number} in your hand").format(number=index + 1), True)
        await self.refresh_table()

    async def choose(self, choice: Choice) -> None:
        if not choice.legal:
            self.say(choice.refusal or "", True)
        else:
            await self.play(choice.action)
        await self.refresh_table()

    async def play(self, action: Action) -> None:
        try:
            await self.client.submit(action)
        except ActionRefused as exc:  # the rules' or the table's (nothing changed)
            self.say(str(exc), True)
            return
        self.picked = None
        self.say("")

    async def action_digit(self, n: int) -> None:
        index = 9 if n == 0 else n - 1
        if self.picked is None:
            await self.pick(index)
        elif index < len(self.choices):
            await self.choose(self.choices[index])
        else:
            self.say(_("there is no option {number}").format(number=n), True)
            await self.refresh_table()

    async def action_hand(self, delta: int) -> None:
        size = len(self.client.view().hand)
        if self.picked is None and size:
            self.cursor = (self.cursor + delta) % size
            await self.refresh_table()

    def action_option(self, delta: int) -> None:
        if self.choices:
            self.query_one(PlayPanel).move(delta)

    async def action_confirm(self) -> None:
        if self.picked is None:
            await self.pick(self.cursor)
            return
        index = self.query_one(PlayPanel).highlighted()
        if index is not None and 0 <= index < len(self.choices):
            await self.choose(self.choices[index])

    async def action_back(self) -> None:
        self.picked = None
        self.say("")
        await self.refresh_table()

    async def action_end_turn(self) -> None:
        seat = self.client.seat
        if seat is None or not self.client.my_turn():
            return
        self.picked = None
        await self.play(End(seat))
        await self.refresh_table()

    async def on_hand_card_clicked(self, message: HandCardClicked) -> None:
        if self.picked is None or message.index == self.picked:
            if self.picked is None:
                await self.pick(message.index)
            else:
                await self.action_back()
            return
        view = self.client.view()
        card = view.hand[message.index]
        partner = [c for c in self.choices if c.partner is card]
        if partner:
            await self.choose(partner[0])
        else:
            await self.pick(message.index)

    async def on_floor_clicked(self, message: FloorClicked) -> None:
        view = self.client.view()
        if self.picked is None:
            self.say(_("pick a card from your hand first") if view.my_turn else "", bool(view.my_turn))
            await self.refresh_table()
            return
        choice = choice_at(self.choices, message.seat, message.floor)
        if choice is None:
            card = view.hand[self.picked]
            self.say(_("{card} does nothing to {name}'s tower there").format(
                card=label(card), name=view.seats[message.seat].name), True)
            await self.refresh_table()
            return
        await self.choose(choice)

    async def on_choice_picked(self, message: ChoicePicked) -> None:
        if 0 <= message.index < len(self.choices):
            await self.choose(self.choices[message.index])

    def action_help(self) -> None:
        from fivetowers.games.gotown.tui.screens.help import HelpScreen
        self.app.push_screen(HelpScreen(self.host.in_lobby))
