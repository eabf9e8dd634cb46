"""A hint or advice that the workers send back after the screen's widgets are
gone (the session ended, the screen closed) is dropped without a word: it
once crashed a hosted session with NoMatches('HintPanel') (issue 11)."""

from __future__ import annotations

import random
import threading

from fivetowers.games.five_towers.rules import Action, Game, PlayerView, Position, Variant
from fivetowers.games.five_towers.solver import Hint, exhaustive_hint
from fivetowers.games.five_towers.client import LocalClient
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table
from fivetowers.tables.workers import Workers
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.games.five_towers.tui.widgets.hint_panel import HintPanel

from tests.tui.helpers import PassiveBot, app_for


def held_hinter(release: threading.Event) -> tuple[list[str], object]:
    asked: list[str] = []

    def hinter(position: Position) -> Hint:
        asked.append(repr(position))
        release.wait(20)
        return exhaustive_hint(position)
    return asked, hinter


async def test_a_hint_that_comes_after_the_hint_panel_is_gone_is_dropped() -> None:
    release = threading.Event()
    asked, hinter = held_hinter(release)
    game = Game(["Ann", "Bo"], Variant.BASE, seed=3)
    table = Table(game, [Seat("Ann"), Seat("Bo")], bot_delay=0, workers=Workers(threads=True))
    client = LocalClient(table, [0, 1], hinter)  # type: ignore[arg-type]
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            if asked:
                break
        assert asked, "the screen never asked for a hint"
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await screen.query_one(HintPanel).remove()  # the widgets go first
        release.set()
        for _ in range(100):
            await pilot.pause(0.02)
            if client.known_hint() is not None:
                break
        assert client.known_hint() is not None
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app._exception is None, app._exception
        assert app.is_running and screen.hint_version == -1  # nowhere to show it


class HeldAdviser:
    """The adviser (strong bot) thinking until released."""

    def __init__(self, release: threading.Event) -> None:
        self.release = release
        self.asked = threading.Event()

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        self.asked.set()
        self.release.wait(20)
        return PassiveBot().choose(view, rng)


async def test_advice_that_comes_after_the_hint_panel_is_gone_is_dropped() -> None:
    release = threading.Event()
    adviser = HeldAdviser(release)
    game = Game(["Ann", "Bo"], Variant.BASE, seed=3)
    table = Table(game, [Seat("Ann"), Seat("Bo")], bot_delay=0, workers=Workers(threads=True))
    client = LocalClient(table, [0, 1], exhaustive_hint, adviser)
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if adviser.asked.is_set():
                break
        assert adviser.asked.is_set(), "the screen never asked for advice"
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await screen.query_one(HintPanel).remove()
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app._exception is None, app._exception
        assert app.is_running and screen.advice is None
