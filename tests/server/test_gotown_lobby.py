"""The lobby offers GoTown: the new-table form with its options (2-4 seats,
bots, the short game, private), and table lists that say which game."""

from __future__ import annotations

import random
from typing import Any, Awaitable, Callable

from textual.widgets import Select, Switch

from fivetowers.games.gotown.kind import GAME as GOTOWN
from fivetowers.games.five_towers.tui.app import stylesheet
from fivetowers.lobby.model import Lobby
from fivetowers.lobby.new_table_screen import NewTable, NewTableScreen

from tests.server.form_helpers import open_form
from tests.server.history_helpers import ScreenHost, settle
from tests.server.test_lobby_games import labels, lobby_columns


async def choose_gotown(pilot: Any, screen: NewTableScreen) -> None:
    screen.query_one("#game", Select).value = "gotown"
    await settle(pilot)


async def test_the_form_offers_gotown_with_its_options() -> None:
    app = ScreenHost(lambda: NewTableScreen())
    async with app.run_test(size=(80, 24)) as pilot:
        screen, got = await open_form(app, pilot)
        options = screen.query_one("#game", Select)
        assert [str(p) for p, _ in options._options] == ["5 Towers", "GoTown"]
        await choose_gotown(pilot, screen)
        assert labels(screen) == ["Game", "Name", "Seats (2-4)", "of them bots",
                                  "4 floors (short game)", "Private"]
        screen.query_one("#title").focus()
        await pilot.press(*"town", "tab", "backspace", "5")  # GoTown seats at most 4
        assert screen.query_one("#players").value == ""  # type: ignore[attr-defined]
        await pilot.press("4", "tab", "backspace", "2")
        screen.query_one("#option-gotown-floors", Switch).value = True
        screen.query_one("#private", Switch).value = True
        screen.query_one("#title").focus()
        await pilot.press("enter")
        await settle(pilot)
    assert got == [NewTable(title="town", players=4, bots=2, private=True, kind="gotown",
                            options={"floors": "4"})]


async def test_the_form_refuses_bots_in_every_gotown_seat() -> None:
    app = ScreenHost(lambda: NewTableScreen())
    async with app.run_test(size=(80, 24)) as pilot:
        screen, got = await open_form(app, pilot)
        await choose_gotown(pilot, screen)
        screen.query_one("#players").focus()
        await pilot.press("backspace", "2", "tab", "backspace", "2", "enter")
        await settle(pilot)
        assert got == []
        assert "Seats 2-4, and fewer bots than seats" in str(
            screen.query_one("#form-error").render())


class FormHost(ScreenHost):
    """The form over the lobby's own stylesheet, as a session shows it."""

    CSS = stylesheet() + stylesheet("lobby.tcss")


def short_gotown_form(title: str) -> Callable[[Any], Awaitable[None]]:
    """A snapshot's steps: GoTown chosen, its short game on, ``title`` typed."""
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        screen = pilot.app.screen
        await choose_gotown(pilot, screen)
        screen.query_one("#option-gotown-floors", Switch).value = True
        screen.query_one("#title").focus()
        await pilot.press(*title)
        await settle(pilot)

    return run_before


def test_the_new_table_form_with_gotown_snapshot(snap_compare: Any) -> None:
    assert snap_compare(FormHost(lambda: NewTableScreen()), terminal_size=(80, 24),
                        run_before=short_gotown_form("short town"))


async def test_table_lists_say_which_game_each_table_is() -> None:
    lobby = Lobby(rng=random.Random(1))
    lobby.create("SHA256:bo", "bo", title="towers", players=2, bots=0, private=False)
    town = lobby.create("SHA256:cy", "cy", title="town", players=3, bots=1, private=False,
                        kind="gotown", options={"floors": "4"})
    assert town.kind is GOTOWN
    columns, rows = await lobby_columns(lobby)
    assert columns == ["code", "table", "game", "rules", "seats", "status"]
    assert sorted(row[1:] for row in rows) == [
        ["towers", "5 Towers", "base", "1/2", "waiting for 1 player"],
        ["town", "GoTown", "4", "2/3", "waiting for 1 player"]]
