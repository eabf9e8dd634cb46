"""``fivetowers serve`` on a damaged or unreadable store: one clear line at start, exit 2."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from fivetowers.games.five_towers.rules import Bid, Game, Record, Variant
from fivetowers.tables.store import STORE_FILE, StoredSeat, open_store
from tests.tables.kept import kept

SEATS = [StoredSeat("ann", fingerprint="SHA256:ann"), StoredSeat("Hedda (bot)", bot="random")]


def _kept_games(data: Path, games: int = 30) -> Path:
    """A real store with a few games under way."""
    store = open_store(data)
    try:
        for n in range(games):
            game = Game([s.name for s in SEATS], Variant.BASE, seed=n)
            table_id = store.create_table(code=f"C{n:04d}", name=f"table {n}", seats=SEATS,
                                          **kept(game))
            first = game.to_move
            assert first is not None
            game.apply(Bid(first, 1))
            store.append_action(table_id, 0, game.actions[-1].to_json(), game.reshuffle)
    finally:
        store.close()
    return data / STORE_FILE


def _garbage(data: Path) -> None:
    data.mkdir()
    (data / STORE_FILE).write_bytes(random.Random(1).randbytes(8192))


def _damaged_pages(data: Path) -> None:
    path = _kept_games(data)
    raw = bytearray(path.read_bytes())
    raw[4096:] = random.Random(2).randbytes(len(raw) - 4096)  # every page after the first
    path.write_bytes(bytes(raw))


def _damaged_action(data: Path) -> None:
    path = _kept_games(data)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE actions SET body = '{half an act' WHERE game = 3")
    conn.close()


def _a_directory(data: Path) -> None:
    (data / STORE_FILE).mkdir(parents=True)


@pytest.mark.parametrize(("damage", "needle"), [
    (_garbage, "is not a fivetowers store or is damaged"),
    (_damaged_pages, "is damaged"),
    (_damaged_action, "is damaged: an action is not JSON"),
    (_a_directory, "cannot open the store"),
])
def test_a_bad_store_is_one_line_at_start(tmp_path: Path, damage: object,
                                          needle: str) -> None:
    data = tmp_path / "data"
    damage(data)  # type: ignore[operator]
    done = subprocess.run(
        [sys.executable, "-m", "fivetowers.cli", "serve", "--port", "0", "--data-dir",
         str(data)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], done.stderr
    assert lines[0].startswith("fivetowers: serve: ") and "Traceback" not in done.stderr
    assert "serving on" not in done.stdout


def _tables_lost(data: Path) -> None:
    """What an older fivetowers left after kill -9 once its -wal and -shm were
    deleted: an SQLite file in WAL mode whose schema was only in the -wal."""
    data.mkdir()
    conn = sqlite3.connect(data / STORE_FILE)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


def _empty(data: Path) -> None:
    data.mkdir()
    (data / STORE_FILE).write_bytes(b"")


@pytest.mark.parametrize(("damage", "needle"), [
    (_tables_lost, "has lost its tables"),
    (_empty, "is empty (0 bytes)"),
])
def test_a_store_that_lost_its_games_is_refused_not_started_afresh(
        tmp_path: Path, damage: object, needle: str) -> None:
    data = tmp_path / "data"
    damage(data)  # type: ignore[operator]
    size = (data / STORE_FILE).stat().st_size
    done = serve(data)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and str(data / STORE_FILE) in lines[0], \
        done.stderr
    assert "serving on" not in done.stdout
    assert (data / STORE_FILE).stat().st_size == size  # left as found, for the operator


def serve(data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fivetowers.cli", "serve", "--port", "0", "--data-dir",
         str(data)], capture_output=True, text=True, timeout=60)


def _crashed_store(data: Path) -> None:
    """A store with a game whose server was killed: its -wal and -shm remain."""
    _kept_games(data, games=2)
    code = ("import os, sys; from fivetowers.tables.store import open_store; "
            "open_store(sys.argv[1]); os.kill(os.getpid(), 9)")
    subprocess.run([sys.executable, "-c", code, str(data)], timeout=60)
    for suffix in ("-wal", "-shm"):
        assert (data / (STORE_FILE + suffix)).exists()


def _unwritable(path: Path) -> Callable[[], None]:
    """Make ``path`` unwritable for this process; returns the undo. Root writes
    through file modes, so as root the file is made immutable instead."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], check=True)

        def undo() -> None:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        return undo
    mode = path.stat().st_mode
    path.chmod(0o555 if path.is_dir() else 0o444)
    return lambda: path.chmod(mode)


@pytest.mark.parametrize("which", ["-shm", "-wal", "", "the directory"])
def test_an_unwritable_store_file_is_named_at_start(tmp_path: Path, which: str) -> None:
    data = tmp_path / "data"
    _crashed_store(data)
    target = data if which == "the directory" else data / (STORE_FILE + which)
    undo = _unwritable(target)
    try:
        done = serve(data)
    finally:
        undo()
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "is not writable" in lines[0], done.stderr
    kind = "data directory" if which == "the directory" else "store file"
    assert lines[0].startswith(f"fivetowers: serve: the {kind} {target} is not writable: ")
    assert "serving on" not in done.stdout
