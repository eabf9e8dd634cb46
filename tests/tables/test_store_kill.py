"""SIGKILL a process writing games to the store, again and again.

After every kill the store must hold, for every table, a prefix of that
table's one true action list (fixed by its seed: tests/tables/random_play.py)
that replays without error, and every action the writer reported committed
before it died. The next writer restores the tables by replaying them and
plays on, so a wrong restore shows up as a diverging prefix later.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from fivetowers.games.five_towers.rules.game import Game
from fivetowers.games.five_towers.rules.record import Record, replay
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import STORE_FILE
from tests.conftest import ROOT
from tests.tables.random_play import play_to_end
from tests.tables.store_kill_writer import new_game

KILLS = 24


class Oracle:
    """Each table's whole game, recomputed from its seed (cached)."""

    def __init__(self) -> None:
        self._games: dict[int, Game] = {}

    def game(self, seed: int) -> Game:
        if seed not in self._games:
            game = new_game(seed)
            play_to_end(game, seed)
            self._games[seed] = game
        return self._games[seed]


def run_and_kill(data_dir: Path, rng: random.Random) -> list[str]:
    """Start the writer, SIGKILL it at a random moment; the lines it got out."""
    mode = ["async"] if rng.random() < 0.5 else []
    writer = subprocess.Popen(
        [sys.executable, "-m", "tests.tables.store_kill_writer", str(data_dir), *mode],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert writer.stdout is not None and writer.stderr is not None
    lines: list[str] = []
    moment = rng.random()
    if moment < 0.2:
        time.sleep(rng.uniform(0.0, 0.3))  # maybe while it starts, restores or creates
    elif moment < 0.4:
        # Around the end of a game: between its last action, finish_table and
        # the next table's creation.
        deadline = time.monotonic() + 20
        while not lines or not lines[-1].startswith("F"):
            line = writer.stdout.readline().decode()
            assert line and time.monotonic() < deadline, "the writer finished no game"
            lines.append(line)
        time.sleep(rng.uniform(0.0, 0.002))
    else:
        lines.append(writer.stdout.readline().decode())  # it is writing now
        time.sleep(rng.uniform(0.0, 0.25))
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    lines += writer.stdout.read().decode().splitlines()
    errors = writer.stderr.read().decode()
    writer.stdout.close()
    writer.stderr.close()
    assert errors == "", errors
    return [line.strip() for line in lines if line.strip()]


def test_kill_9_never_loses_a_committed_action(tmp_path: Path) -> None:
    rng = random.Random(7)
    oracle = Oracle()
    reported: dict[int, int] = {}  # table -> actions reported committed
    finished: set[int] = set()
    total_actions = 0
    for _ in range(KILLS):
        for line in run_and_kill(tmp_path, rng):
            kind, table, *rest = line.split()
            if kind == "A":
                reported[int(table)] = int(rest[0]) + 1
                total_actions += 1
            elif kind == "F":
                finished.add(int(table))

        store = SqliteStore(tmp_path / STORE_FILE)
        try:
            ids = set(range(1, _table_count(tmp_path / STORE_FILE) + 1))
            for table_id in ids:
                stored = store.load_table(table_id)
                record, info = Record.from_json(stored.record), stored.info
                assert record.seed is not None
                truth = oracle.game(record.seed)
                assert record.deck == truth.initial_deck
                assert info.actions >= reported.get(table_id, 0), "a committed action was lost"
                assert record.actions == [a.to_json() for a in truth.actions[:info.actions]]
                game, error = replay(record)
                assert error is None
                if info.finished is not None:
                    assert game.is_terminal()
                    assert record.actions == [a.to_json() for a in truth.actions]
                    assert info.scores == tuple(s.total for s in truth.outcome().scores)
                else:
                    assert table_id not in finished
            # Results and ratings are one commit: each finished table counts
            # once for each distinct rated identity at it, never more or less.
            infos = [store.load_table(t).info for t in ids]
            expected_games = sum(len({s.identity for s in info.seats if s.identity})
                                 for info in infos if info.finished is not None)
            assert sum(r.games for r in store.leaderboard(10_000)) == expected_games
        finally:
            store.close()
    print(f"{KILLS} kills, {total_actions} actions and {len(finished)} finished tables reported")
    assert total_actions > 100 and finished, "the writer hardly ran: the test tested nothing"



def _table_count(path: Path) -> int:
    """Every table ever kept (the Store protocol lists only live ones or by key)."""
    conn = sqlite3.connect(path)
    try:
        count: int = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        return count
    finally:
        conn.close()


def run_paced_and_kill(data_dir: Path, rng: random.Random) -> list[str]:
    """Start the paced writer, let it make a random number of writes, and
    SIGKILL it while it waits between two writes; the lines it got out."""
    writer = subprocess.Popen(
        [sys.executable, "-m", "tests.tables.store_kill_writer", str(data_dir), "paced"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert writer.stdin is not None and writer.stdout is not None
    lines: list[str] = []
    try:
        for _ in range(rng.randrange(0, 120)):
            line = writer.stdout.readline().decode()
            assert line, "the paced writer stopped: " + writer.stderr.read().decode()
            lines.append(line.strip())
            writer.stdin.write(b"\n")  # and it writes again
            writer.stdin.flush()
        lines.append(writer.stdout.readline().decode().strip())  # it waits after this one
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        for stream in (writer.stdin, writer.stdout, writer.stderr):
            stream.close()
    return [line for line in lines if line]


def test_kill_9_between_writes_then_deleting_the_wal_loses_nothing(tmp_path: Path) -> None:
    """An operator cleaning up after a crash deletes the -wal and -shm files:
    if the kill fell between two writes, the main file alone holds every
    action the writer was told was kept (each write is checkpointed before
    it returns). A kill inside a write's checkpoint can tear the main file;
    only the -wal mends that, which test_kill_9_never_loses_a_committed_action
    covers, and scripts/stress_deleted_wal.py measures how often it happens."""
    rng = random.Random(11)
    reported: dict[int, int] = {}
    for _ in range(8):
        for line in run_paced_and_kill(tmp_path, rng):
            kind, table, *rest = line.split()
            if kind == "A":
                reported[int(table)] = int(rest[0]) + 1
        for name in (STORE_FILE + "-wal", STORE_FILE + "-shm"):
            (tmp_path / name).unlink(missing_ok=True)
        store = SqliteStore(tmp_path / STORE_FILE)
        try:
            for table_id, count in reported.items():
                info = store.load_table(table_id).info
                assert info.actions >= count, f"table {table_id} lost acknowledged actions"
        finally:
            store.close()
    assert sum(reported.values()) > 100, "the writer hardly ran: the test tested nothing"
