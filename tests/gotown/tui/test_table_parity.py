"""What a 5 Towers player has at the table, a GoTown player has too (issues
14 and 16): chat in the log with its history, who is away and the stand-in
bot's moves, the bell on a new turn, a watcher's label and keys, q asking
first, and local games kept and resumed."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from fivetowers.games.gotown.bots import make_bot
from fivetowers.games.gotown.chronicle import Entry
from fivetowers.games.gotown.client import LocalClient, local_client, new_local_game
from fivetowers.games.gotown.kind import GAME
from fivetowers.games.gotown.rules import Game
from fivetowers.games.gotown.rules.view import view_of
from fivetowers.games.gotown.tui.app import RESUME, GoTownApp
from fivetowers.games.gotown.tui.log_lines import STAND_IN, log_lines
from fivetowers.games.gotown.tui.screens.end import GoTownEndScreen
from fivetowers.games.gotown.tui.screens.table import GoTownTableScreen
from fivetowers.games.gotown.tui.widgets.game_log import GameLog
from fivetowers.games.gotown.tui.widgets.status_bar import StatusBar
from fivetowers.games.gotown.tui.widgets.tower_board import TowerBoard
from fivetowers.tables.local import keep_local, last_local, local_hook
from fivetowers.tables.seats import Seat
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.table import Table
from fivetowers.ui.key_bar import KeyBar
from fivetowers.ui.leave import LeaveScreen
from tests.gotown.tui.helpers import Host, Said, ScreenApp, finished, settle, table_of
from tests.test_cli_errors import run


def status_of(screen: GoTownTableScreen) -> str:
    return str(screen.query_one(StatusBar).render())


def test_chat_goes_after_the_moves_made_before_it_and_stand_ins_are_marked() -> None:
    entries = [Entry("play", "Ann builds", action=0), Entry("turn", "Ann ends", action=1),
               Entry("tempo", "Donut truck", action=1), Entry("turn", "Bo ends", action=2)]
    lines = log_lines(entries, 0, [Said("bo", "hi", 0), Said("ann", "yo", 2)], {1: 0})
    assert lines == (("chat", "bo: hi"), ("play", "Ann builds"),
                     ("turn", "Ann ends" + STAND_IN), ("tempo", "Donut truck"),
                     ("chat", "ann: yo"), ("turn", "Bo ends"))


async def test_chat_is_in_the_log_with_what_was_said_before_arriving() -> None:
    table = table_of(Game(["Ann", "Bo"], seed=1), {1: "greedy"})
    host = Host()
    host.say("Bo", "said before Ann came", 0)
    screen = GAME.screens().table_screen(table, 0, host, False)
    async with ScreenApp(table, screen).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        log = screen.query_one(GameLog)
        assert ("chat", "Bo: said before Ann came") in log.lines
        assert "Bo: said before Ann came" in str(log.render())
        assert host.say("Ann", "hello there", len(table.game.actions))  # seen: no pop-up
        await settle(pilot)
        assert log.lines[-1] == ("chat", "Ann: hello there")
        assert "Ann: hello there" in str(log.render())


async def test_an_away_player_is_marked_with_a_countdown_and_the_stand_ins_moves() -> None:
    game = Game(["Ann", "Bo"], seed=1)
    seats = [Seat("Ann", connected=True), Seat("Bo", connected=False)]
    table = Table(game, seats, kind=GAME, bot_delay=0)
    stand_in_at = asyncio.get_running_loop().time() + 45
    seats[1].stand_in_at = stand_in_at
    screen = GAME.screens().table_screen(table, 0, Host(), False)
    async with ScreenApp(table, screen).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first = re.search(r"Bo is away — a bot plays in (\d+) s", status_of(screen))
        # What is left, whenever the app got there (slow on a loaded machine).
        left = stand_in_at - asyncio.get_running_loop().time()
        assert first is not None and int(left) - 1 <= int(first.group(1)) <= 45
        assert str(screen.query_one("#tower1", TowerBoard).border_title).endswith("· away")
        await pilot.pause(1.3)
        later = re.search(r"a bot plays in (\d+) s", status_of(screen))
        assert later is not None and int(later.group(1)) < int(first.group(1))  # counts down
        seats[1].stand_in_at = None
        table.stand_in(1, make_bot("greedy"))
        await pilot.press("e")  # Ann ends her turn: the stand-in plays Bo's
        await settle(pilot)
        assert len(table.game.actions) >= 2
        assert "Bo is away — a bot plays for them" in status_of(screen)
        assert "away, bot plays" in str(screen.query_one("#tower1", TowerBoard).border_title)
        marked = [text for _, text in screen.query_one(GameLog).lines if STAND_IN in text]
        assert marked and all(text.startswith("Bo") for text in marked)
        assert not any(text.startswith(("Ann", "You")) and STAND_IN in text
                       for _, text in screen.query_one(GameLog).lines)


async def test_the_bell_rings_when_your_turn_comes_and_b_turns_it_off(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = table_of(Game(["Ann", "Bo"], seed=1), {1: "greedy"})
    app = GoTownApp(LocalClient(table, [0], adviser=make_bot("greedy")), hints=False)
    rung: list[str] = []
    monkeypatch.setattr(app, "bell", lambda: rung.append("ding"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert rung == []  # arriving at your turn: you are looking
        await pilot.press("e")
        await settle(pilot)
        assert table.game.to_move == 0 and len(table.game.actions) >= 2
        assert rung == ["ding"]  # the bot played: your turn again
        assert "b bell" in app.screen.query_one(KeyBar).line.plain
        await pilot.press("b", "e")
        await settle(pilot)
        assert table.game.to_move == 0 and rung == ["ding"]  # turned off


async def test_a_watcher_is_labelled_and_offered_no_play_keys() -> None:
    table = table_of(Game(["Ann", "Bo"], seed=1), {1: "greedy"})
    screen = GAME.screens().table_screen(table, None, Host(), True)
    async with ScreenApp(table, screen).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert status_of(screen).startswith(" watching ")
        keys = screen.query_one(KeyBar).line.plain
        for key in ("pick", "play", "end turn", "hints", "bell"):
            assert key not in keys, keys
        assert "lobby" in keys and "chat" in keys
        version = table.version
        await pilot.press("1", "enter", "e", "right", "h")
        await settle(pilot)
        assert table.version == version and screen.picked is None and screen.show_hints


async def test_local_q_mid_game_asks_first() -> None:
    app = GoTownApp(new_local_game(2, 1, seed=3, bot_kind="greedy", bot_delay=0,
                                   advice=False), hints=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "q quit" in app.screen.query_one(KeyBar).line.plain
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, LeaveScreen) and app.return_code is None
        assert "not kept" in str(app.screen.query_one("#leave").children[0].render())
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GoTownTableScreen) and app.return_code is None
        await pilot.press("q", "y")
        await pilot.pause()
    assert app.return_code == 0


async def test_local_q_after_the_end_leaves_at_once() -> None:
    app = GoTownApp(finished(4), hints=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GoTownEndScreen)
        await pilot.press("b", "q")
        await pilot.pause()
    assert app.return_code == 0


def _keeping(store: SqliteStore, seed: int) -> LocalClient:
    return new_local_game(2, 1, seed=seed, bot_kind="greedy", bot_delay=0, advice=False,
                          keep=lambda game, seats: keep_local(store, GAME.name, game, seats))


async def test_a_kept_gotown_game_left_with_q_resumes_as_it_was(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "fivetowers.sqlite3", durable=False)
    client = _keeping(store, seed=12)
    assert client.kept
    app = GoTownApp(client, hints=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("e")  # Ann ends a turn; the bot plays its own
        await settle(pilot)
        assert client.version >= 2 and client.my_turn()
        view = client.view()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, LeaveScreen)
        assert RESUME in str(app.screen.query_one("#leave").children[0].render())
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code == 0
    assert last_local(store, "fivetowers") is None  # 5 Towers' --resume does not take it
    local = last_local(store, GAME.name)
    assert local is not None and isinstance(local.game, Game)
    assert view_of(local.game, 0) == view
    resumed = local_client(local.game, local.seats, 0, local_hook(store, local.info.id),
                           advice=False)
    assert resumed.kept and resumed.view() == view
    before = len(store.load_table(local.info.id).record["actions"])
    async with GoTownApp(resumed, hints=False).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
    assert len(store.load_table(local.info.id).record["actions"]) >= before + 2
    store.close()


def test_play_gotown_resume_with_nothing_to_resume_says_so(tmp_path: Path) -> None:
    out = run("play", "--game", "gotown", "--resume", "--data-dir", str(tmp_path))
    assert out.returncode == 2 and "no unfinished local game" in out.stderr
    assert out.stderr.count("\n") == 1
