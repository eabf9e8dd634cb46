"""A store written by the release before issue 12 (19c8d85, schema version 2)
upgrades to this version and plays on.

The fixture (tests/fixtures/stores/release-19c8d85/) was made by that
release (make_release_store.py there says how); beside the store are what
its ``fivetowers export`` and ``fivetowers replay`` printed for each game.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fivetowers.games import game_kind
from fivetowers.tables import sqlite_schema
from fivetowers.tables.restore import restore
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import STORE_FILE, StoredSeat, action_hook

FIXTURE = Path(__file__).parents[1] / "fixtures" / "stores" / "release-19c8d85"
TABLES: list[dict[str, Any]] = json.loads((FIXTURE / "tables.json").read_text())["tables"]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A copy of the release's data directory (the fixture itself is never opened)."""
    shutil.copy(FIXTURE / STORE_FILE, tmp_path / STORE_FILE)
    return tmp_path


def pragma(path: Path, name: str) -> int:
    conn = sqlite3.connect(path)
    try:
        value: int = conn.execute(f"PRAGMA {name}").fetchone()[0]
        return value
    finally:
        conn.close()


def columns(path: Path, table: str) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
    finally:
        conn.close()


def old_ratings(path: Path) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT identity, name, rating, games, wins FROM ratings "
                            "ORDER BY identity").fetchall()
    finally:
        conn.close()


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fivetowers.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60, env=dict(os.environ))


def test_every_table_reads_as_the_release_kept_it(data: Path) -> None:
    path = data / STORE_FILE
    assert pragma(path, "user_version") == 2 and "variant" in columns(path, "games")
    ratings = old_ratings(path)
    store = SqliteStore(path)
    assert pragma(path, "user_version") == sqlite_schema.SCHEMA_VERSION == 5
    assert columns(path, "games") == ["id", "code", "name", "kind", "private", "setup",
                                      "created", "finished", "scores", "winners"]
    for table in TABLES:
        info = store.load_table(table["id"]).info
        assert (info.code, info.name, info.private) == (table["code"], table["name"],
                                                       table["private"])
        assert info.kind == "fivetowers" and info.options == {"variant": table["variant"]}
        assert info.seats == tuple(StoredSeat(s["name"], s["fingerprint"], s["bot"])
                                   for s in table["seats"])
        assert info.actions == table["actions"]
        if table.get("finished"):
            assert info.finished is not None
            assert info.scores == tuple(table["scores"])
            assert info.winners == tuple(table["winners"])
        elif table.get("abandoned"):
            assert info.finished is not None and info.scores is None
        else:
            assert info.finished is None and info.scores is None
    assert sorted(t.info.id for t in store.unfinished_tables()) == [2, 3]
    assert [(r.identity, r.name, r.rating, r.games, r.wins)
            for r in sorted(store.leaderboard(), key=lambda r: r.identity)] == ratings
    # Every rating of that release was won at 5 Towers: they are 5 Towers' now.
    assert {r.kind for r in store.leaderboard()} == {"fivetowers"}
    assert store.leaderboard(kind="gotown") == []
    assert len(ratings) == 3  # two keys and the bot; the guest is not rated
    assert [i.id for i in store.games_of("SHA256:anni")] == [3, 2, 1]
    # Each old row's setup is exactly what the game writes for it now.
    conn = sqlite3.connect(path)
    for table in TABLES:
        (kept,) = conn.execute("SELECT setup FROM games WHERE id = ?", (table["id"],)).fetchone()
        game = game_kind("fivetowers").match_from_record(store.load_table(table["id"]).record)
        assert kept == json.dumps(game.setup_json(), separators=(",", ":"))
    conn.close()
    store.close()


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"table-{t['id']}")
def test_export_and_replay_print_what_the_release_printed(data: Path,
                                                          table: dict[str, Any]) -> None:
    SqliteStore(data / STORE_FILE).close()  # upgraded
    exported = cli("export", str(table["id"]), "--data-dir", str(data))
    assert exported.returncode == 0 and exported.stderr == ""
    assert exported.stdout == (FIXTURE / f"export-{table['id']}.json").read_text()
    replayed = cli("replay", "-", stdin=exported.stdout)
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout == (FIXTURE / f"replay-{table['id']}.json").read_text()


def test_the_unfinished_games_restore_and_play_on(data: Path) -> None:
    store = SqliteStore(data / STORE_FILE)
    report = restore(store)
    assert report.broken == [] and report.finished == []
    live = {r.info.id: r for r in report.live}
    assert sorted(live) == [2, 3]
    great_powers = live[2]
    assert great_powers.kind is game_kind("fivetowers")
    assert great_powers.game.action_count() == TABLES[1]["actions"]
    assert great_powers.game.setup_json()["reshuffle"]  # past its reshuffle, as kept
    # One more move, committed as a table commits it.
    match = great_powers.game
    seat = match.to_move
    bot = great_powers.kind.make_bot("random")
    match.apply(bot.choose(match.view(seat), random.Random(1)))
    action_hook(store, 2)(match)
    store.close()

    store = SqliteStore(data / STORE_FILE)
    stored = store.load_table(2)
    assert stored.info.actions == TABLES[1]["actions"] + 1
    assert stored.record["actions"][-1] == match.action_json(match.action_count() - 1)
    again = game_kind("fivetowers").match_from_record(stored.record)
    assert again.record_json() == match.record_json()
    store.close()


def test_a_failed_migration_leaves_the_release_store_as_it_was(
        data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = data / STORE_FILE
    before = path.read_bytes()
    calls: list[int] = []
    real = sqlite_schema.legacy_setup

    def fail_on_the_second_row(*args: Any) -> dict[str, Any]:
        calls.append(1)
        if len(calls) == 2:  # the new table exists and holds a row by now
            raise RuntimeError("power cut")
        return real(*args)

    monkeypatch.setattr(sqlite_schema, "legacy_setup", fail_on_the_second_row)
    with pytest.raises(RuntimeError, match="power cut"):
        SqliteStore(path)
    assert len(calls) == 2
    assert path.read_bytes() == before  # not a page of the store was touched
    assert pragma(path, "user_version") == 2
    assert "variant" in columns(path, "games") and columns(path, "games_v3") == []
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == len(TABLES)
    conn.close()
    monkeypatch.setattr(sqlite_schema, "legacy_setup", real)
    store = SqliteStore(path)
    assert pragma(path, "user_version") == sqlite_schema.SCHEMA_VERSION and len(store.unfinished_tables()) == 2
    store.close()


def test_a_damaged_row_is_carried_over_and_set_aside_not_a_failed_upgrade(data: Path) -> None:
    path = data / STORE_FILE
    conn = sqlite3.connect(path)
    conn.execute("UPDATE games SET deck = 'not json' WHERE id = 3")
    conn.commit()
    conn.close()
    store = SqliteStore(path)  # the upgrade goes through all the same
    assert pragma(path, "user_version") == sqlite_schema.SCHEMA_VERSION
    report = restore(store)
    assert [r.info.id for r in report.live] == [2]
    [(table_id, reason)] = report.broken
    assert table_id == 3 and "\n" not in reason
    assert store.load_table(3).info.code == "PRV33"  # kept, for an operator to look at
    store.close()
