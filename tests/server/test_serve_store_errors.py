"""``fivetowers serve`` on a damaged or unreadable store: one clear line at start, exit 2."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from fivetowers.rules import Bid, Game, Record, Variant
from fivetowers.tables.store import STORE_FILE, StoredSeat, open_store

SEATS = [StoredSeat("ann", fingerprint="SHA256:ann"), StoredSeat("Hedda (bot)", bot="random")]


def _kept_games(data: Path, games: int = 30) -> Path:
    """A real store with a few games under way."""
    store = open_store(data)
    try:
        for n in range(games):
            game = Game([s.name for s in SEATS], Variant.BASE, seed=n)
            table_id = store.create_table(code=f"C{n:04d}", name=f"table {n}", seats=SEATS,
                                          record=Record.from_game(game))
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
