"""Local games: q asks first, and every game is kept so that it can be resumed."""

from __future__ import annotations

from pathlib import Path

from fivetowers.games.five_towers.client import LocalClient, local_client, new_local_game
from fivetowers.games.five_towers.kind import GAME
from fivetowers.games.five_towers.rules import Game, Phase, Variant
from fivetowers.games.five_towers.tui.app import create_app
from fivetowers.games.five_towers.tui.screens.end import EndScreen
from fivetowers.ui.leave import LeaveScreen
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.games.five_towers.tui.widgets.status_bar import StatusBar
from fivetowers.games.five_towers.solver import exhaustive_hint
from fivetowers.tables.local import keep_local, last_local, local_hook
from fivetowers.tables.restore import restore
from fivetowers.tables.sqlite_store import SqliteStore

from tests.test_cli_errors import run
from tests.tui.helpers import app_for, finished_client, passive_client, settle
from tests.tui.test_pilot_games import bid_by_keyboard, build_by_keyboard


async def test_q_mid_game_asks_before_leaving() -> None:
    app = app_for(passive_client(Variant.BASE, seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, LeaveScreen) and app.return_code is None
        assert "not kept" in str(app.screen.query_one("#leave").children[0].render())
        await pilot.press("n")  # no: back to the game, nothing changed
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.return_code is None
        await pilot.press("q", "y")
        await pilot.pause()
        assert app.return_code == 0  # yes: gone


async def test_q_after_the_end_leaves_at_once() -> None:
    app = app_for(finished_client(Variant.BASE, seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        await pilot.press("b", "q")  # back to the table, then q: nothing left to lose
        await pilot.pause()
        assert app.return_code == 0


def _keeping(store: SqliteStore, seed: int) -> LocalClient:
    return new_local_game(2, 1, Variant.BASE, seed=seed, bot_kind="random", bot_delay=0,
                          hinter=exhaustive_hint, advice=False,
                          keep=lambda game, seats: keep_local(store, GAME.name, game, seats))


async def test_a_kept_game_left_with_q_resumes_as_it_was(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "fivetowers.sqlite3", durable=False)
    client = _keeping(store, seed=12)
    app = create_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        while client.version < 6:  # a few moves, the human's and the bot's
            await settle(pilot)
            if client.view().phase is Phase.BID:
                await bid_by_keyboard(pilot, client)
            else:
                await build_by_keyboard(pilot, client)
        await settle(pilot)
        record, view = client.table.record(), client.view()
        status = str(app.screen.query_one(StatusBar).render())
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, LeaveScreen)
        assert "fivetowers play --resume" in str(app.screen.query_one("#leave")
                                                 .children[0].render())
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code == 0
    # The server sharing the store does not serve it ...
    assert restore(store).live == []
    # ... `fivetowers play --resume` does, exactly as it was left.
    local = last_local(store)
    assert local is not None and isinstance(local.game, Game)
    assert local.game.record_json() == record
    assert [s.name for s in local.seats] == ["You", "Hedda (bot)"]
    assert [s.bot for s in local.seats] == [None, "random"]
    resumed = local_client(local.game, local.seats, 0, local_hook(store, local.info.id),
                           hinter=exhaustive_hint, advice=False)
    assert resumed.view() == view and resumed.kept
    app = create_app(resumed)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert str(app.screen.query_one(StatusBar).render()) == status
        before = len(store.load_table(local.info.id).record["actions"])
        while resumed.version < 2:  # play on: kept as before
            await settle(pilot)
            if resumed.view().phase is Phase.BID:
                await bid_by_keyboard(pilot, resumed)
            else:
                await build_by_keyboard(pilot, resumed)
        await settle(pilot)
        assert len(store.load_table(local.info.id).record["actions"]) >= before + 2
    store.close()


async def test_a_finished_local_game_is_not_resumed(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "fivetowers.sqlite3", durable=False)
    client = new_local_game(2, 2, Variant.BASE, seed=8, bot_kind="random", bot_delay=0,
                            hinter=exhaustive_hint, advice=False,
                            keep=lambda game, seats: keep_local(store, GAME.name, game, seats))
    client.start()
    await client.table.wait_idle()
    assert client.table.over
    assert last_local(store) is None
    (info,) = [g.info for g in [store.load_table(1)]]
    assert info.finished is not None and info.scores is not None
    store.close()


def test_resume_with_nothing_to_resume_says_so(tmp_path: Path) -> None:
    out = run("play", "--resume", "--data-dir", str(tmp_path))
    assert out.returncode == 2 and "no unfinished local game" in out.stderr
    assert out.stderr.count("\n") == 1


