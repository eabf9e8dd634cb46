"""A kept GoTown game in its replay viewer: step by step, each step's plays
in words, a thief's card named only for those who knew it."""

from __future__ import annotations

import random

from textual.app import App
from textual.widgets import Static

from fivetowers.games.gotown.bots import make_bot
from fivetowers.games.gotown.kind import GAME
from fivetowers.games.gotown.rules import Game, Thief
from fivetowers.games.gotown.tui.widgets.tower_board import TowerBoard


class ReplayApp(App[None]):
    def __init__(self, screen_maker: object) -> None:
        super().__init__()
        self.maker = screen_maker

    def on_mount(self) -> None:
        self.push_screen(self.maker())  # type: ignore[operator]


def played_with_a_thief() -> tuple[Game, int]:
    """A greedy game to its end and the number of its first thief's action."""
    for seed in range(50):
        game = Game(["Ann", "Bo"], seed=seed)
        bot, rng = make_bot("greedy"), random.Random(seed)
        while not game.over:
            game.apply(bot.choose(game.view(game.to_move), rng))
        thieves = [i for i, a in enumerate(game.actions) if isinstance(a, Thief)]
        if thieves:
            return game, thieves[0]
    raise AssertionError("no greedy game played a thief")


async def test_the_replay_steps_through_a_kept_game() -> None:
    game, at = played_with_a_thief()
    thief = game.actions[at]
    assert isinstance(thief, Thief) and thief.took is not None
    screens = GAME.screens()
    history = screens.replay(game.record_json())
    assert len(history) == len(game.actions) + 1
    for seat, knows in ((thief.seat, True), (None, False)):
        app = ReplayApp(lambda: screens.replay_screen(history, 7, ["Ann", "Bo"], seat))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(at + 1):
                await pilot.press("right")
            await pilot.pause()
            step = str(app.screen.query_one("#replay-step", Static).render())
            assert "thief takes" in step
            assert (thief.took.words in step) is knows and ("a card" in step) is not knows
            await pilot.press("end")
            await pilot.pause()
            tower = app.screen.query_one("#tower0", TowerBoard).tower
            assert tower == game.view(seat).seats[0]
            assert "step" in str(app.screen.query_one("#replay-status", Static).render())
