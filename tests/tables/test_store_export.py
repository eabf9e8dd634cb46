"""``fivetowers export GAME`` end to end: its output is a record ``replay`` accepts."""

from __future__ import annotations

import json
import sqlite3
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fivetowers.games.five_towers.rules.game import Game
from fivetowers.games.five_towers.rules.record import Record, result_json
from fivetowers.games.five_towers.rules.variant import Variant
from fivetowers.tables.store import StoredSeat, open_store
from tests.tables.random_play import play_to_end
from tests.tables.kept import kept


def cli(*args: str, stdin: str | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fivetowers.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Game, Game]:
    """A data dir with a finished Great Powers game (table 1) and one going on (2)."""
    directory = tmp_path_factory.mktemp("data")
    store = open_store(directory)
    seats = [StoredSeat("Hedda", "SHA256:h"), StoredSeat("Peter", bot="random"),
             StoredSeat("Anni")]
    finished = Game([s.name for s in seats], Variant.GREAT_POWERS, seed=5)
    play_to_end(finished, 5)
    going = Game([s.name for s in seats], seed=6)
    play_to_end(going, 6, limit=17)
    ids = [store.create_table(code=f"C{i}", name="t", seats=seats, **kept(g))
           for i, g in enumerate((finished, going))]
    assert ids == [1, 2]
    outcome = finished.outcome()
    store.finish_table(1, [s.total for s in outcome.scores], outcome.winners)
    store.close()
    return directory, finished, going


@pytest.mark.parametrize("game_id", ["1", "2"])
def test_export_then_replay(data: tuple[Path, Game, Game], game_id: str) -> None:
    directory, finished, going = data
    game = finished if game_id == "1" else going
    exported = cli("export", game_id, "--data-dir", str(directory))
    assert exported.returncode == 0 and exported.stderr == ""
    assert json.loads(exported.stdout)["format"] == "fivetowers-record/1"
    replayed = cli("replay", "-", stdin=exported.stdout)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout) == result_json(game)
    assert json.loads(replayed.stdout)["finished"] is (game_id == "1")


def test_the_default_data_dir_follows_xdg(data: tuple[Path, Game, Game],
                                          tmp_path: Path) -> None:
    directory, _, _ = data
    xdg = tmp_path / "xdg"
    xdg.mkdir()
    (xdg / "fivetowers").symlink_to(directory)
    out = cli("export", "#1", env={"XDG_DATA_HOME": str(xdg)})
    assert out.returncode == 0 and json.loads(out.stdout)["players"][0] == "Hedda"


@pytest.mark.parametrize(("args", "message"), [
    (["99"], "no game 99"),
    (["first"], "is not a game number"),
    (["1", "--data-dir", "{tmp}/nowhere"], "no store at"),
    (["1", "--data-dir", "{tmp}/junk"], "not a fivetowers store"),
])
def test_bad_requests_get_one_line(data: tuple[Path, Game, Game], tmp_path: Path,
                                   args: list[str], message: str) -> None:
    directory, _, _ = data
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "fivetowers.sqlite3").write_bytes(b"not sqlite at all\n" * 100)
    args = [a.format(tmp=tmp_path) for a in args]
    if "--data-dir" not in args:
        args += ["--data-dir", str(directory)]
    out = cli("export", *args)
    assert out.returncode == 2 and out.stdout == ""
    assert message in out.stderr and out.stderr.count("\n") == 1
    assert "Traceback" not in out.stderr
    assert not (tmp_path / "nowhere").exists()  # export never creates a store


def test_a_damaged_record_is_refused_and_an_illegal_one_given_whole(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    seats = [StoredSeat("Hedda"), StoredSeat("Peter")]
    game = Game([s.name for s in seats], seed=8)
    play_to_end(game, 8, limit=6)
    ids = [store.create_table(code=f"D{i}", name="t", seats=seats, **kept(game))
           for i in range(2)]
    store.close()
    conn = sqlite3.connect(tmp_path / "fivetowers.sqlite3")
    conn.execute("UPDATE games SET setup = json_set(setup, '$.deck[0]', 'candy-99') "
                 "WHERE id = ?", (ids[0],))
    conn.execute("UPDATE actions SET body = '{\"seat\": 0, \"bid\": 99}' "
                 "WHERE game = ? AND idx = 2", (ids[1],))
    conn.commit()
    conn.close()
    damaged = cli("export", str(ids[0]), "--data-dir", str(tmp_path))
    assert damaged.returncode == 2 and damaged.stdout == ""
    assert f"game {ids[0]} in the store is damaged" in damaged.stderr
    assert damaged.stderr.count("\n") == 1 and "Traceback" not in damaged.stderr
    illegal = cli("export", str(ids[1]), "--data-dir", str(tmp_path))
    assert illegal.returncode == 0
    record = json.loads(illegal.stdout)
    assert list(record) == list(game.record_json())  # the game's order, all of it
    assert len(record["actions"]) == 6 and record["actions"][2] == {"seat": 0, "bid": 99}
