"""The table screen: the display, every player's towers, bidding, building,
hints and the log, for whichever human seat is to act at this terminal.

Whatever hosts the table (``fivetowers play``, a lobby session) comes in as
a :class:`~fivetowers.games.screens.TableHost`: it decides what q does, whether
c chats, and shows the end screen."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import OptionList

from fivetowers.games.five_towers.rules import TYPES, Phase, PlayerView, SeatView
from fivetowers.games.protocol import ActionRefused
from fivetowers.games.five_towers.solver.plans import Hint
from fivetowers.games.five_towers.client import TableClient
from fivetowers.games.screens import TableHost
from fivetowers.games.five_towers.tui.build_guide import BuildGuide
from fivetowers.games.five_towers.tui.log_lines import log_lines
from fivetowers.games.five_towers.tui.look import name_text
from fivetowers.games.five_towers.tui.messages import DisplayCardClicked, StepPicked
from fivetowers.games.five_towers.tui.widgets.display_row import DisplayRow
from fivetowers.games.five_towers.tui.widgets.game_log import GameLog
from fivetowers.games.five_towers.tui.widgets.hint_panel import HintPanel
from fivetowers.games.five_towers.tui.widgets.opponent_grid import OpponentGrid
from fivetowers.games.five_towers.tui.widgets.phase_panel import PhasePanel
from fivetowers.games.five_towers.tui.widgets.status_bar import StatusBar
from fivetowers.games.five_towers.tui.widgets.tower_board import TowerBoard
from fivetowers.games.five_towers.tui.words import refusal_words
from fivetowers.i18n import N_, _
from fivetowers.ui.key_bar import KeyBar
from fivetowers.ui.live_table import LiveTableScreen, away_mark

BUILD_ACTIONS = {"teardown", "pay", "confirm", "accept", "undo"}
class TableScreen(LiveTableScreen[TableClient]):
    TITLES = ("5 Towers", N_("5 Towers — your turn"))
    BINDINGS = [
        Binding("0", "digit(0)", N_("bid / pick"), key_display="0-9"),
        *[Binding(str(d), f"digit({d})", show=False) for d in range(1, 10)],
        Binding("p", "pass_bid", N_("pass")),
        Binding("t", "teardown", N_("teardown")),
        Binding("y", "pay", N_("pay tree")),
        Binding("enter", "confirm", N_("confirm")),
        Binding("up", "cursor(-1)", show=False),
        Binding("down", "cursor(1)", show=False),
        Binding("a", "accept", N_("hint plan")),
        Binding("u", "undo", N_("undo")),
        Binding("backspace", "undo", show=False),
        Binding("h", "toggle_hints", N_("hints")),
        Binding("s", "toggle_scores", N_("scores")),
        Binding("o", "opponents", N_("more players")),
        Binding("e", "results", N_("results")),
        Binding("question_mark", "help", N_("help"), key_display="?"),
        Binding("q", "quit", N_("quit")),
        Binding("q", "leave", N_("lobby")),
        Binding("c", "chat", N_("chat")),
        # Last: at 80 columns the build's keys fill the line before these.
        Binding("v", "plans", N_("plans")),
        Binding("b", "toggle_alerts", N_("bell")),
    ]

    def start_state(self) -> None:
        super().start_state()
        self.show_breakdown = False
        self.guide: BuildGuide | None = None
        self.bid_notice = ""
        self.bid_digits = ""

    def new_game(self) -> None:
        self.query_one("#opponents", VerticalScroll).scroll_home(animate=False)

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield DisplayRow()
                yield TowerBoard(large=True, id="mine")
                yield VerticalScroll(id="opponents")
            with Vertical(id="right"):
                yield PhasePanel()
                yield HintPanel(id="hints")
                yield GameLog()
        yield KeyBar()

    async def lay_out(self) -> None:
        opponents = self.query_one("#opponents", VerticalScroll)
        count = len(self.client.view().seats) - 1
        # Two opponents a row: readable at 80 columns; with 3-4 the second row
        # scrolls into view at 80x24 (`o`, or the mouse wheel).
        grid = OpponentGrid(id="opponent-grid")
        grid.styles.grid_size_columns = min(count, 2)
        await opponents.mount(grid)
        await grid.mount_all(TowerBoard(large=False, id=f"opp{i}") for i in range(count))
        self.query_one(PhasePanel).make_room(count + 1)
        self.query_one(HintPanel).border_title = _("Hints (h) · v: in full")

    # -- drawing ------------------------------------------------------------
    def names(self) -> list[str]:
        return [s.name for s in self.client.seats()]

    async def refresh_table(self) -> None:
        view = self.client.view()
        seat = self.client.seat
        names = self.names()
        my_build = view.phase is Phase.BUILD and view.to_move == seat and seat is not None
        if my_build and self.guide is None:
            session = self.client.build_session()
            self.guide = BuildGuide(session) if session is not None else None
        elif not my_build:
            self.guide = None
        turn = self.turn_text(view, names)
        problem = self.client.problem()
        if problem is not None and self.client.table.bot_error is None:
            # The store cannot save for now: the table goes on once it can.
            turn = Text(f" {problem} ", style="bold black on yellow")
        elif problem is not None:
            leave = _("q: back to the lobby") if self.host.in_lobby else _("q quits")
            turn = Text(f" {problem} ({leave}) ", style="bold white on red")
        turn = self.status_extras(turn, seat is None)
        self.query_one(StatusBar).show(view, turn, view.variant.value)
        picked = self.guide.picked if self.guide else set()
        self.query_one(DisplayRow).show(view.display, picked)
        self.draw_boards(view, seat, names)
        self.draw_panels(view, seat, names)
        self.query_one(GameLog).show(log_lines(view.log, self.host.chat_lines(),
                                               self.client.stand_in_moves()))
        keys = (view.phase, self.guide is None, bool(self.bid_digits), self.show_hints,
                self.guide.max_pay() if self.guide else 0)
        # The footer rebuilds all its keys (a dozen widgets) when they change:
        # only when the phase or the build does, never once per bid.
        if keys != self.binding_keys:
            self.binding_keys = keys
            self.refresh_bindings()
        if self.show_hints and self.hint_version != self.client.version:
            self.load_hint(self.client.version)
        self.alert(view.phase is not Phase.OVER and view.to_move in self.client.human_seats)
        if view.phase is Phase.OVER and not self.ended:
            self.ended = True
            self.app.call_later(self.host.show_end)

    def turn_text(self, view: PlayerView, names: list[str]) -> Text:
        if view.phase is Phase.OVER or view.to_move is None:
            return Text(" " + _("game over") + " ", style="bold reverse")
        who = view.to_move
        bidding = view.phase is Phase.BID
        if who in self.client.human_seats:
            text = Text(" ▶ ", style="bold black on #ffd75f")
            if len(self.client.human_seats) > 1:
                text.append_text(name_text(names[who], "bold black on #ffd75f"))
                said = _(": your turn to bid") if bidding else _(": your turn to build")
                text.append(said + " ", style="bold black on #ffd75f")
            else:
                said = _("YOUR TURN to bid") if bidding else _("YOUR TURN to build")
                text.append(said + " ", style="bold black on #ffd75f")
            return text
        text = name_text(names[who], "bold")
        text.append(" " + (_("is bidding…") if bidding else _("is building…")), style="italic")
        return text

    def draw_boards(self, view: PlayerView, seat: int | None, names: list[str]) -> None:
        me = seat if seat is not None else 0
        mine = view.seats[me]
        own = view.own_teardown
        if self.guide is not None:  # show the build in progress, step by step
            building = self.guide.session.board
            mine = SeatView(mine.name, {t: tuple(building.towers[t]) for t in TYPES},
                            len(building.teardown), building.score(view.variant.powers))
            own = tuple(building.teardown)
        self.query_one("#mine", TowerBoard).show(
            mine, _("{name} — your towers").format(name=names[me]) if seat is not None
            else names[me],
            own, self.show_breakdown, view.to_move == me)
        others = [(me + k) % len(view.seats) for k in range(1, len(view.seats))]
        seats = self.client.seats()
        for i, other in enumerate(others):
            board = self.query_one(f"#opp{i}", TowerBoard)
            note = ""
            if self.show_hints and view.phase is Phase.BID:  # public: their highest safe bid
                note = _("bid≤{amount}").format(amount=view.max_bids[other])
            title = names[other] + away_mark(seats[other])
            board.show(view.seats[other], title, None, self.show_breakdown,
                       view.to_move == other, note)

    def draw_panels(self, view: PlayerView, seat: int | None, names: list[str]) -> None:
        # One panel for both phases, of one height: a phase change repaints it.
        phase = self.query_one(PhasePanel)
        if view.phase is Phase.BID:
            phase.show_bids(view, names, seat, self.bid_notice, len(self.client.human_seats) > 1)
        elif view.phase is Phase.BUILD and view.to_move is not None:
            phase.show(self.guide, name_text(names[view.to_move]))
        else:
            phase.show_over()
        hints = self.query_one(HintPanel)
        hints.display = self.show_hints
        if self.show_hints:
            hint = self.current_hint()
            current = self.hint_version == self.client.version
            hints.show(view, seat, names, hint, hint is None, self.advice if current else None,
                       current and self.advice_busy)

    def current_hint(self) -> Hint | None:
        """The hint for the table as it is now, if known: an older position's
        hint is not this one's (the panel says "thinking…" until it comes)."""
        if self.hint_version == self.client.version:
            known: Hint | None = self.hint
            return known
        return self.client.known_hint()  # the same position, or another viewer asked

    def draw_hint(self) -> None:
        panel = self.hint_panel()
        if panel is not None:
            panel.show(self.client.view(), self.client.seat, self.names(), self.hint, False,
                       self.advice, self.advice_busy)

    def hint_panel(self) -> HintPanel | None:
        """The hint panel, or None once the screen is closing: a hint or advice
        that comes back from the workers after that has nowhere to go."""
        if not self.showing():
            return None
        try:
            return self.query_one(HintPanel)
        except NoMatches:
            return None

    # -- acting -------------------------------------------------------------
    def allows(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("chat", "quit", "leave"):
            return super().allows(action, parameters)
        if action == "confirm" and self.bid_digits:
            return True
        if action in ("digit", "pass_bid", "toggle_alerts") \
                and self.client.seat is None:
            return False  # a watcher's keys: no bids, no picks, no turn of their own
        if action == "digit":  # bids and picks: nothing to bid or pick once it is over
            return self.client.view().phase is not Phase.OVER
        if action in BUILD_ACTIONS:
            if action == "pay" and (self.guide is None or not self.guide.max_pay()):
                return False
            return self.guide is not None
        if action == "plans":  # the hint's plans in full: for a player, hints on
            return (self.show_hints and self.client.seat is not None
                    and self.client.view().phase is not Phase.OVER)
        if action == "opponents":
            return len(self.client.view().seats) > 3
        if action == "results":
            return self.client.view().phase is Phase.OVER
        if action == "pass_bid":
            # Listed all through the bidding, so the footer stays put from bid
            # to bid; a pass the rules refuse says why in the bidding panel.
            return self.client.view().phase is Phase.BID
        return super().allows(action, parameters)

    async def action_digit(self, n: int) -> None:
        view = self.client.view()
        seat = self.client.seat
        if view.phase is Phase.BID and seat is not None and view.to_move == seat:
            typed = self.bid_digits + str(n)
            # Great Powers bids can pass 9: wait for a second digit when one could follow.
            if any(len(str(b)) > len(typed) and str(b).startswith(typed)
                   for b in view.legal_bids):
                self.bid_digits = typed
                self.bid_notice = _("bid {typed}…: type a second digit, or enter for {typed}"
                                    ).format(typed=typed)
                await self.refresh_table()
                return
            self.bid_digits = ""
            await self.submit_bid(int(typed))
        elif self.guide is not None:
            if not self.guide.chosen:
                self.guide.toggle(n - 1)
            else:
                options = self.query_one(PhasePanel).options
                if 1 <= n <= len(options):
                    self.guide.pick(options[n - 1])
                else:
                    self.guide.say(_("there is no card {number} to place").format(number=n), True)
            await self.refresh_table()

    async def submit_bid(self, n: int) -> None:
        from fivetowers.games.five_towers.rules import Bid
        seat = self.client.seat
        assert seat is not None
        try:
            await self.client.submit(Bid(seat, n))
            self.bid_notice = ""
        except ActionRefused as exc:  # the rules' or the table's (not kept)
            self.bid_notice = refusal_words(exc)
            await self.refresh_table()

    async def action_pass_bid(self) -> None:
        from fivetowers.games.five_towers.rules import Pass
        seat = self.client.seat
        if seat is None or not self.client.my_turn():
            return
        try:
            await self.client.submit(Pass(seat))
            self.bid_notice = ""
        except ActionRefused as exc:  # the rules' or the table's (not kept)
            self.bid_notice = refusal_words(exc)
            await self.refresh_table()

    async def on_display_card_clicked(self, message: DisplayCardClicked) -> None:
        if self.guide is not None:
            self.guide.toggle(message.index)
            await self.refresh_table()

    async def on_step_picked(self, message: StepPicked) -> None:
        options = self.query_one(PhasePanel).options
        if self.guide is not None and 0 <= message.index < len(options):
            self.guide.pick(options[message.index])
            await self.refresh_table()

    async def action_cursor(self, delta: int) -> None:
        steps = self.query_one("#steps", OptionList)
        if self.guide is not None and self.guide.chosen:
            if delta > 0:
                steps.action_cursor_down()
            else:
                steps.action_cursor_up()

    async def action_teardown(self) -> None:
        if self.guide is not None:
            self.guide.cycle_teardown()
            await self.refresh_table()

    async def action_pay(self) -> None:
        if self.guide is not None:
            self.guide.cycle_pay()
            await self.refresh_table()

    async def action_confirm(self) -> None:
        guide = self.guide
        if self.bid_digits:
            typed, self.bid_digits = self.bid_digits, ""
            await self.submit_bid(int(typed))
            return
        if guide is None:
            return
        if not guide.chosen:
            guide.confirm_choice()
        elif not guide.session.done:
            index = self.query_one("#steps", OptionList).highlighted
            options = self.query_one(PhasePanel).options
            if index is not None and 0 <= index < len(options):
                guide.pick(options[index])
        else:
            seat = self.client.seat
            assert seat is not None
            build = guide.finish(seat)
            if build is not None:
                try:
                    await self.client.submit(build)
                except ActionRefused as exc:  # the rules' or the table's (not kept)
                    guide.say(refusal_words(exc), True)
                else:
                    self.guide = None
        await self.refresh_table()

    async def action_accept(self) -> None:
        if self.guide is None:
            return
        view = self.client.view()
        hint = self.current_hint()
        if hint is None:
            self.guide.say(_("the hint is still thinking; try again in a moment"), True)
        elif view.high_bid is not None:
            self.guide.accept(hint.plans[view.high_bid])
        await self.refresh_table()

    async def action_undo(self) -> None:
        if self.guide is not None:
            self.guide.undo()
            await self.refresh_table()

    async def action_toggle_scores(self) -> None:
        self.show_breakdown = not self.show_breakdown
        await self.refresh_table()

    def action_opponents(self) -> None:
        """Scroll the opponents' boards a page, back to the top after the last."""
        area = self.query_one("#opponents", VerticalScroll)
        if area.scroll_y >= area.max_scroll_y:
            area.scroll_home(animate=False)
        else:
            area.scroll_page_down(animate=False)

    def action_plans(self) -> None:
        from fivetowers.games.five_towers.tui.screens.plans import PlansScreen, plans_text
        seat = self.client.seat
        if seat is None:
            return
        current = self.hint_version == self.client.version
        self.app.push_screen(PlansScreen(plans_text(
            self.client.view(), seat, self.names(), self.current_hint(),
            self.advice if current else None, current and self.advice_busy)))

    def action_help(self) -> None:
        from fivetowers.games.five_towers.tui.screens.help import HelpScreen
        self.app.push_screen(HelpScreen(self.host.in_lobby))
