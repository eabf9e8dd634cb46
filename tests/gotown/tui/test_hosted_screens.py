"""GoTown's screens through the platform's protocol, on a live Table, as a
lobby session shows them: ``GAME.screens()`` and a TableHost."""

from __future__ import annotations

from fivetowers.games.gotown.kind import GAME
from fivetowers.games.gotown.rules import Build, Game
from fivetowers.games.gotown.tui.screens.table import GoTownTableScreen
from fivetowers.games.gotown.tui.widgets.tower_board import TowerBoard
from tests.gotown.tui.helpers import Host, ScreenApp, settle, table_of


def first_build_seed() -> int:
    """A seed whose first player can build at once."""
    for seed in range(200):
        game = Game(["Ann", "Bo"], seed=seed)
        if any(isinstance(a, Build) for a in game.legal_actions()):
            return seed
    raise AssertionError("no seed lets seat 0 build on its first turn")


async def test_the_table_screen_plays_a_live_table_by_keys() -> None:
    game = Game(["Ann", "Bo"], seed=first_build_seed())
    table = table_of(game, {1: "greedy"})
    host = Host()
    screen = GAME.screens().table_screen(table, 0, host, True)
    assert isinstance(screen, GoTownTableScreen)
    app = ScreenApp(table, screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        build = next(a for a in game.legal_actions() if isinstance(a, Build))
        hand = list(game.view(0).hand)
        first = hand.index(build.cards[0])
        await pilot.press(str(first + 1))
        choice = next(i for i, c in enumerate(screen.choices)
                      if c.legal and c.partner is build.cards[1])
        await pilot.press(str(choice + 1))
        await settle(pilot)
        assert len(table.game.players[0].floors) == 1
        assert table.game.actions[0] == build or set(table.game.actions[0].cards) == set(build.cards)
        assert screen.query_one("#tower0", TowerBoard).tower == table.game.view(0).seats[0]
        await pilot.press("c", "q")
        assert host.asked == ["chat", "leave"]


async def test_a_watcher_sees_no_hand_and_cannot_play() -> None:
    game = Game(["Ann", "Bo"], seed=1)
    table = table_of(game, {1: "greedy"})  # Ann (a human elsewhere) is to play
    screen = GAME.screens().table_screen(table, None, Host(), True)
    app = ScreenApp(table, screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1", "1", "enter", "e")
        await settle(pilot)
        assert table.version == 0 and not table.game.actions
        assert str(screen.query_one("#hand-box").border_title) == "Watching"
