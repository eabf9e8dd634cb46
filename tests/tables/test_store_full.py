"""A store that cannot write for a while (a full disk), then can again.

The real SQLite store, with a fault injected where SQLite itself fails on a
full disk: every append raises ``sqlite3.OperationalError('database or disk
is full')`` inside its transaction (rolled back) while ``full`` is set. The
table must say so in words that fit 80 columns, the server's log must say so
once per episode, the bot's move must be retried until it lands, a player's
retry must land, and the store and the table must agree move for move.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from pathlib import Path

import pytest

from fivetowers.games.five_towers.bots.random_bot import RandomBot
from fivetowers.games.five_towers.rules import Game, Record, Variant, replay
from fivetowers.games.five_towers.client import TableClient
from fivetowers.tables.seats import Seat
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import PendingAction, StoredSeat
from fivetowers.tables.store_writer import StoreWriter
from fivetowers.tables.table import ActionNotKept, Table
from tests.tables.kept import kept

WIDTH = 80


class FullDiskStore(SqliteStore):
    """Appends fail as on a full disk while ``full`` is set; counts the failures."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, durable=False)
        self.full = threading.Event()
        self.failures = 0
        self.failed = threading.Event()  # set at every failure

    def _append(self, conn: sqlite3.Connection, item: PendingAction) -> None:
        super()._append(conn, item)  # written, then the disk fills: all rolled back
        if self.full.is_set():
            self.failures += 1
            self.failed.set()
            raise sqlite3.OperationalError("database or disk is full")


async def failures_reach(store: FullDiskStore, count: int) -> None:
    """Until the store has refused ``count`` appends (a generous bound: a table
    that stopped trying fails here rather than hangs)."""
    for _ in range(count):
        store.failed.clear()
        if store.failures >= count:
            return
        await asyncio.to_thread(store.failed.wait, 30)
    assert store.failures >= count, f"only {store.failures} tries to save"


def screen_line(client: TableClient) -> str:
    problem = client.problem()
    assert problem is not None
    return f" {problem} (q quits) "  # as the table screen's top line shows it


def bot_and_human(tmp_path: Path) -> tuple[FullDiskStore, StoreWriter, Table, int]:
    """A bot (seat 0, first to bid) and a human, kept through the writer as the
    server keeps them."""
    store = FullDiskStore(tmp_path / "full.sqlite3")
    game = Game(["Hedda (bot)", "Ann"], Variant.BASE, seed=4)
    table_id = store.create_table(code="FULL", name="full disk", **kept(game),
                                  seats=[StoredSeat("Hedda (bot)", bot="random"),
                                         StoredSeat("Ann", "SHA256:ann")])
    writer = StoreWriter(store)

    async def keep(after: Game) -> None:
        await writer.append(PendingAction.last_of(table_id, after))

    table = Table(game, [Seat("Hedda (bot)", bot="random"), Seat("Ann")], bot_delay=0,
                  bots={0: RandomBot()}, on_action=keep)
    table.save_retry_first = table.save_retry_max = 0.01
    assert game.to_move == 0
    return store, writer, table, table_id


def assert_store_agrees(store: SqliteStore, table: Table, table_id: int) -> None:
    record = Record.from_json(store.load_table(table_id).record)
    assert record.actions == [a.to_json() for a in table.game.actions]  # none lost or twice
    game, error = replay(record)
    assert error is None and game.actions == table.game.actions


async def test_a_bots_move_is_retried_until_the_store_writes_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store, writer, table, table_id = bot_and_human(tmp_path)
    client = TableClient(table, 1)
    caplog.set_level(logging.INFO, logger="fivetowers")
    store.full.set()
    table.start()
    await failures_reach(store, 3)
    assert table.game.actions == [] and table.version == 0
    assert table.bot_error is None and table.cannot_save
    line = screen_line(client)
    assert "cannot save moves" in line and len(line) <= WIDTH, line
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, errors  # once per episode, not once per retry
    assert "database or disk is full" in errors[0].getMessage()

    store.full.clear()  # space is freed: the table goes on by itself
    await asyncio.wait_for(table.wait_idle(), 30)
    assert table.game.to_move == 1 and len(table.game.actions) == 1
    assert not table.cannot_save and client.problem() is None
    assert any("writes again" in r.getMessage() for r in caplog.records)
    assert_store_agrees(store, table, table_id)
    await writer.close()


async def test_a_players_retry_lands_once_the_store_writes_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store, writer, table, table_id = bot_and_human(tmp_path)
    client = TableClient(table, 1)
    table.start()
    await table.wait_idle()  # the bot has bid; the human's turn
    before = list(table.game.actions)
    move = table.game.legal_actions()[0]
    assert move.seat == 1

    store.full.set()
    for _ in range(2):
        with pytest.raises(ActionNotKept) as refused:
            await client.submit(move)
        assert len(str(refused.value)) <= WIDTH and "try again" in str(refused.value)
        assert table.game.actions == before and client.problem() is not None
    assert [r.levelno for r in caplog.records if r.levelno >= logging.ERROR] == [logging.ERROR]

    store.full.clear()
    await client.submit(move)  # the same move, now kept
    assert len(table.game.actions) == len(before) + 1 and client.problem() is None
    await asyncio.wait_for(table.wait_idle(), 30)  # and the bot plays on
    assert_store_agrees(store, table, table_id)
    await writer.close()


async def test_a_long_episode_keeps_retrying_at_the_longest_pause() -> None:
    """Thousands of failures in a row: the pause stays at its cap (the doubling
    once overflowed a float and ended the bot's retries)."""
    game = Game(["Bot", "You"], Variant.BASE, seed=1)
    table = Table(game, [Seat("Bot", bot="random"), Seat("You")], bot_delay=0,
                  bots={0: RandomBot()})
    table.save_retry_first, table.save_retry_max = 1e-6, 1e-4
    tries = [0]

    def full(after: Game) -> None:
        tries[0] += 1
        if tries[0] <= 1500:
            raise OSError("database or disk is full")

    table.on_action = full
    table.start()
    await asyncio.wait_for(table.wait_idle(), 60)
    assert table.bot_error is None and len(table.game.actions) == tries[0] - 1500 >= 1
