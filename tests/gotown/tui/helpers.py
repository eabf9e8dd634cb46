"""Deterministic GoTown tables for the screen tests: fixed seeds, bots that
answer at once, the exact hint in threads, no pacing delays."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

from fivetowers.games.gotown.bots import make_bot
from fivetowers.games.gotown.chronicle import Chronicle
from fivetowers.games.gotown.client import LocalClient, new_local_game
from fivetowers.games.gotown.kind import GAME
from fivetowers.games.gotown.rules import Game
from fivetowers.games.gotown.tui.app import GoTownApp
from fivetowers.games.gotown.tui.screens.table import GoTownTableScreen
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table
from tests.tui.helpers import drawn


@dataclass(frozen=True)
class Said:
    """A chat line as a host keeps it."""

    name: str
    text: str
    moves: int


NAMES = ["You", "Hedda (bot)", "Peter (bot)", "Anni (bot)"]


def local(seed: int, players: int = 3, bots: int = 2, short: bool = False,
          bot_kind: str = "greedy") -> LocalClient:
    """``fivetowers play --game gotown`` with quick bots and no delay."""
    return new_local_game(players, bots, short, seed, bot_kind=bot_kind, bot_delay=0)


def table_of(game: Game, bots: dict[int, str]) -> Table[Game]:
    seats = [Seat(p.name, bot=bots.get(i), connected=i not in bots)
             for i, p in enumerate(game.players)]
    return Table(game, seats, kind=GAME, bot_delay=0)


async def settle(pilot: Pilot[Any]) -> None:
    """Until bots have moved, hints are computed and the screen is drawn."""
    app = pilot.app
    while True:
        client = getattr(app, "client", None)
        table = client.table if client is not None else getattr(app, "table")
        version = table.version
        await table.wait_idle()
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        if version == table.version and drawn(app):
            return


class Host:
    """A TableHost that records what the screen asked of it."""

    offers_chat = True
    in_lobby = True

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.said: list[Said] = []
        self.listener: Callable[[], bool] | None = None

    def chat_lines(self) -> list[Said]:
        return self.said

    def hear_chat(self, listener: Callable[[], bool] | None) -> None:
        self.listener = listener

    def say(self, name: str, text: str, moves: int) -> bool:
        """``name`` says ``text`` at the table (after ``moves`` actions)."""
        self.said.append(Said(name, text, moves))
        return self.listener() if self.listener is not None else False

    def chat(self) -> None:
        self.asked.append("chat")

    def show_end(self) -> None:
        self.asked.append("end")

    async def play_again(self) -> None:
        self.asked.append("again")

    async def leave(self) -> None:
        self.asked.append("leave")


class ScreenApp(App[None]):
    """An app showing one screen a host made, as the lobby shows it."""

    def __init__(self, table: Table[Game], screen: Screen[None]) -> None:
        super().__init__()
        self.table = table
        self.first = screen

    def on_mount(self) -> None:
        self.push_screen(self.first)


def app_for(client: LocalClient) -> GoTownApp:
    return GoTownApp(client)


def table_screen(app: App[Any]) -> GoTownTableScreen:
    """The app's screen, which must be the table."""
    screen = app.screen
    assert isinstance(screen, GoTownTableScreen)
    return screen


def played_until(seed: int, players: int, stop: Callable[[Game, Chronicle], bool],
                 limit: int = 3000) -> Game:
    """Greedy bots play every seat from ``seed`` until ``stop`` holds with
    seat 0 to move (the human's turn in the tests)."""
    game = Game([NAMES[i] for i in range(players)], seed=seed)
    chronicle = Chronicle(game)
    bot, rng = make_bot("greedy"), random.Random(seed)
    for _ in range(limit):
        chronicle.follow(game)
        if game.over:
            break
        if game.to_move == 0 and stop(game, chronicle):
            return game
        game.apply(bot.choose(game.view(game.to_move), rng))
    raise AssertionError(f"seed {seed}: the position never came")


def client_for(game: Game) -> LocalClient:
    """Seat 0 a human at this terminal, the others greedy bots; the advice
    from the greedy bot (quick and the same every run, unlike the strong
    bot's clock)."""
    table = table_of(game, {i: "greedy" for i in range(1, game.player_count)})
    return LocalClient(table, [0], adviser=make_bot("greedy"))


def finished(seed: int, players: int = 3) -> LocalClient:
    """A game greedy bots played to its end, seen by the human at seat 0."""
    game = Game([NAMES[i] for i in range(players)], seed=seed)
    bot, rng = make_bot("greedy"), random.Random(seed)
    while not game.over:
        assert game.to_move is not None
        game.apply(bot.choose(game.view(game.to_move), rng))
    return client_for(game)
