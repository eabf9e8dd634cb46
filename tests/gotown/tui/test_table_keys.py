"""The table by mouse and by keys: clicks pick cards and targets, a refused
play shows the engine's reason in place, the key bar offers `e`, `?` opens
the help, and a terminal below 80x24 is told so."""

from __future__ import annotations

from textual.widgets import Markdown

from fivetowers.games.gotown.rules import Floor, Piece, Steal
from fivetowers.games.gotown.tui.app import GoTownApp
from fivetowers.games.gotown.tui.screens.help import HelpScreen
from fivetowers.games.gotown.tui.screens.table import GoTownTableScreen
from fivetowers.games.gotown.tui.widgets.hand_row import HandRow
from fivetowers.games.gotown.tui.widgets.tower_board import TowerBoard
from fivetowers.ui.key_bar import KeyBar
from fivetowers.ui.too_small import TooSmallScreen
from tests.gotown.tui.helpers import app_for, client_for, played_until, settle, table_screen


def can_steal(game: object) -> bool:
    return any(isinstance(a, Steal) for a in game.legal_actions())  # type: ignore[attr-defined]


async def test_a_click_on_a_card_then_on_a_tower_steals() -> None:
    game = played_until(2, 3, lambda g, _: can_steal(g))
    steal = next(a for a in game.legal_actions() if isinstance(a, Steal))
    client = client_for(game)
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table_screen(app)
        index = client.view().hand.index(steal.card)
        start, _ = screen.query_one(HandRow).spots[index]
        await pilot.click(HandRow, offset=(start + 1, 0))
        assert screen.picked == index
        target = screen.query_one(f"#tower{steal.target}", TowerBoard)
        top = len(game.players[steal.target].floors) - 1
        assert target.marks.get(top) is not None  # the legal target is marked
        before = len(client.table.game.players[0].floors)
        await pilot.click(f"#tower{steal.target}", offset=(3, 1 + game.floors_to_win - 1 - top))
        await settle(pilot)
        assert len(client.table.game.players[0].floors) == before + 1
        assert client.table.game.actions[-1] == steal


async def test_a_refused_click_shows_the_engines_reason_and_changes_nothing() -> None:
    game = played_until(2, 3, lambda g, _: any(c.number for c in g.players[0].hand))
    game.players[1].floors = [Floor(Piece(1), Piece(8))]
    game.players[1].dogs = {0}
    client = client_for(game)
    async with app_for(client).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        index = next(i for i, c in enumerate(client.view().hand) if c.number)
        await pilot.press(str(index + 1))
        version = client.version
        await pilot.click("#tower1", offset=(3, game.floors_to_win))  # floor 1
        await settle(pilot)
        assert client.version == version
        screen = table_screen(pilot.app)
        assert screen.notice_bad and "has a dog" in screen.notice
        assert "has a dog" in str(screen.query_one("#play-text").render())


async def test_the_key_bar_offers_end_turn_and_help_opens() -> None:
    game = played_until(2, 2, lambda g, _: True)
    app = GoTownApp(client_for(game))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "e end turn" in app.screen.query_one(KeyBar).line.plain
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one(Markdown).source
        assert "`e`" in text and "Wreck" in text and "milkshake" in text
        await pilot.press("escape")
        assert isinstance(app.screen, GoTownTableScreen)


async def test_a_small_terminal_gets_the_notice_and_its_keys_do_not_play() -> None:
    game = played_until(2, 2, lambda g, _: True)
    client = client_for(game)
    app = GoTownApp(client)
    async with app.run_test(size=(70, 20)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TooSmallScreen)
        notice = str(app.screen.query_one("#too-small").render())
        assert "70x20" in notice and "80x24" in notice
        assert client.my_turn()
        version = client.version
        await pilot.press("1", "1", "enter", "e")  # nothing reaches the table
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert isinstance(app.screen, GoTownTableScreen)
        assert client.version == version and client.my_turn()
        assert table_screen(app).picked is None
