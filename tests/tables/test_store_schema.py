"""Schema versions: an older store migrates; a newer, foreign or damaged one is refused."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from fivetowers.games.five_towers.rules.game import Game
from fivetowers.games.five_towers.rules.record import Record, replay
from fivetowers.tables import sqlite_schema
from fivetowers.tables.sqlite_schema import APPLICATION_ID, SCHEMA_VERSION, migrate
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import (
    StoredSeat, StoreMissing, StoreUnreadable, StoreVersionError,
)
from tests.tables.random_play import play_to_end
from tests.tables.kept import kept


def pragma(path: Path, name: str) -> int:
    conn = sqlite3.connect(path)
    try:
        value: int = conn.execute(f"PRAGMA {name}").fetchone()[0]
        return value
    finally:
        conn.close()


def version_1_store(path: Path) -> tuple[Game, Game]:
    """A store as version 1 wrote it: a finished game (no results kept then)
    and an unfinished one."""
    finished = Game(["Hedda", "Bot"], seed=11)
    play_to_end(finished, 11)
    going = Game(["Peter", "Bot"], seed=12)
    play_to_end(going, 12, limit=10)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    migrate(conn, 0, target=1)
    for game_id, (game, key, done) in enumerate(
            [(finished, "SHA256:hedda", 2000.0), (going, "SHA256:peter", None)], start=1):
        record = Record.from_game(game)
        assert record.deck is not None
        conn.execute("INSERT INTO games (id, code, name, variant, seed, deck, created, finished) "
                     "VALUES (?, ?, ?, 'base', ?, ?, 1000.0, ?)",
                     (game_id, f"C{game_id}", "old", game.seed,
                      json.dumps([str(c) for c in record.deck]), done))
        conn.execute("INSERT INTO seats VALUES (?, 0, ?, ?, NULL)",
                     (game_id, game.players[0].name, key))
        conn.execute("INSERT INTO seats VALUES (?, 1, 'Bot', NULL, 'random')", (game_id,))
        for i, action in enumerate(record.actions):
            conn.execute("INSERT INTO actions VALUES (?, ?, ?)",
                         (game_id, i, json.dumps(action)))
    if finished.reshuffle is not None:
        conn.execute("UPDATE games SET reshuffle = ? WHERE id = 1",
                     (json.dumps([str(c) for c in finished.reshuffle]),))
    conn.execute("COMMIT")
    conn.close()
    assert pragma(path, "user_version") == 1
    return finished, going


def test_a_new_store_is_marked_with_the_current_version(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    SqliteStore(path).close()
    assert pragma(path, "user_version") == SCHEMA_VERSION
    assert pragma(path, "application_id") == APPLICATION_ID


def test_a_version_1_store_migrates_and_scores_its_finished_games(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    finished, going = version_1_store(path)
    store = SqliteStore(path)
    assert pragma(path, "user_version") == SCHEMA_VERSION
    info = store.load_table(1).info
    outcome = finished.outcome()
    assert info.scores == tuple(s.total for s in outcome.scores)
    assert info.winners == outcome.winners and info.finished == 2000.0
    board = {r.identity: r for r in store.leaderboard()}
    assert set(board) == {"key:SHA256:hedda", "bot:random"}
    assert board["key:SHA256:hedda"].games == 1
    [live] = store.unfinished_tables()
    assert live.info.seats == (StoredSeat("Peter", "SHA256:peter"), StoredSeat("Bot", bot="random"))
    assert replay(Record.from_json(live.record))[0].actions == going.actions
    store.close()


def test_a_failed_migration_leaves_the_old_version_intact(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.sqlite3"
    version_1_store(path)
    real = sqlite_schema.MIGRATIONS[1]

    def broken(conn: sqlite3.Connection) -> None:
        real(conn)
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(sqlite_schema, "MIGRATIONS", [sqlite_schema.MIGRATIONS[0], broken])
    with pytest.raises(StoreUnreadable, match="disk I/O error"):
        SqliteStore(path)
    assert pragma(path, "user_version") == 1
    monkeypatch.undo()
    store = SqliteStore(path)
    assert store.load_table(1).info.scores is not None
    store.close()


def test_a_newer_store_is_refused_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    SqliteStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.close()
    with pytest.raises(StoreVersionError, match=f"version {SCHEMA_VERSION + 5}.*upgrade"):
        SqliteStore(path)


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    path.write_bytes(b"this is a shopping list, not a database\n" * 200)
    with pytest.raises(StoreUnreadable, match="not a fivetowers store or is damaged"):
        SqliteStore(path)


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreUnreadable, match="not a fivetowers store"):
        SqliteStore(path)


def test_a_damaged_store_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    store = SqliteStore(path)
    for i in range(40):  # enough pages that damage lands inside a table or index
        game = Game(["A", "B"], seed=i)
        play_to_end(game, i)
        store.create_table(code=f"C{i}", name="t", seats=[StoredSeat("A"), StoredSeat("B")],
                           **kept(game))
    store.close()
    data = bytearray(path.read_bytes())
    assert len(data) > 20 * 4096
    for page in range(3, len(data) // 4096, 2):
        start = page * 4096 + 8
        data[start:start + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    with pytest.raises(StoreUnreadable, match="damaged"):
        SqliteStore(path)


def test_no_store_where_one_is_needed(tmp_path: Path) -> None:
    with pytest.raises(StoreMissing, match="no store at"):
        SqliteStore(tmp_path / "none.sqlite3", create=False)
    assert not (tmp_path / "none.sqlite3").exists()


def test_a_damaged_action_is_reported_not_served(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    store = SqliteStore(path)
    game = Game(["A", "B"], seed=1)
    play_to_end(game, 1, limit=5)
    table_id = store.create_table(code="C", name="t", seats=[StoredSeat("A"), StoredSeat("B")],
                                  **kept(game))
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE actions SET body = '{\"seat\": 0, \"bi' WHERE idx = 3")
    conn.commit()
    conn.close()
    store = SqliteStore(path)
    with pytest.raises(StoreUnreadable, match=f"table {table_id} .* damaged"):
        store.unfinished_tables()
    with pytest.raises(StoreUnreadable, match="not JSON"):
        store.load_table(table_id)
    store.close()


def test_a_new_store_is_whole_in_its_main_file_at_once(tmp_path: Path) -> None:
    """Created under a temporary name and linked into place: the main file
    alone (its -wal lost in a crash) is a complete store, and nothing else
    is left in the directory."""
    store = SqliteStore(tmp_path / "new.sqlite3")
    try:
        copy = tmp_path / "copy" / "main-only.sqlite3"
        copy.parent.mkdir()
        shutil.copyfile(tmp_path / "new.sqlite3", copy)  # without its -wal
        assert pragma(copy, "application_id") == APPLICATION_ID
        assert pragma(copy, "user_version") == SCHEMA_VERSION
        SqliteStore(copy).close()  # opens as a store, not as one that lost its tables
    finally:
        store.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy", "new.sqlite3"]


def test_an_empty_or_emptied_store_file_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    with pytest.raises(StoreUnreadable, match=r"empty \(0 bytes\).*remove it"):
        SqliteStore(empty)
    assert empty.read_bytes() == b""  # left as found
    emptied = tmp_path / "emptied.sqlite3"
    conn = sqlite3.connect(emptied)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    with pytest.raises(StoreUnreadable, match="has lost its tables"):
        SqliteStore(emptied)
