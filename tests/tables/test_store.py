"""The store, on SQLite and on PostgreSQL: keeping tables, actions, results;
reading them back."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from fivetowers.games.five_towers.rules.game import Game, Phase
from fivetowers.games.five_towers.rules.record import replay, result_json
from fivetowers.games.five_towers.rules.variant import Variant
from fivetowers.tables.store import (
    PendingAction, Store, StoreBusy, StoreConflict, StoredSeat, UnknownTable, action_hook,
    open_store,
)
from tests.tables.backends import Backend
from tests.tables.random_play import random_action, step_rng
from tests.tables.kept import kept, record

SEATS = (StoredSeat("Hedda", fingerprint="SHA256:hedda"), StoredSeat("Bot", bot="random"),
         StoredSeat("Guest"))


class Clock:
    """A clock the test moves, so "newest first" does not depend on timing."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def new_table(store: Store, code: str, seed: int | None = 7,
              variant: Variant = Variant.BASE) -> tuple[int, Game]:
    game = Game([s.name for s in SEATS], variant, seed=seed)
    table_id = store.create_table(code=code, name=f"table {code}", seats=SEATS,
                                  **kept(game))
    return table_id, game


def play(store: Store, table_id: int, game: Game, seed: int, count: int | None) -> None:
    """Play on like a live table does: apply, then commit through the hook."""
    hook = action_hook(store, table_id)
    while game.phase is not Phase.OVER and (count is None or count > 0):
        action = random_action(game, step_rng(seed, len(game.actions)))
        game.apply(action)
        hook(game)
        count = None if count is None else count - 1


def test_a_table_survives_closing_and_replays_to_the_same_state(backend: Backend) -> None:
    store = backend.open()
    table_id, game = new_table(store, "ABCD", variant=Variant.GREAT_POWERS)
    play(store, table_id, game, seed=1, count=30)
    store.close()

    store = backend.open()
    [stored] = store.unfinished_tables()
    assert stored.info.id == table_id and stored.info.code == "ABCD"
    assert stored.info.seats == SEATS and stored.info.actions == 30
    assert stored.info.kind == "fivetowers" and stored.info.finished is None
    assert stored.info.options == {"variant": "great-powers"}
    rebuilt, error = replay(record(stored.record))
    assert error is None
    assert result_json(rebuilt) == result_json(game)
    assert stored.record == game.record_json()
    store.close()


def test_the_reshuffle_is_kept_with_the_action_that_caused_it(backend: Backend) -> None:
    # Without a seed the reshuffle is truly random: only the stored one replays.
    store = backend.open()
    table_id, game = new_table(store, "R", seed=None)
    while game.reshuffle is None:
        play(store, table_id, game, seed=2, count=1)
    stored = store.load_table(table_id)
    assert record(stored.record).reshuffle == game.reshuffle
    assert result_json(replay(record(stored.record))[0]) == result_json(game)
    play(store, table_id, game, seed=2, count=None)
    assert result_json(replay(record(store.load_table(table_id).record))[0]) == \
        result_json(game)
    store.close()


def test_actions_out_of_order_are_refused_and_change_nothing(backend: Backend) -> None:
    store = backend.open()
    table_id, game = new_table(store, "X")
    play(store, table_id, game, seed=3, count=3)
    for index in (2, 4):  # a duplicate, a gap
        with pytest.raises(StoreConflict, match="out of order"):
            store.append_action(table_id, index, {"seat": 0, "pass": True})
    assert store.load_table(table_id).record["actions"] == [a.to_json() for a in game.actions]
    with pytest.raises(UnknownTable):
        store.append_action(table_id + 1, 0, {"seat": 0, "bid": 1})
    store.close()


def test_a_second_different_reshuffle_is_refused(backend: Backend) -> None:
    store = backend.open()
    table_id, game = new_table(store, "X")
    setup = game.setup_json()
    first = {**setup, "reshuffle": setup["deck"][:3]}
    store.append_action(table_id, 0, {"seat": 0, "bid": 0}, setup=first)
    store.append_action(table_id, 1, {"seat": 1, "pass": True}, setup=first)  # the same: kept
    with pytest.raises(StoreConflict, match="another reshuffle"):
        store.append_action(table_id, 2, {"seat": 2, "pass": True},
                            setup={**setup, "reshuffle": setup["deck"][3:6]})
    with pytest.raises(StoreConflict, match="another reshuffle"):  # a setup never shrinks
        store.append_action(table_id, 2, {"seat": 2, "pass": True}, setup=setup)
    assert store.load_table(table_id).info.actions == 2
    assert store.load_table(table_id).record["reshuffle"] == setup["deck"][:3]
    store.close()


def test_finishing_keeps_results_rates_and_lists_my_games(backend: Backend) -> None:
    store = backend.open(clock=Clock())
    first, game = new_table(store, "ONE")
    play(store, first, game, seed=4, count=None)
    second, other = new_table(store, "TWO")
    outcome = game.outcome()
    scores = [s.total for s in outcome.scores]

    assert store.finish_table(first, scores, outcome.winners) is True
    assert store.finish_table(first, scores, outcome.winners) is False  # rated once
    with pytest.raises(StoreConflict, match="finished"):
        store.append_action(first, len(game.actions), {"seat": 0, "bid": 0})

    assert [t.info.id for t in store.unfinished_tables()] == [second]
    info = store.load_table(first).info
    assert info.scores == tuple(scores) and info.winners == outcome.winners
    assert info.finished is not None
    mine = store.games_of("SHA256:hedda")
    assert [g.id for g in mine] == [second, first]  # newest first
    assert mine[1].actions == len(game.actions) and mine[0].actions == 0
    assert store.games_of("SHA256:nobody") == []

    board = store.leaderboard()
    assert {r.identity for r in board} == {"key:SHA256:hedda", "bot:random"}  # guest unrated
    assert all(r.games == 1 for r in board)
    assert sum(r.rating for r in board) == pytest.approx(2 * 1500.0)  # zero-sum
    hedda = next(r for r in board if r.identity == "key:SHA256:hedda")
    assert hedda.name == "Hedda" and hedda.wins == int(0 in outcome.winners)
    bot = next(r for r in board if r.identity == "bot:random")
    if scores[0] > scores[1]:
        assert hedda.rating > 1500.0 > bot.rating
    assert board == sorted(board, key=lambda r: -r.rating)
    store.close()


def test_a_join_code_is_unique_among_live_tables_only(backend: Backend) -> None:
    store = backend.open()
    first, _ = new_table(store, "SAME")
    with pytest.raises(StoreConflict, match="join code"):
        new_table(store, "SAME")
    store.finish_table(first, [0, 0, 0], [0, 1, 2])
    new_table(store, "SAME")  # the finished table gave its code back
    assert len(store.unfinished_tables()) == 1
    store.close()


def test_bad_tables_are_refused(backend: Backend) -> None:
    store = backend.open()
    game = Game(["A", "B"], seed=1)
    with pytest.raises(StoreConflict, match="kind"):
        store.create_table(code="C", name="c", seats=[StoredSeat("A"), StoredSeat("B")],
                           **{**kept(game), "kind": ""})
    with pytest.raises(StoreConflict, match="seats"):
        store.create_table(code="C", name="c", seats=[], **kept(game))
    table_id = store.create_table(code="C", name="c", seats=[StoredSeat("A"), StoredSeat("B")],
                                  **kept(game))
    with pytest.raises(StoreConflict, match="2 seats"):
        store.finish_table(table_id, [1, 2, 3], [2])
    with pytest.raises(UnknownTable):
        store.load_table(table_id + 1)
    store.close()


def test_threads_may_share_one_store(backend: Backend) -> None:
    store = backend.open(durable=False)
    tables = [new_table(store, f"T{i}", seed=i) for i in range(4)]
    errors: list[BaseException] = []

    def run(table_id: int, game: Game, seed: int) -> None:
        try:
            play(store, table_id, game, seed, count=25)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(t, g, i)) for i, (t, g) in enumerate(tables)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for table_id, game in tables:
        assert store.load_table(table_id).record["actions"] == [a.to_json() for a in game.actions]
    store.close()


def test_open_store_uses_the_data_dir(tmp_path: Path) -> None:
    store = open_store(tmp_path / "data")
    new_table(store, "D")
    store.close()
    assert (tmp_path / "data" / "fivetowers.sqlite3").is_file()
    store = open_store(tmp_path / "data", create=False)
    assert len(store.unfinished_tables()) == 1
    store.close()


def test_an_exclusive_store_refuses_a_second_server(tmp_path: Path) -> None:
    server = open_store(tmp_path, exclusive=True)
    with pytest.raises(StoreBusy, match="another fivetowers server"):
        open_store(tmp_path, exclusive=True)
    reader = open_store(tmp_path, create=False)  # export may read meanwhile
    assert reader.unfinished_tables() == []
    reader.close()
    server.close()
    open_store(tmp_path, exclusive=True).close()  # released on close


def test_the_setup_is_sent_only_when_an_action_changed_it(backend: Backend) -> None:
    store = backend.open()
    table_id, game = new_table(store, "S", seed=None)
    sent: list[bool] = []
    append = store.append_action

    def spy(table_id: int, index: int, action: Any, setup: Any = None) -> None:
        sent.append(setup is not None)
        append(table_id, index, action, setup)

    store.append_action = spy  # type: ignore[method-assign]
    hook = action_hook(store, table_id)
    after_reshuffle = 3
    while after_reshuffle:
        game.apply(random_action(game, step_rng(5, len(game.actions))))
        hook(game)
        after_reshuffle -= game.reshuffle is not None
    # The hook knows nothing at first (so sends it once), then only the
    # action that revealed the reshuffle carries the setup.
    assert [i for i, s in enumerate(sent) if s] == [0, len(sent) - 3]
    assert record(store.load_table(table_id).record).reshuffle == game.reshuffle
    item = PendingAction.last_of(table_id, game, game.setup_json())
    assert item.setup is None and item.index == len(game.actions) - 1
    assert PendingAction.last_of(table_id, game, {"format": "x"}).setup == game.setup_json()
    store.close()
