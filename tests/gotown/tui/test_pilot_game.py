"""A whole GoTown game at the keyboard against a bot, to the end screen and
"play again": the player reads the play panel as a person would and presses
keys only (digits, arrows, enter, e, n)."""

from __future__ import annotations

from typing import Callable

from textual.pilot import Pilot

from fivetowers.games.gotown.client import LocalClient
from fivetowers.games.gotown.rules import End
from fivetowers.games.gotown.tui.app import GoTownApp
from fivetowers.games.gotown.tui.screens.end import GoTownEndScreen
from fivetowers.games.gotown.tui.screens.table import GoTownTableScreen
from tests.gotown.tui.helpers import local, settle

MAX_KEYS = 6000  # a game is a few hundred plays; this only stops a broken loop
PLAYS_PER_TURN = 12


async def pick_card(pilot: Pilot[None], screen: GoTownTableScreen, index: int) -> None:
    if index < 10:
        await pilot.press(str((index + 1) % 10))
        return
    while screen.cursor != index:  # beyond the digits: along the hand with the arrows
        await pilot.press("right")
    await pilot.press("enter")


async def play_a_turn(pilot: Pilot[None], client: LocalClient) -> int:
    """Play the first legal option of the first card that has one, again and
    again; then end the turn. Returns the keys pressed."""
    screen = pilot.app.screen
    assert isinstance(screen, GoTownTableScreen)
    pressed, plays = 0, 0
    while plays < PLAYS_PER_TURN and client.my_turn():
        for index in range(len(client.view().hand)):
            await pick_card(pilot, screen, index)
            pressed += 1
            legal = [n for n, c in enumerate(screen.choices) if c.legal]
            if legal:
                # the marks on screen are the option numbers: press the first one's
                for _ in range(legal[0]):
                    await pilot.press("down")
                await pilot.press("enter")
                pressed += legal[0] + 1
                plays += 1
                await settle(pilot)
                break
            await pilot.press("escape")
            pressed += 1
        else:
            break  # no card can do anything legal
    if client.my_turn():
        await pilot.press("e")
        pressed += 1
        await settle(pilot)
    return pressed


async def play_to_the_end(pilot: Pilot[None], client: LocalClient,
                          each_turn: Callable[[], None] = lambda: None) -> None:
    """Turn after turn by keys until the game is over; ``each_turn()`` looks
    at the screen before each of the human's turns."""
    keys = 0
    while not client.table.game.over and keys < MAX_KEYS:
        assert client.my_turn(), "the screen waits for the human between bots' turns"
        each_turn()
        keys += await play_a_turn(pilot, client)
    assert client.table.game.over, f"no end after {keys} keys"


async def test_a_whole_game_against_a_bot_by_keys_alone() -> None:
    client = local(seed=11, players=2, bots=1, short=True)
    app = GoTownApp(client, lambda: local(seed=12, players=2, bots=1, short=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_to_the_end(pilot, client)
        game = client.table.game
        assert any(a.seat == 0 and not isinstance(a, End) for a in game.actions)
        await settle(pilot)
        assert isinstance(app.screen, GoTownEndScreen)
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, GoTownTableScreen)
        assert app.client is not client and not app.client.table.game.actions \
            or app.client.table.game.actions[0].seat == 0


async def test_two_humans_share_the_terminal() -> None:
    client = local(seed=5, players=2, bots=0)
    app = GoTownApp(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert client.seat == 0
        await pilot.press("e")
        await settle(pilot)
        assert client.seat == 1 and client.my_turn()
        screen = app.screen
        assert isinstance(screen, GoTownTableScreen)
        status = str(screen.query_one("#status").render())
        assert "Player 2: your turn" in status
