"""GoTown games in the store: kept action by action (a reshuffle's setup
included), restored, exported; rated on GoTown's own leaderboard."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from fivetowers.games.gotown.bots import make_bot
from fivetowers.games.gotown.kind import GAME as GOTOWN
from fivetowers.games.gotown.rules import Game as GoTownGame
from fivetowers.games.five_towers.rules.game import Game as TowersGame
from fivetowers.tables.history import record_text_of
from fivetowers.tables.restore import restore
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import StoreConflict, StoredSeat, action_hook
from tests.tables.kept import kept
from tests.tables.random_play import play_to_end

ANN = StoredSeat("ann", fingerprint="SHA256:ann")
GREEDY = StoredSeat("Hedda (bot)", bot="greedy")


def reshuffling_game() -> tuple[GoTownGame, int]:
    """A seeded GoTown game between greedy bots that rebuilds its draw pile
    before it ends, and the number of its first action that made it do so."""
    for seed in range(40):
        game = GOTOWN.new_match(["ann", "Hedda (bot)"], {"floors": "4"}, seed=seed)
        bot, rng = make_bot("greedy"), random.Random(seed)
        first = None
        while not game.is_terminal():
            assert game.to_move is not None
            game.apply(bot.choose(game.view(game.to_move), rng))
            if first is None and game.reshuffles:
                first = game.action_count() - 1
        if first is not None:
            return game, first
    raise AssertionError("no seed of 40 reshuffled")


def keep_played(store: SqliteStore, code: str, game: GoTownGame,
                upto: int | None = None) -> int:
    """``game``'s actions (the first ``upto``) committed one by one as a live
    table commits them, each with the setup when it changed."""
    start = GOTOWN.new_match([p.name for p in game.players], GOTOWN.options_of(
        game.setup_json()), seed=game.seed if game.seed is not None else 0)
    table_id = store.create_table(code=code, name=code, kind="gotown",
                                  setup=start.setup_json(), seats=[ANN, GREEDY])
    commit = action_hook(store, table_id)
    for i in range(game.action_count() if upto is None else upto):
        # As a record replays it: a thief's catch is the one written down.
        start.apply(GOTOWN.action_from_json(game.action_json(i)), recorded=True)
        commit(start)
    return table_id


def test_a_reshuffle_rides_along_with_its_action_and_the_game_replays(tmp_path: Path) -> None:
    game, first = reshuffling_game()
    store = SqliteStore(tmp_path / "s.sqlite3")
    table_id = keep_played(store, "GOT", game, upto=first + 1)
    stored = store.load_table(table_id)
    assert stored.info.kind == "gotown" and stored.info.options == {"floors": "4"}
    assert stored.record["reshuffles"] == game.setup_json()["reshuffles"][:1]
    report = restore(store)
    assert report.broken == []
    [live] = report.live
    assert live.game.record_json() == GOTOWN.match_from_record(stored.record).record_json()
    assert live.game.action_count() == first + 1
    store.close()


def test_a_setup_list_only_grows_at_its_end(tmp_path: Path) -> None:
    game, first = reshuffling_game()
    store = SqliteStore(tmp_path / "s.sqlite3")
    table_id = keep_played(store, "GOT", game, upto=first + 1)
    setup = store.load_table(table_id).record
    rewritten = {k: setup[k] for k in game.setup_json()}
    rewritten["reshuffles"] = [list(reversed(setup["reshuffles"][0]))]
    with pytest.raises(StoreConflict, match="reshuffles"):
        store.append_action(table_id, first + 1, game.action_json(first + 1), rewritten)
    dropped = {**rewritten, "reshuffles": []}
    with pytest.raises(StoreConflict, match="reshuffles"):
        store.append_action(table_id, first + 1, game.action_json(first + 1), dropped)
    store.close()


def test_a_finished_gotown_game_exports_as_its_record(tmp_path: Path) -> None:
    game, _ = reshuffling_game()
    store = SqliteStore(tmp_path / "s.sqlite3")
    table_id = keep_played(store, "GOT", game)
    result = game.result()
    assert result is not None
    store.finish_table(table_id, list(result.scores), list(result.winners))
    stored = store.load_table(table_id)
    exported = record_text_of(stored.info.kind, stored.record)
    assert list(exported) == list(game.record_json())  # GoTown's own key order
    assert exported == game.record_json()
    store.close()


def test_each_game_is_rated_on_its_own(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    towers = TowersGame(["ann", "Hedda (bot)"], seed=5)
    play_to_end(towers, 5)
    towers_id = store.create_table(code="FT", name="ft", seats=[ANN, GREEDY], **kept(towers))
    outcome = towers.outcome()
    store.finish_table(towers_id, [s.total for s in outcome.scores], outcome.winners)
    before = {r.identity: r for r in store.leaderboard(kind="fivetowers")}

    game, _ = reshuffling_game()
    gotown_id = keep_played(store, "GOT", game)
    result = game.result()
    assert result is not None
    store.finish_table(gotown_id, list(result.scores), list(result.winners))

    # 5 Towers' ratings did not move; GoTown's start from scratch.
    assert {r.identity: r for r in store.leaderboard(kind="fivetowers")} == before
    board = {r.identity: r for r in store.leaderboard(kind="gotown")}
    assert set(board) == {"key:SHA256:ann", "bot:greedy"}
    assert all(r.games == 1 and r.kind == "gotown" for r in board.values())
    assert board["key:SHA256:ann"].wins == int(0 in result.winners)
    assert sum(r.rating for r in board.values()) == pytest.approx(2 * 1500.0)
    if result.scores[0] != result.scores[1]:
        assert board["key:SHA256:ann"].rating != 1500.0
    # Asked for every game: one line per game and identity.
    lines = store.leaderboard(limit=100)
    assert sorted((r.kind, r.identity) for r in lines) == sorted(
        [("fivetowers", "key:SHA256:ann"), ("fivetowers", "bot:greedy"),
         ("gotown", "key:SHA256:ann"), ("gotown", "bot:greedy")])
    assert store.leaderboard(kind="chess") == []
    store.close()
