"""The lobby's history screens over a real store: my games, the replay viewer,
the leaderboard (Pilot), and their 80x24 snapshots.

Regenerate the snapshots after a deliberate change with
``pytest tests/server/test_history_screens.py --snapshot-update`` and look at
the SVGs before committing them.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Iterator

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from fivetowers.games import game_kind
from fivetowers.games.five_towers.rules import Phase, Variant
from fivetowers.lobby.archive import Archive, KeptGame
from fivetowers.lobby.leaderboard_screen import LeaderboardScreen
from fivetowers.lobby.my_games_screen import SHOWN, MyGamesScreen
from fivetowers.games.five_towers.tui.screens.replay import ReplayScreen
from fivetowers.tables.history import GameHistory
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import StoredSeat
from fivetowers.tables.store_writer import StoreWriter
from fivetowers.games.five_towers.tui.widgets.game_log import GameLog
from fivetowers.games.five_towers.tui.widgets.tower_board import TowerBoard

from tests.server.history_helpers import (
    ANN, BOB, ScreenHost, keep, kept_store, play, replay_round_two, settle,
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    kept = kept_store(tmp_path)
    yield kept
    kept.close()


def history_of(kept: KeptGame) -> GameHistory:
    """The 5 Towers replay a kept game carries."""
    assert isinstance(kept.replay, GameHistory)
    return kept.replay


def cells(table: DataTable[object], column: int) -> list[str]:
    return [str(table.get_row_at(r)[column]) for r in range(table.row_count)]


def note(app: ScreenHost) -> str:
    return str(app.screen.query_one("#history-note", Static).render())


def step_text(screen: ReplayScreen) -> str:
    return str(screen.query_one("#replay-step", Static).render())


async def test_my_games_lists_a_keys_games_newest_first(store: SqliteStore) -> None:
    app = ScreenHost(lambda: MyGamesScreen(Archive(store), ANN))
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        assert cells(table, 0) == ["4", "2", "1"]  # bob's own game is not listed
        assert cells(table, 1) == ["5 Towers"] * 3  # which game (GoTown is offered too)
        assert cells(table, 2)[2] == "2026-07-25 17:20"
        assert cells(table, 3) == ["base", "great-powers", "base"]
        results = cells(table, 4)
        assert results[0] == "going on"
        finished = store.load_table(1).info
        assert finished.scores is not None and finished.winners is not None
        ann_score = finished.scores[0]
        if 0 in finished.winners:
            assert results[2].startswith("won") and results[2].endswith(f"{ann_score} VP")
        else:
            assert results[2].endswith(f" of 3, {ann_score} VP")
        # bob's name reaches the screen as the characters he typed, minus the escape
        # sequence (markup shown, not obeyed)
        assert cells(table, 5) == ["Peter (bot)", "redbob, Hedda (bot)",
                                   "Hedda (bot), Peter (bot)"]
        assert "fivetowers export GAME" in note(app)


async def test_an_unfinished_game_is_not_replayed(store: SqliteStore) -> None:
    app = ScreenHost(lambda: MyGamesScreen(Archive(store), ANN))
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # the newest: still going on
        await settle(pilot)
        assert isinstance(app.screen, MyGamesScreen)
        assert any("still going on" in str(n.message) for n in app._notifications)


async def test_replay_steps_through_a_finished_game_to_its_end(tmp_path: Path) -> None:
    # Through the server's StoreWriter, as the lobby reads the store.
    writer = StoreWriter(kept_store(tmp_path))
    history = GameHistory(game_kind("fivetowers"), writer.store.load_table(1).record)
    app = ScreenHost(lambda: MyGamesScreen(Archive(None, writer), ANN))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await pilot.press("down", "down", "enter")  # game 1, the oldest
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, ReplayScreen) and screen.game_id == 1
            assert screen.position == 0 and "first display" in str(
                screen.query_one("#replay-step").border_title)
            for i in range(1, len(history)):
                await pilot.press("n" if i % 2 else "right")
                assert screen.position == i
                expected = [e.text for e in history.happened(i)]
                assert expected
                assert step_text(screen).splitlines()[:len(expected)] == expected
                mine = screen.query_one("#mine", TowerBoard)
                view = history.view(i, 0)
                assert mine.seat == view.seats[0] and mine.own == view.own_teardown
            await pilot.press("right")  # already at the end: stays
            assert screen.position == len(history) - 1
            assert history.view(screen.position).phase is Phase.OVER
            assert "the game is over" in step_text(screen)
            await pilot.press("home")
            assert screen.position == 0
            await pilot.press("end", "left", "p")
            assert screen.position == len(history) - 3
            # the log holds what happened up to this step, not the lines stepped back over
            assert screen.query_one(GameLog).shown == len(history.view(screen.position).log)
            await pilot.press("escape")
            assert isinstance(app.screen, MyGamesScreen)
    finally:
        await writer.close()


async def test_page_keys_move_a_round_at_a_time(store: SqliteStore) -> None:
    app = ScreenHost(lambda: MyGamesScreen(Archive(store), ANN))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("down", "enter")  # game 2
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        rounds = screen.rounds
        await pilot.press("pagedown", "pagedown")
        assert rounds[screen.position] == rounds[0] + 2
        assert rounds[screen.position - 1] == rounds[0] + 1  # the round's first position
        await pilot.press("right", "right", "pageup")
        assert rounds[screen.position] == rounds[0] + 2
        assert rounds[screen.position - 1] == rounds[0] + 1
        await pilot.press("pageup")
        assert rounds[screen.position] == rounds[0] + 1
        assert rounds[screen.position - 1] == rounds[0]


@pytest.mark.parametrize("players", [2, 5])
async def test_replay_draws_every_board_for_two_to_five_players(
        tmp_path: Path, players: int) -> None:
    names = ["ann", "Hedda (bot)", "Peter (bot)", "Anni (bot)", "Jonas (bot)"][:players]
    seats = [StoredSeat("ann", fingerprint=ANN)] + [StoredSeat(n, bot="random")
                                                    for n in names[1:]]
    with SqliteStore(tmp_path / "s.sqlite3", durable=False) as store:
        table_id = keep(store, "EEEEE", seats, play(names, Variant.GREAT_POWERS, seed=players))
        kept = await Archive(store).game(table_id, ANN)
    app = ScreenHost(lambda: kept.kind.screens().replay_screen(
        kept.replay, kept.info.id, kept.names, kept.seat))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("end")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        final = history_of(kept).view(screen.position, 0)
        boards = [screen.query_one("#mine", TowerBoard)] + [
            screen.query_one(f"#opp{k}", TowerBoard) for k in range(players - 1)]
        assert [b.seat for b in boards] == list(final.seats)
        assert final.phase is Phase.OVER


async def test_my_games_lists_the_newest_fifty(tmp_path: Path) -> None:
    seats = [StoredSeat("ann", fingerprint=ANN), StoredSeat("Peter (bot)", bot="random")]
    with SqliteStore(tmp_path / "s.sqlite3", durable=False) as store:
        for n in range(SHOWN + 1):  # games just begun: no action yet
            keep(store, f"C{n:04d}", seats, play(["ann", "Peter (bot)"], Variant.BASE,
                                                 seed=n, actions=0))
        app = ScreenHost(lambda: MyGamesScreen(Archive(store), ANN))
        async with app.run_test(size=(100, 24)) as pilot:
            await settle(pilot)
            table = app.screen.query_one(DataTable)
            assert table.row_count == SHOWN and cells(table, 0)[0] == str(SHOWN + 1)
            assert note(app).startswith(f"Your newest {SHOWN} games.")


async def test_a_password_login_has_no_kept_games(store: SqliteStore) -> None:
    app = ScreenHost(lambda: MyGamesScreen(Archive(store), "password:ann"))
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        assert app.screen.query_one(DataTable).row_count == 0
        assert "kept by SSH key" in note(app)


async def test_a_server_without_a_store_says_so() -> None:
    for make in (lambda: MyGamesScreen(Archive(None), ANN),
                 lambda: LeaderboardScreen(Archive(None), ANN)):
        app = ScreenHost(make)
        async with app.run_test(size=(100, 24)) as pilot:
            await settle(pilot)
            assert "keeps no games" in note(app)


async def test_leaderboard_ranks_keys_and_bots_as_the_store_rates_them(
        store: SqliteStore) -> None:
    ratings = store.leaderboard()
    assert {r.identity for r in ratings} == {f"key:{ANN}", f"key:{BOB}", "bot:random"}
    app = ScreenHost(lambda: LeaderboardScreen(Archive(store), ANN))
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        def numbers(column: int) -> list[int]:
            return [int(c) for c in cells(table, column)]

        assert numbers(0) == [1, 2, 3]
        assert numbers(3) == [round(r.rating) for r in ratings]
        assert numbers(4) == [r.games for r in ratings]
        assert numbers(5) == [r.wins for r in ratings]
        names = {r.identity: cells(table, 1)[i] for i, r in enumerate(ratings)}
        assert names == {f"key:{ANN}": "ann (you)", f"key:{BOB}": "redbob",
                         "bot:random": "random bot"}
        keys = {r.identity: cells(table, 2)[i] for i, r in enumerate(ratings)}
        assert keys[f"key:{ANN}"] == "annAnnAn" and keys["bot:random"] == "bot"
        games = {r.identity: r.games for r in ratings}
        # ann and bob played two finished games each; the random bot three, twice
        # with two seats (one game each time: it does not play itself)
        assert games == {f"key:{ANN}": 2, f"key:{BOB}": 2, "bot:random": 3}
        await pilot.press("escape")
        assert not isinstance(app.screen, LeaderboardScreen)


class ThreadNoting:
    """A store that notes the thread each read runs on."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        self.threads: list[str] = []

    def __getattr__(self, name: str) -> object:
        method = getattr(self.store, name)

        def call(*args: object) -> object:
            self.threads.append(threading.current_thread().name)
            return method(*args)
        return call


async def test_store_reads_never_run_on_the_event_loop(tmp_path: Path) -> None:
    noting = ThreadNoting(kept_store(tmp_path))
    writer = StoreWriter(noting)  # type: ignore[arg-type]
    loop_thread = threading.current_thread().name
    try:
        for archive in (Archive(noting), Archive(None, writer)):  # type: ignore[arg-type]
            noting.threads.clear()
            assert [g.id for g in await archive.games_of(ANN)] == [4, 2, 1]
            assert len(await archive.leaderboard()) == 3
            kept = await archive.game(2, ANN)
            assert kept.seat == 1
            assert history_of(kept).view(len(kept.replay) - 1).phase is Phase.OVER
            assert len(noting.threads) == 3 and loop_thread not in noting.threads
            if archive.writer is not None:
                assert set(noting.threads) == {"fivetowers-store"}
    finally:
        await writer.close()  # closes the store too


# -- snapshots at 80x24 --------------------------------------------------------------

def test_my_games_snapshot(snap_compare, store: SqliteStore) -> None:
    app = ScreenHost(lambda: MyGamesScreen(Archive(store), ANN))
    assert snap_compare(app, terminal_size=(80, 24), run_before=settle)


def test_replay_snapshot(snap_compare, store: SqliteStore) -> None:
    app = ScreenHost(lambda: MyGamesScreen(Archive(store), ANN))
    assert snap_compare(app, terminal_size=(80, 24), run_before=replay_round_two)


def test_replay_end_snapshot(snap_compare, store: SqliteStore) -> None:
    app = ScreenHost(lambda: MyGamesScreen(Archive(store), ANN))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("down", "down", "enter")
        await settle(pilot)
        await pilot.press("end", "s")
        await settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_leaderboard_snapshot(snap_compare, store: SqliteStore) -> None:
    app = ScreenHost(lambda: LeaderboardScreen(Archive(store), ANN))
    assert snap_compare(app, terminal_size=(80, 24), run_before=settle)
