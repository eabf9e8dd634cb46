"""The lobby offers every registered game: the new-table form, the seat
count each game allows, the options it declares, and table lists that say
which game a table is once there is a choice."""

from __future__ import annotations

import random
from typing import Any, Iterator, Mapping, Sequence

import pytest
from textual.screen import Screen as TextualScreen
from textual.widgets import DataTable, Label, Select, Switch

from fivetowers import games
from fivetowers.games import register, unregister
from fivetowers.games.five_towers.kind import GAME as FIVE_TOWERS, FiveTowers
from fivetowers.games.protocol import Bot, GameOption, Match
from fivetowers.games.screens import GameScreens, Replay, TableHost
from fivetowers.lobby.app import LobbyApp
from fivetowers.lobby.lobby_screen import LobbyScreen
from fivetowers.lobby.model import Lobby, LobbyError
from fivetowers.lobby.new_table_screen import NewTable, NewTableScreen
from fivetowers.server.session import Visitor
from fivetowers.tables.table import Table

from tests.server.form_helpers import open_form
from tests.server.history_helpers import ScreenHost, settle


class Numbers:
    """A game the lobby has never heard of: only what the form and a forming
    table ask of it (nobody starts it here)."""

    name = "numbers"
    title = "Numbers"
    record_format = "numbers-record/1"
    min_players = 2
    max_players = 3
    score_unit = "points"
    options = (GameOption("goal", "Goal", (("10", "to ten"), ("20", "to twenty"),
                                          ("50", "to fifty"))),
               GameOption("speed", "Speed", (("slow", "slow"), ("fast", "Fast play"))))
    bot_kinds = ("counter",)
    late_bot = "counter"
    preload = ()

    def players_problem(self, count: int) -> str | None:
        return None if 2 <= count <= 3 else f"Numbers is for 2 or 3 players, not {count}"

    def new_match(self, players: Sequence[str], options: Mapping[str, str],
                  seed: int) -> Match:
        raise NotImplementedError("never started here")

    def match_from_record(self, record: Mapping[str, Any]) -> Match:
        raise NotImplementedError

    def action_from_json(self, data: Any) -> Any:
        return data

    def make_bot(self, kind: str) -> Bot:
        raise ValueError(kind)

    def options_of(self, setup: Mapping[str, Any]) -> dict[str, str]:
        return {}

    def screens(self) -> GameScreens:
        raise NotImplementedError


@pytest.fixture
def numbers() -> Iterator[Numbers]:
    game = Numbers()
    register(game)
    try:
        yield game
    finally:
        unregister(game.name)


def labels(screen: NewTableScreen) -> list[str]:
    return [str(label.render()) for label in screen.query(Label) if label.display
            and label.parent is not None and label.parent.display]


async def fill_and_submit(pilot: Any, screen: NewTableScreen) -> None:
    screen.query_one("#title").focus()
    await pilot.press("t", "enter")
    await settle(pilot)


@pytest.fixture
def towers_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that knows 5 Towers alone (as before GoTown was registered)."""
    monkeypatch.setattr(games, "PACKAGES", {"fivetowers": games.PACKAGES["fivetowers"]})
    monkeypatch.delitem(games._loaded, "gotown", raising=False)  # loaded by an earlier test


async def test_with_one_game_the_form_offers_no_choice_of_game(towers_alone: None) -> None:
    app = ScreenHost(lambda: NewTableScreen())
    async with app.run_test(size=(80, 24)) as pilot:
        screen, got = await open_form(app, pilot)
        assert not screen.query(Select)
        assert labels(screen) == ["Name", "Seats (2-5)", "of them bots", "Great Powers",
                                  "Private"]
        screen.query_one("#option-fivetowers-variant", Switch).value = True
        await fill_and_submit(pilot, screen)
    assert got == [NewTable(title="t", players=3, bots=1, private=False, kind="fivetowers",
                            options={"variant": "great-powers"})]


async def test_the_form_offers_every_registered_game_and_its_options(
        numbers: Numbers) -> None:
    app = ScreenHost(lambda: NewTableScreen())
    async with app.run_test(size=(80, 30)) as pilot:
        screen, got = await open_form(app, pilot)
        assert "Great Powers" in labels(screen) and "Goal" not in labels(screen)
        screen.query_one("#game", Select).value = "numbers"
        await settle(pilot)
        assert labels(screen) == ["Game", "Name", "Seats (2-3)", "of them bots", "Goal",
                                  "Fast play", "Private"]
        screen.query_one("#option-numbers-goal", Select).value = "50"
        await fill_and_submit(pilot, screen)
    assert got == [NewTable(title="t", players=3, bots=1, private=False, kind="numbers",
                            options={"goal": "50", "speed": "slow"})]


async def test_the_form_checks_seats_by_the_chosen_games_rule(numbers: Numbers) -> None:
    app = ScreenHost(lambda: NewTableScreen())
    async with app.run_test(size=(80, 30)) as pilot:
        screen, got = await open_form(app, pilot)
        screen.query_one("#game", Select).value = "numbers"
        await settle(pilot)
        screen.query_one("#players").focus()
        await pilot.press("backspace", "5", "enter")  # 5 is no digit Numbers allows
        await settle(pilot)
        assert got == []
        assert "Seats 2-3" in str(screen.query_one("#form-error").render())


def test_a_table_is_of_the_game_asked_for_with_its_options(numbers: Numbers) -> None:
    lobby = Lobby(rng=random.Random(1))
    hosted = lobby.create("k", "ann", title="n", players=3, bots=0, private=False,
                          kind="numbers", options={"goal": "20"})
    assert hosted.kind is numbers
    assert hosted.options == {"goal": "20", "speed": "slow"}  # defaults filled in
    assert hosted.rules_text == "20 slow"
    with pytest.raises(LobbyError, match="Numbers is for 2 to 3 players, not 4"):
        lobby.create("k2", "bo", title="n", players=4, bots=0, private=False, kind="numbers")
    with pytest.raises(LobbyError, match="Goal cannot be '7'"):
        lobby.create("k2", "bo", title="n", players=2, bots=0, private=False,
                     kind="numbers", options={"goal": "7"})
    with pytest.raises(LobbyError, match="unknown game 'chess'"):
        lobby.create("k2", "bo", title="n", players=2, bots=0, private=False, kind="chess")


def test_five_towers_tables_ask_five_towers_how_many_play() -> None:
    lobby = Lobby(rng=random.Random(1))
    with pytest.raises(LobbyError, match="5 Towers is for 2 to 5 players, not 6"):
        lobby.create("k", "ann", title="t", players=6, bots=1, private=False)
    hosted = lobby.create("k", "ann", title="t", players=2, bots=0, private=False)
    assert hosted.kind is FIVE_TOWERS and hosted.options == {"variant": "base"}


async def lobby_columns(lobby: Lobby) -> tuple[list[str], list[list[str]]]:
    visitor = Visitor(identity="SHA256:ann", name="ann", address="127.0.0.1",
                      join_code=None, term="xterm-256color", colorterm="truecolor")
    app = LobbyApp(lobby, visitor)
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        table = app.screen.query_one(DataTable)
        columns = [str(c.label) for c in table.ordered_columns]
        rows = [[str(cell) for cell in table.get_row_at(r)] for r in range(table.row_count)]
    return columns, rows


async def test_table_lists_name_the_game_only_when_there_is_a_choice(
        towers_alone: None) -> None:
    lobby = Lobby(rng=random.Random(1))
    lobby.create("SHA256:bo", "bo", title="towers", players=2, bots=0, private=False)
    columns, rows = await lobby_columns(lobby)
    assert columns == ["code", "table", "rules", "seats", "status"]
    assert rows[0][1:] == ["towers", "base", "1/2", "waiting for 1 player"]

    numbers = Numbers()
    register(numbers)
    try:
        lobby.create("SHA256:cy", "cy", title="count", players=2, bots=0, private=False,
                     kind="numbers")
        columns, rows = await lobby_columns(lobby)
    finally:
        unregister(numbers.name)
    assert columns == ["code", "table", "game", "rules", "seats", "status"]
    assert sorted(row[1:4] for row in rows) == [["count", "Numbers", "10 slow"],
                                                ["towers", "5 Towers", "base"]]


class Recorded:
    """A game's screens that note what the lobby asks of them (5 Towers' underneath)."""

    def __init__(self, inner: GameScreens) -> None:
        self.inner = inner
        self.asked: list[tuple[str, int | None, TableHost]] = []

    def table_screen(self, table: Table, seat: int | None, host: TableHost,
                     hints: bool) -> TextualScreen[None]:
        self.asked.append(("table", seat, host))
        return self.inner.table_screen(table, seat, host, hints)

    def end_screen(self, table: Table, seat: int | None, host: TableHost) -> TextualScreen[None]:
        self.asked.append(("end", seat, host))
        return self.inner.end_screen(table, seat, host)

    def replay(self, record: Mapping[str, Any]) -> Replay:
        return self.inner.replay(record)

    def replay_screen(self, replay: Replay, game_id: int, names: Sequence[str],
                      seat: int | None) -> TextualScreen[None]:
        return self.inner.replay_screen(replay, game_id, names, seat)


class FiveTowersSeen(FiveTowers):
    def __init__(self) -> None:
        self.recorded = Recorded(super().screens())

    def screens(self) -> GameScreens:
        return self.recorded


async def test_the_lobby_shows_a_table_with_its_games_own_screens() -> None:
    lobby = Lobby(bot_kind="random", bot_delay=60.0, rng=random.Random(1))
    hosted = lobby.create("SHA256:ann", "ann", title="t", players=2, bots=1, private=False)
    lobby.away(hosted, "SHA256:ann")
    seen = FiveTowersSeen()
    hosted.kind = seen
    visitor = Visitor(identity="SHA256:ann", name="ann", address="127.0.0.1",
                      join_code=None, term="xterm-256color", colorterm="truecolor")
    app = LobbyApp(lobby, visitor)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)  # back to the seat kept for ann
            [(what, seat, host)] = seen.recorded.asked
            assert (what, seat) == ("table", 0) and host.offers_chat
            assert app.screen.check_action("chat", ()) is True  # the lobby's host chats
            host.show_end()  # what the table screen asks at the end (e: results)
            await settle(pilot)
            assert [(w, s) for w, s, _ in seen.recorded.asked] == [("table", 0), ("end", 0)]
            await pilot.press("n")  # play again: back to the lobby, the seat kept
            await settle(pilot)
            assert isinstance(app.screen, LobbyScreen)
            assert hosted.seat_of("SHA256:ann") == 0 and not hosted.seats[0].connected
    finally:
        await lobby.close()


def test_a_tables_bots_are_of_its_game(numbers: Numbers) -> None:
    lobby = Lobby(bot_kind="greedy", rng=random.Random(1))
    towers = lobby.create("k", "ann", title="t", players=4, bots=2, private=False)
    counted = lobby.create("k2", "bo", title="n", players=3, bots=1, private=False,
                           kind="numbers")
    assert [s.bot for s in towers.seats] == [None, None, "greedy", "greedy"]
    assert [s.bot for s in counted.seats] == [None, None, "counter"]  # Numbers has no greedy
