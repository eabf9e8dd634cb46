"""Deterministic tables for the TUI tests: fixed seeds, bots that think in
plain rules, the reference planner for hints, no pacing delays."""

from __future__ import annotations

import random
import threading
import time
from typing import Any, Callable

from textual.pilot import Pilot

from fivetowers.games.five_towers.rules import Action, Bid, Game, Pass, Phase, PlayerView, Position, Variant
from fivetowers.games.five_towers.client import LocalClient
from fivetowers.games.five_towers.bots.random_bot import RandomBot
from fivetowers.games.five_towers.solver import Hint, exhaustive_hint
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table
from fivetowers.tables.workers import Workers
from fivetowers.games.five_towers.tui.app import FiveTowersApp, create_app

NAMES = ["Hedda (bot)", "You", "Peter (bot)"]


class PassiveBot:
    """Bids 0 when it must start, passes otherwise: never builds, so every
    build in a test is the human's."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        assert view.seat is not None and view.phase is Phase.BID
        return Pass(view.seat) if view.may_pass else Bid(view.seat, 0)


def passive_client(variant: Variant, seed: int, names: list[str] | None = None) -> LocalClient:
    """Three seats: bots at 0 and 2, the human at 1, to bid after seat 0's 0."""
    names = names or NAMES
    game = Game(names, variant, seed=seed)
    seats = [Seat(names[0], bot="passive"), Seat(names[1]), Seat(names[2], bot="passive")]
    table = Table(game, seats, bot_delay=0, bots={0: PassiveBot(), 2: PassiveBot()})
    return LocalClient(table, [1], exhaustive_hint)


def finished_client(variant: Variant, seed: int) -> LocalClient:
    """A game random bots have played to its end, watched by the human at seat 1."""
    game = Game(NAMES, variant, seed=seed)
    bot, rng = RandomBot(), random.Random(seed)
    while game.phase is not Phase.OVER:
        assert game.to_move is not None
        game.apply(bot.choose(game.view(game.to_move), rng))
    seats = [Seat(NAMES[0], bot="random"), Seat(NAMES[1]), Seat(NAMES[2], bot="random")]
    return LocalClient(Table(game, seats, bot_delay=0), [1], exhaustive_hint)


def app_for(client: LocalClient) -> FiveTowersApp:
    return create_app(client)


async def settle(pilot: Pilot[None]) -> None:
    """Until bots have moved, hints are computed and the screen is drawn."""
    app = pilot.app
    assert isinstance(app, FiveTowersApp)
    while True:
        version = app.client.version
        await app.client.table.wait_idle()
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        if version == app.client.version and drawn(app):
            return


def midgame_client(variant: Variant, seed: int, round_: int = 14) -> LocalClient:
    """Random play up to ``round_``, stopping when the human (seat 0) is to bid."""
    names = ["You", "Hedda (bot)", "Peter (bot)"]
    game = Game(names, variant, seed=seed)
    bot, rng = RandomBot(), random.Random(seed)
    while not (game.round >= round_ and game.to_move == 0 and game.phase is Phase.BID):
        assert game.phase is not Phase.OVER and game.to_move is not None
        game.apply(bot.choose(game.view(game.to_move), rng))
    seats = [Seat(names[0]), Seat(names[1], bot="random"), Seat(names[2], bot="random")]
    table = Table(game, seats, bot_delay=0, bots={1: RandomBot(), 2: RandomBot()})
    return LocalClient(table, [0], exhaustive_hint)


def held_hints_client(release: threading.Event) -> LocalClient:
    """A two-seat hot-seat game whose first position's hint comes at once and
    every later position's only once ``release`` is set (a busy pool)."""
    first: list[str] = []

    def hinter(position: Position) -> Hint:
        if not first:
            first.append(repr(position))
        if repr(position) != first[0]:
            release.wait(20)
        return exhaustive_hint(position)

    game = Game(["Ann", "Bo"], Variant.BASE, seed=3)
    table = Table(game, [Seat("Ann"), Seat("Bo")], bot_delay=0, workers=Workers(threads=True))
    return LocalClient(table, [0, 1], hinter)


def drawn(app: object) -> bool:
    """Whether the table screen on top (if any) has drawn every change: on a
    busy machine its redraw can still be queued when the table is idle."""
    screen = getattr(app, "screen", None)
    return bool(getattr(screen, "drawn", lambda: True)())


async def until(pilot: Pilot[Any], condition: Callable[[], bool], seconds: float = 30.0) -> None:
    """Pause until ``condition`` holds: on a busy machine keys pressed a
    moment ago can still be queued (fails if it never does)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the screen never got there"
        await pilot.pause(0.02)
