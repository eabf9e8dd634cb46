"""A hosted table's screens in a lobby session (Pilot): q leaves for the
lobby, the help is the hosted one, watchers see watchers' keys."""

from __future__ import annotations

import random
from typing import AsyncIterator

import pytest
from textual.widgets import Markdown

from fivetowers.games.five_towers.tui.screens.end import EndScreen
from fivetowers.games.five_towers.tui.screens.help import HelpScreen
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.lobby.app import LobbyApp
from fivetowers.lobby.lobby_screen import LobbyScreen
from fivetowers.lobby.model import HostedTable, Lobby
from fivetowers.server.session import Visitor
from fivetowers.ui.key_bar import KeyBar

from tests.server.history_helpers import settle


def visitor(name: str, join_code: str | None = None) -> Visitor:
    return Visitor(identity=f"SHA256:{name}", name=name, address="127.0.0.1",
                   join_code=join_code, term="xterm-256color", colorterm="truecolor")


@pytest.fixture
async def lobby() -> AsyncIterator[Lobby]:
    # Slow bots: the table stands still while a test looks at it.
    lobby = Lobby(bot_kind="random", bot_delay=60.0, absence_bot_after=60.0, hints=False,
                  rng=random.Random(1))
    yield lobby
    await lobby.close()


def running_table(lobby: Lobby) -> HostedTable:
    """ann's table, ann and a bot: running, ann away until her session sits."""
    hosted = lobby.create("SHA256:ann", "ann", title="t", players=2, bots=1, private=False)
    lobby.away(hosted, "SHA256:ann")
    return hosted


def key_bar(app: LobbyApp) -> str:
    return app.screen.query_one(KeyBar).line.plain


@pytest.mark.parametrize("who", ["ann", "cy"])
async def test_q_on_the_hosted_end_screen_goes_back_to_the_lobby(lobby: Lobby, who: str) -> None:
    hosted = running_table(lobby)
    app = LobbyApp(lobby, visitor(who, join_code=hosted.code))  # ann sits, cy watches
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert "q lobby" in key_bar(app) and "quit" not in key_bar(app)
        screen.host.show_end()
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        assert "q back to the lobby" in str(app.screen.query_one("#end-keys").render())
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert app.is_running
        await pilot.press("q")  # only the lobby's q disconnects
        await pilot.pause()
        assert not app.is_running


async def test_the_hosted_help_tells_of_chat_and_the_lobby(lobby: Lobby) -> None:
    hosted = running_table(lobby)
    app = LobbyApp(lobby, visitor("ann", join_code=hosted.code))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one(Markdown).source
        assert "| `c` | chat" in text and "back to the lobby" in text
        assert "| `q` | quit |" not in text and "`q` quits" not in text
        await pilot.press("escape")
        await pilot.press("q")  # the table's q: to the lobby, the seat kept
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen) and app.is_running
        assert hosted.seat_of("SHA256:ann") == 0


def heard(app: LobbyApp) -> list[str]:
    """What the session's notifications say, from now on."""
    said: list[str] = []

    def notify(message: str, **options: object) -> None:
        said.append(message)
    app.notify = notify  # type: ignore[method-assign,assignment]
    return said


async def test_a_watcher_sees_a_watchers_keys_and_a_watching_label(lobby: Lobby) -> None:
    hosted = running_table(lobby)
    app = LobbyApp(lobby, visitor("cy"))
    said = heard(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)
        await pilot.press(*hosted.code.lower(), "enter")  # a full running table
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert said == [f"table {hosted.code} has no free seat: you join as a watcher."]
        keys = key_bar(app)
        assert "bid" not in keys and "pass" not in keys and "bell" not in keys
        assert "s scores" in keys and "q lobby" in keys and "c chat" in keys
        status = str(app.screen.query_one("#status").render())
        assert status.startswith(" watching ")
        version = hosted.table.version if hosted.table else -1
        await pilot.press("0", "p")
        await settle(pilot)
        assert hosted.table is not None and hosted.table.version == version


async def test_watching_your_own_table_says_enter_takes_you_back(lobby: Lobby) -> None:
    hosted = running_table(lobby)
    app = LobbyApp(lobby, visitor("ann"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)  # back to her kept seat: leave it for the lobby
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        said = heard(app)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen) and app.screen.client.seat is None
        assert len(said) == 1 and "Enter on it in the lobby takes you back to your seat" \
            in said[0]

