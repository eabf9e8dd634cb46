"""The command line on the PostgreSQL store: ``export --store``, ``serve
--store`` refusing what it cannot use, and ``migrate`` from SQLite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fivetowers.games.five_towers.rules.game import Game
from fivetowers.games.five_towers.rules.variant import Variant
from fivetowers.tables.pg_store import PgStore
from fivetowers.tables.store import Store, StoredSeat, open_store
from tests.tables.kept import kept
from tests.tables.random_play import play_to_end
from tests.tables.test_store_export import cli

SEATS = [StoredSeat("Hedda", "SHA256:h"), StoredSeat("Peter", bot="random"),
         StoredSeat("Anni")]


def keep_games(store: Store) -> list[Game]:
    """A finished Great Powers game (rated) and one going on, in ``store``."""
    finished = Game([s.name for s in SEATS], Variant.GREAT_POWERS, seed=5)
    play_to_end(finished, 5)
    going = Game([s.name for s in SEATS], seed=6)
    play_to_end(going, 6, limit=17)
    for i, game in enumerate((finished, going)):
        store.create_table(code=f"C{i}", name="t", seats=SEATS, **kept(game))
    outcome = finished.outcome()
    store.finish_table(1, [s.total for s in outcome.scores], outcome.winners)
    return [finished, going]


def test_export_reads_the_store_named_by_option_or_environment(postgres_url: str) -> None:
    store = PgStore(postgres_url)
    finished, _ = keep_games(store)
    store.close()
    by_option = cli("export", "1", "--store", postgres_url)
    assert by_option.returncode == 0, by_option.stderr
    assert json.loads(by_option.stdout) == finished.record_json()
    by_environment = cli("export", "2", env={"FIVETOWERS_STORE": postgres_url})
    assert by_environment.returncode == 0 and json.loads(by_environment.stdout)["seed"] == 6


@pytest.mark.parametrize("command", ["export", "serve"])
@pytest.mark.parametrize(("store", "message"), [
    ("postgresql://nobody:secret@127.0.0.1:1/none", "cannot reach the store "
                                                    "postgresql://nobody@127.0.0.1:1/none: "),
    ("/var/lib/fivetowers", "--store must be a postgresql:// URL"),
])
def test_a_store_it_cannot_use_is_one_line(command: str, store: str, message: str,
                                           tmp_path: Path) -> None:
    args = ["1"] if command == "export" else ["--port", "0", "--data-dir", str(tmp_path)]
    out = cli(command, *args, "--store", store)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and message in out.stderr, out.stderr
    assert "secret" not in out.stderr and "Traceback" not in out.stderr


def test_serve_refuses_a_newer_store_in_one_line(postgres_url: str, tmp_path: Path) -> None:
    PgStore(postgres_url).close()
    with PgStore(postgres_url) as store:
        with store.transaction() as conn:
            conn.execute("UPDATE fivetowers_store SET version = 99")
    out = cli("serve", "--port", "0", "--data-dir", str(tmp_path), "--store", postgres_url)
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "has store schema version 99, newer than this fivetowers understands" in out.stderr


def test_migrate_copies_games_players_and_ratings(postgres_url: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    sqlite = open_store(data)
    keep_games(sqlite)
    board = sqlite.leaderboard()
    mine = sqlite.games_of("SHA256:h")
    sqlite.close()
    done = cli("migrate", "--from", str(data), "--to", postgres_url)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("copied 2 games, 1 players' keys and 2 ratings into "
                                  "postgresql://postgres@")
    store = PgStore(postgres_url)
    assert store.leaderboard() == board
    assert store.games_of("SHA256:h") == mine
    for game_id in ("1", "2"):  # the same records, under the same numbers
        assert cli("export", game_id, "--store", postgres_url).stdout == \
            cli("export", game_id, "--data-dir", str(data)).stdout
    game = Game(["A", "B"], seed=1)
    new = store.create_table(code="NEW", name="n", seats=SEATS[:2], **kept(game))
    assert new == 3  # numbered after the copied games
    store.close()

    again = cli("migrate", "--from", str(data), "--to", postgres_url)
    assert again.returncode == 2 and again.stderr.count("\n") == 1
    assert "already holds games or ratings: migrate into a new, empty database" in again.stderr


def test_migrate_refuses_a_store_a_server_holds(postgres_url: str, tmp_path: Path) -> None:
    server = open_store(tmp_path, exclusive=True)
    try:
        out = cli("migrate", "--from", str(tmp_path), "--to", postgres_url)
    finally:
        server.close()
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "a fivetowers server is using the store" in out.stderr
    with PgStore(postgres_url) as store:
        assert store.unfinished_tables() == []


def test_migrate_from_nowhere_is_one_line(postgres_url: str, tmp_path: Path) -> None:
    out = cli("migrate", "--from", str(tmp_path / "nowhere"), "--to", postgres_url)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "no store at" in out.stderr
    assert not (tmp_path / "nowhere").exists()


def test_serve_keeps_games_in_the_store_named_and_says_where(postgres_url: str,
                                                             tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    # Trust authentication ignores the password: it stands for a real one here.
    url = postgres_url.replace("postgres:@", "postgres:sekrit@")
    server = subprocess.Popen(
        [sys.executable, "-m", "fivetowers.cli", "serve", "--port", "0", "--data-dir",
         str(tmp_path), "--workers", "1"], env={**os.environ, "FIVETOWERS_STORE": url},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        banner = "".join(server.stdout.readline() for _ in range(4))
        assert "serving on" in banner, banner
    finally:
        server.send_signal(signal.SIGTERM)
        _, log = server.communicate(timeout=60)
    assert "games are kept in postgresql://postgres@" in log, log
    assert "sekrit" not in log
    assert not (tmp_path / "fivetowers.sqlite3").exists()
    with PgStore(postgres_url, create=False) as store:  # the server made the store there
        assert store.unfinished_tables() == []


def test_sharing_the_sqlite_store_is_refused_in_one_line(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FIVETOWERS_STORE", raising=False)
    out = cli("serve", "--port", "0", "--data-dir", str(tmp_path), "--share-store")
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert out.stderr.startswith("fivetowers: serve: sharing a store between servers needs "
                                 "PostgreSQL (--store postgresql://...)")
    assert not (tmp_path / "fivetowers.sqlite3").exists()
