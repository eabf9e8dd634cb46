"""GoTown tables hosted like 5 Towers tables: created in the lobby with their
options, kept move by move, served again after a restart, finished, rated on
GoTown's own leaderboard, exported, listed in "my games" and replayed there."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from textual.widgets import DataTable

from fivetowers.games.gotown.kind import GAME as GOTOWN
from fivetowers.games.gotown.tui.screens.replay import GoTownReplayScreen
from fivetowers.lobby.archive import Archive
from fivetowers.lobby.leaderboard_screen import LeaderboardScreen
from fivetowers.lobby.model import Lobby
from fivetowers.lobby.my_games_screen import MyGamesScreen
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import STORE_FILE

from tests.server.gotown_helpers import play_turns
from tests.server.history_helpers import ScreenHost, settle

ANN, BOB = "SHA256:annGoTown", "SHA256:bobGoTown"


async def test_a_gotown_table_is_kept_served_again_finished_rated_and_exported(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    lobby = Lobby(bot_kind="greedy", bot_delay=0.0, hints=False, rng=random.Random(3),
                  store=SqliteStore(data / STORE_FILE))
    hosted = lobby.create(ANN, "ann", title="short town", players=3, bots=1, private=True,
                          kind="gotown", options={"floors": "4"})
    assert hosted.kind is GOTOWN and hosted.options == {"floors": "4"}
    assert not hosted.started and hosted.private
    assert [s.bot for s in hosted.seats] == [None, None, "greedy"]
    lobby.sit(hosted, BOB, "bob")
    table = hosted.table
    assert table is not None and hosted.status().startswith("playing, turn")
    rng = random.Random(5)
    await play_turns(table, {0, 1}, rng, actions=12)
    assert not table.over
    seen = table.record()  # what every screen shows now
    await lobby.close()  # the server stops (a restart)

    again = Lobby(bot_kind="greedy", bot_delay=0.0, hints=False, rng=random.Random(4),
                  store=SqliteStore(data / STORE_FILE))
    report = again.restore()
    assert report.broken == [] and report.finished == []
    (served,) = again.tables.values()
    assert served.code == hosted.code and served.kind is GOTOWN and served.private
    assert served.options == {"floors": "4"}
    assert served.table is not None and served.table.record() == seen
    assert again.sit(served, ANN, "ann") == 0 and again.sit(served, BOB, "bob") == 1
    await play_turns(served.table, {0, 1}, rng)
    result = served.table.game.result()
    assert result is not None
    table_id = served.table_id
    assert table_id is not None
    record = served.table.record()
    await again.close()

    store = SqliteStore(data / STORE_FILE)
    try:
        info = store.load_table(table_id).info
        assert info.kind == "gotown" and info.finished is not None
        assert info.scores == result.scores and info.winners == result.winners
        assert [g.id for g in store.games_of(ANN)] == [table_id]
        board = store.leaderboard(kind="gotown")
        assert {r.identity for r in board} == {f"key:{ANN}", f"key:{BOB}", "bot:greedy"}
        assert store.leaderboard(kind="fivetowers") == []
    finally:
        store.close()

    exported = subprocess.run(
        [sys.executable, "-m", "fivetowers.cli", "export", str(table_id), "--data-dir",
         str(data)], capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout) == record
    assert list(json.loads(exported.stdout)) == list(record)  # GoTown's key order
    replayed = subprocess.run([sys.executable, "-m", "fivetowers.cli", "replay", "-"],
                              input=exported.stdout, capture_output=True, text=True,
                              timeout=60, env=dict(os.environ))
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["finished"] is True

    # "My games" says which game it was and what the score counts.
    store = SqliteStore(data / STORE_FILE)
    try:
        app = ScreenHost(lambda: MyGamesScreen(Archive(store), ANN))
        async with app.run_test(size=(100, 24)) as pilot:
            await settle(pilot)
            rows = app.screen.query_one(DataTable)
            [row] = [[str(c) for c in rows.get_row_at(r)] for r in range(rows.row_count)]
            assert row[0] == str(table_id) and row[1] == "GoTown" and row[3] == "4"
            assert row[4].endswith(f"{result.scores[0]} floors")
            assert row[5] == "bob, Hedda (bot)"
            # enter replays it in GoTown's own replay viewer, from ann's side
            await pilot.press("enter")
            await settle(pilot)
            replay = app.screen
            assert isinstance(replay, GoTownReplayScreen)
            assert replay.game_id == table_id and replay.seat == 0
            assert replay.last == len(record["actions"])
            await pilot.press("end")
            await settle(pilot)
            assert f"step {replay.last}/{replay.last}" in str(
                replay.query_one("#replay-status").render())
            step = str(replay.query_one("#replay-step").render())
            assert "win" in step  # the last step: the winner
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, MyGamesScreen)
        # The leaderboard shows one game at a time: g goes to the next.
        app = ScreenHost(lambda: LeaderboardScreen(Archive(store), ANN))
        async with app.run_test(size=(100, 24)) as pilot:
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, LeaderboardScreen)
            assert screen.kind.name == "fivetowers"
            assert screen.query_one(DataTable).row_count == 0
            await pilot.press("g")
            await settle(pilot)
            assert screen.kind is GOTOWN
            title = str(screen.query_one("#history-title").render())
            assert title.startswith("Leaderboard: GoTown")
            assert screen.query_one(DataTable).row_count == 3
    finally:
        store.close()
