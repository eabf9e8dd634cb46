"""A player's choices (their language) kept by key; an older store gains the table."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fivetowers.tables.sqlite_schema import APPLICATION_ID, migrate
from fivetowers.tables.sqlite_store import SqliteStore

from tests.tables.test_store_schema import pragma


def test_a_preference_is_kept_replaced_and_per_key(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    with SqliteStore(path) as store:
        assert store.preference("SHA256:an", "language") is None
        store.set_preference("SHA256:an", "language", "vi")
        store.set_preference("SHA256:binh", "language", "en")
    with SqliteStore(path) as store:  # across a restart
        assert store.preference("SHA256:an", "language") == "vi"
        store.set_preference("SHA256:an", "language", "en")
        assert store.preference("SHA256:an", "language") == "en"
        assert store.preference("SHA256:binh", "language") == "en"
        assert store.preference("SHA256:an", "theme") is None


def test_a_version_3_store_gains_preferences_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    migrate(conn, 0, target=3)
    conn.execute("INSERT INTO games (id, code, name, kind, setup, created) "
                 "VALUES (1, 'C1', 'old', 'fivetowers', '{}', 1000.0)")
    conn.execute("COMMIT")
    conn.close()
    assert pragma(path, "user_version") == 3
    assert pragma(path, "application_id") == APPLICATION_ID
    with SqliteStore(path) as store:
        store.set_preference("SHA256:an", "language", "vi")
        assert store.preference("SHA256:an", "language") == "vi"
    assert pragma(path, "user_version") == 5
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT code FROM games").fetchall() == [("C1",)]
    conn.close()
