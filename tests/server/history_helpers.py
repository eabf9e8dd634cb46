"""A store holding a few games random bots played, and an app showing one screen."""

from __future__ import annotations

import random
from itertools import count
from pathlib import Path
from typing import Callable

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import DataTable

from fivetowers.compat.textual import data_table_draw_state
from fivetowers.games.five_towers.bots.random_bot import RandomBot
from fivetowers.games.five_towers.rules import Game, Phase, Record, Variant
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import StoredSeat
from fivetowers.games.five_towers.tui.app import stylesheet
from tests.tables.kept import kept

ANN = "SHA256:annAnnAnnKeyOfTestsXXXXXXXXXXXXXXXXXXXXXXX"
BOB = "SHA256:bobBobBobKeyOfTestsYYYYYYYYYYYYYYYYYYYYYYY"
# A name with markup and an escape sequence in it (as an older server may have
# kept it): the screens show it cleaned, as every name is (no brackets, no escapes).
BOB_NAME = "[red]bob\x1b[31m"
START = 1_785_000_000  # 2026-07-25 17:20 UTC; each store call one hour later


def play(names: list[str], variant: Variant, seed: int, actions: int | None = None) -> Game:
    """Random bots play seat by seat (to the end, or ``actions`` actions)."""
    game = Game(names, variant, seed=seed)
    bot, rng = RandomBot(), random.Random(seed)
    while game.phase is not Phase.OVER and (actions is None or len(game.actions) < actions):
        assert game.to_move is not None
        game.apply(bot.choose(game.view(game.to_move), rng))
    return game


def keep(store: SqliteStore, code: str, seats: list[StoredSeat], game: Game) -> int:
    table_id = store.create_table(code=code, name=f"table {code}", seats=seats,
                                  **kept(game))
    if game.phase is Phase.OVER:
        outcome = game.outcome()
        store.finish_table(table_id, [s.total for s in outcome.scores], outcome.winners)
    return table_id


def kept_store(path: Path) -> SqliteStore:
    """Four games: ann's three (two finished, the newest going on) and one of bob's."""
    clock = count(START, 3600)
    store = SqliteStore(path / "fivetowers.sqlite3", durable=False,
                        clock=lambda: float(next(clock)))
    hedda, peter = StoredSeat("Hedda (bot)", bot="random"), StoredSeat("Peter (bot)", bot="random")
    ann, bob = StoredSeat("ann", fingerprint=ANN), StoredSeat(BOB_NAME, fingerprint=BOB)
    keep(store, "AAAAA", [ann, hedda, peter],
         play(["ann", "Hedda (bot)", "Peter (bot)"], Variant.BASE, seed=1))
    keep(store, "BBBBB", [bob, ann, hedda],
         play([BOB_NAME, "ann", "Hedda (bot)"], Variant.GREAT_POWERS, seed=2))
    keep(store, "CCCCC", [bob, peter], play([BOB_NAME, "Peter (bot)"], Variant.BASE, seed=3))
    keep(store, "DDDDD", [ann, peter], play(["ann", "Peter (bot)"], Variant.BASE, seed=4,
                                            actions=10))
    return store


class ScreenHost(App[None]):
    """The lobby's stylesheet and one history screen over an empty base screen."""

    CSS = stylesheet()

    def __init__(self, make: Callable[[], Screen[None]]) -> None:
        super().__init__()
        self.make = make

    def on_mount(self) -> None:
        self.push_screen(self.make())


async def replay_round_two(pilot: Pilot[None]) -> None:
    """From my games (the store of :func:`kept_store`): game 2 (three players,
    great powers) replayed into round 2's bidding, past a build."""
    await settle(pilot)
    await pilot.press("down", "enter")
    await settle(pilot)
    await pilot.press("pagedown", *["right"] * 4)
    await settle(pilot)


async def settle(pilot: Pilot[None]) -> None:
    """Until every screen's loading worker is done and the result drawn."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    # A DataTable sizes its columns on the refresh after its rows arrive;
    # on a busy machine that can be a pause later.
    for _ in range(3):
        await pilot.pause()
    for _ in range(20):  # under load, until every table has measured its rows
        if not any(data_table_draw_state(table)[0] for table in pilot.app.screen.query(DataTable)):
            break
        await pilot.pause()
