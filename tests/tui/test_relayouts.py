"""A table change repaints the widgets it changes and lays out the screen
only when a widget's size must change (issue 11: at a hosted table a full
layout per viewer per move was most of the server's CPU)."""

from __future__ import annotations

import threading
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import OptionList, Static

from fivetowers.games.five_towers.client import LocalClient
from fivetowers.games.five_towers.rules import (TYPES, Bid, Game, Pass, Phase, Position, Score,
                                                SeatView, Variant)
from fivetowers.games.five_towers.solver import exhaustive_hint
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.games.five_towers.tui.widgets.game_log import GameLog
from fivetowers.games.five_towers.tui.widgets.hint_panel import HintPanel
from fivetowers.games.five_towers.tui.widgets.tower_board import TowerBoard
from fivetowers.tables.seats import Seat
from fivetowers.ui.styles import stylesheet
from fivetowers.tables.table import Table

from tests.tui.helpers import app_for, held_hints_client, passive_client, settle


def spy_layouts(widget: Any) -> list[bool]:
    """Every ``refresh(layout=True)`` the widget is asked for from now on."""
    asked: list[bool] = []
    refresh = widget.refresh

    def spied(*regions: Any, **kwargs: Any) -> Any:
        if kwargs.get("layout"):
            asked.append(True)
        return refresh(*regions, **kwargs)
    widget.refresh = spied
    return asked


async def test_the_hint_panel_keeps_its_height_while_thinking() -> None:
    release = threading.Event()
    client = held_hints_client(release)
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(HintPanel)
        log = app.screen.query_one(GameLog)
        assert "Your highest safe bid" in str(panel.content)
        tall = panel.region.height  # the bidding hint's height
        hint = await client.hint()
        assert hint is not None
        await client.submit(Bid(0, hint.max_bid))
        if client.table.game.to_move == 1:
            await client.submit(Pass(1))
        await client.submit(hint.plans[hint.max_bid].to_build(0))
        for _ in range(50):
            await pilot.pause(0.02)
            if "thinking…" in str(panel.content) and client.table.game.phase.value == "bid":
                break
        assert "thinking…" in str(panel.content)
        await pilot.pause(0.05)
        assert panel.region.height == tall  # room kept: the log below stays put
        where = log.region
        asked = spy_layouts(panel)
        release.set()
        for _ in range(200):
            await pilot.pause(0.02)
            if "Your highest safe bid" in str(panel.content):
                break
        assert "Your highest safe bid" in str(panel.content)
        await pilot.pause(0.05)
        assert asked == [] and log.region == where and panel.region.height == tall


async def test_a_redraw_with_the_same_choices_keeps_the_build_list() -> None:
    client = passive_client(Variant.BASE, seed=5)
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1")  # the human outbids the starter's 0; the other bot passes
        await settle(pilot)
        view = client.view()
        assert view.phase is Phase.BUILD and view.to_move == 1
        await pilot.press("a", "u")  # the hint's plan, less its last card: one to place
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.guide is not None
        steps = screen.query_one("#steps", OptionList)
        shown = [str(steps.get_option_at_index(i).prompt) for i in range(steps.option_count)]
        assert shown
        rebuilt: list[bool] = []
        clear = steps.clear_options

        def spied() -> OptionList:
            rebuilt.append(True)
            return clear()
        steps.clear_options = spied  # type: ignore[method-assign]
        await pilot.press("s", "s")  # two redraws of the table, the same choices
        assert rebuilt == []
        assert [str(steps.get_option_at_index(i).prompt)
                for i in range(steps.option_count)] == shown


def spy_screen_layouts(screen: Any) -> list[bool]:
    """Every full layout of ``screen`` from now on (each places every widget)."""
    done: list[bool] = []
    layout = screen._refresh_layout

    def spied(*args: Any, **kwargs: Any) -> Any:
        done.append(True)
        return layout(*args, **kwargs)
    screen._refresh_layout = spied
    return done


async def test_phase_changes_and_hints_lay_out_nothing_for_a_watching_player() -> None:
    """Ann bids, Cy wins and builds, a new round starts, and each position's
    hint comes: Bo's screen (the one watching) repaints its panels and is
    never laid out again; its right-hand column keeps its geometry."""
    names = ["Ann", "Bo", "Cy"]
    game = Game(names, Variant.BASE, seed=3)
    table = Table(game, [Seat(name) for name in names], bot_delay=0)
    client = LocalClient(table, [1], exhaustive_hint)
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        column = [screen.query_one(f"#{name}") for name in ("phase", "hints", "log")]
        where = [w.region for w in column]
        layouts = spy_screen_layouts(screen)
        seen: list[Phase] = []
        builds = 0
        for _ in range(40):
            if builds == 2:
                break
            view = table.game.view(None)
            mover = view.to_move
            assert mover is not None
            seen.append(view.phase)
            hint = exhaustive_hint(Position.from_view(table.game.view(mover)))
            legal = table.game.view(mover)
            if view.phase is Phase.BUILD:
                await table.submit(mover, hint.plans[view.high_bid or 0].to_build(mover))
                builds += 1
            elif mover == 2 and [b for b in legal.legal_bids if 0 < b <= hint.max_bid]:
                # Cy outbids the others with a bid it can build.
                bid = max(b for b in legal.legal_bids if b <= hint.max_bid)
                await table.submit(mover, Bid(mover, bid))
            else:
                await table.submit(mover, Pass(mover) if legal.may_pass else Bid(mover, 0))
            await settle(pilot)
            assert "thinking" not in str(screen.query_one(HintPanel).content)  # it came
        assert builds == 2 and Phase.BID in seen
        assert table.game.phase is Phase.BID  # the third round's bidding
        assert "Your highest safe bid" in str(screen.query_one(HintPanel).content)
        assert layouts == []
        assert [w.region for w in column] == where


class OwnBoard(App[None]):
    CSS = stylesheet()  # the table's: #mine's auto height

    def compose(self) -> ComposeResult:
        yield TowerBoard(large=True, id="mine")
        yield Static("below")


def seat_with(cards: int) -> SeatView:
    """A seat whose first tower holds ``cards`` cards (more than a line shows)."""
    towers = {t: (tuple(range(1, cards + 1)) if i == 0 else ()) for i, t in enumerate(TYPES)}
    return SeatView("Ann", towers, 0, Score(cards, 0, 0, 0))


async def test_your_towers_growing_repaint_your_board_and_lay_out_nothing() -> None:
    """Only the breakdown and your pile change your board's height: a build
    that adds to your towers (a tower is one line, however tall) repaints it."""
    app = OwnBoard()
    async with app.run_test(size=(60, 14)) as pilot:
        board = app.query_one(TowerBoard)
        board.show(seat_with(1), "Ann — your towers", (), False, True)
        await pilot.pause()
        height = board.region.height
        asked = spy_layouts(board)
        for cards in (2, 9, 40):  # 40: more than the line has room for
            board.show(seat_with(cards), "Ann — your towers", (), False, True)
            await pilot.pause()
        assert asked == []
        assert board.region.height == height == board.get_content_height(
            board.region.size, app.screen.size, board.content_region.width) + 2
        board.show(seat_with(40), "Ann — your towers", (), True, True)  # the breakdown
        await pilot.pause()
        assert asked and board.region.height == height + 1  # laid out: one line more
        asked.clear()
        board.show(seat_with(41), "Ann — your towers", (), True, True)
        await pilot.pause()
        assert asked  # with the breakdown shown, a new score may wrap its line


async def test_every_viewer_draws_another_players_board_at_one_width() -> None:
    """At four seats the three other boards sit two a row, beside the
    scrollbar (47 columns at 80x24): both columns are as wide, so a
    player's board is one render for every viewer, whichever column it is
    in on their screen (ui/shared_lines.py)."""
    names = ["Ann", "Bo", "Cy", "Di"]
    table = Table(Game(names, Variant.BASE, seed=3), [Seat(name) for name in names],
                  bot_delay=0)
    app = app_for(LocalClient(table, [1], exhaustive_hint))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        boards = [app.screen.query_one(f"#opp{i}", TowerBoard) for i in range(3)]
        assert boards[0].region.y == boards[1].region.y  # two a row
        assert {board.outer_size for board in boards} == {boards[0].outer_size}
        assert boards[0].outer_size.width == 23  # the floor of an equal share
        await pilot.resize_terminal(86, 24)  # 53 columns: 26 each, one left blank
        await settle(pilot)
        assert {board.outer_size for board in boards} == {boards[0].outer_size}
        assert boards[0].outer_size.width == 26


async def test_the_build_steps_showing_lay_the_screen_out_once() -> None:
    # The steps' list is sized where the layout sizes it (ui/sized_options.py):
    # its first draw with new steps asks for no second layout.
    client = passive_client(Variant.BASE, seed=5)
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1")  # the human outbids the starter's 0; the other bot passes
        await settle(pilot)
        assert client.view().phase is Phase.BUILD and client.view().to_move == 1
        screen = app.screen
        layouts = spy_screen_layouts(screen)
        await pilot.press("a", "u")  # the hint's plan, less its last card: steps show
        for _ in range(5):
            await pilot.pause()
        steps = screen.query_one("#steps", OptionList)
        assert steps.display and steps.option_count
        assert steps.virtual_size.height == steps.option_count
        assert len(layouts) == 1
