"""``fivetowers hint``: a position, a record and a seat, a batch; bad input exits 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from fivetowers.cli import main
from fivetowers.games.five_towers.rules import Position
from fivetowers.games.five_towers.rules.record import Record, replay
from fivetowers.games.five_towers.solver import exhaustive_hint

from tests.conftest import FIXTURES

POSITION = FIXTURES / "positions" / "formats-example.json"
RECORD = FIXTURES / "records" / "base-3p-midgame.json"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["hint", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_position_file(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, str(POSITION))
    assert status == 0 and err == ""
    answer = json.loads(out)
    assert out.count("\n") == 1
    assert answer["max_bid"] == 2 and [p["gain"] for p in answer["plans"]] == [0, 1, -1]
    assert all(set(p) == {"bid", "take", "pay", "teardown", "steps", "gain"}
               for p in answer["plans"])


def test_position_on_stdin_with_explanations(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(POSITION.read_text()))
    status, out, _ = run(capsys, "-", "--explain")
    assert status == 0
    plans = json.loads(out)["plans"]
    assert [p["explain"] for p in plans[:2]] == ["build nothing; +0", "build scrap-15; +1"]


def test_record_and_seat(capsys: pytest.CaptureFixture[str]) -> None:
    game, error = replay(Record.from_json(json.loads(RECORD.read_text())))
    assert error is None
    for seat in range(3):
        status, out, _ = run(capsys, str(RECORD), "--seat", str(seat))
        assert status == 0
        expected = exhaustive_hint(Position.from_game(game, seat))
        answer = json.loads(out)
        assert answer["max_bid"] == expected.max_bid
        assert [p["gain"] for p in answer["plans"]] == [p.gain for p in expected.plans]


def test_batch(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    positions = sorted(p for p in (FIXTURES / "positions").glob("*.json")
                       if not p.name.endswith(".expected.json"))
    lines = [json.dumps(json.loads(p.read_text())) for p in positions]
    batch = tmp_path / "in.jsonl"
    batch.write_text("\n".join(lines) + "\n")
    status, out, err = run(capsys, "--batch", str(batch))
    assert status == 0 and err == ""
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(positions)
    for path, result in zip(positions, results):
        expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
        assert result["max_bid"] == expected["max_bid"]
        assert [p["gain"] for p in result["plans"]] == expected["gains"]


def test_batch_bad_lines_get_an_error_line_each(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    good = json.dumps(json.loads(POSITION.read_text()))
    bad_tower = good.replace("[14, 10]", "[10, 14]")
    text = "\n".join([good, "not json", "", bad_tower, RECORD.read_text().replace("\n", " "),
                      "[1, 2]", good]) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status, out, err = run(capsys, "--batch", "-")
    assert status == 1 and err == ""
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == 7
    assert results[0]["max_bid"] == 2 and results[6] == results[0]
    for number in (2, 3, 4, 5, 6):
        error = results[number - 1]["error"]
        assert error["line"] == number and error["message"]
    assert "candy tower" in results[3]["error"]["message"]
    assert "record" in results[4]["error"]["message"]


@pytest.mark.parametrize("argv, words", [
    ([], "give a POSITION"),
    (["/no/such/file.json"], "cannot read"),
    ([str(RECORD)], "--seat"),
    ([str(RECORD), "--seat", "3"], "seats 0..2"),
    ([str(POSITION), "--seat", "0"], "--seat is for a game record"),
    ([str(FIXTURES / "records" / "base-2p-bid-too-high.json"), "--seat", "0"], "illegal"),
    (["--batch", "/no/such/file.jsonl"], "cannot read"),
    ([str(POSITION), "--batch", str(POSITION)], "give a POSITION"),
])
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str],
                                         argv: list[str], words: str) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


@pytest.mark.parametrize("text, words", [
    ("{", "not valid JSON"),
    ('{"format": "fivetowers-position/1", "variant": "base", "towers": {"candy": [3, 5]}}',
     "breaks the building rules"),
    ('{"format": "fivetowers-position/1", "variant": "chess"}', "unknown variant"),
    ('{"format": "fivetowers-position/9"}', "unknown format"),
    ('{"format": "fivetowers-position/1", "variant": "base", "display": ["candy-16"]}',
     "candy-16"),
    ('{"format": "fivetowers-position/1", "variant": "base", '
     '"display": ["a-1", "b-1", "c-1", "d-1", "e-1", "f-1"]}', "display"),
])
def test_bad_positions_from_a_real_process(text: str, words: str) -> None:
    done = subprocess.run([sys.executable, "-m", "fivetowers.cli", "hint", "-"],
                          input=text, capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and words in done.stderr, done.stderr


# -- issue 18 --------------------------------------------------------------------

def _pile_position(size: int) -> str:
    import random

    from fivetowers.games.five_towers.solver.samples import ISSUE_18, with_pile

    position = with_pile(Position.from_json(ISSUE_18), size, random.Random(0))
    return json.dumps(position.to_json())


def test_issue_18_pile_of_60_is_hinted(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """It printed "internal error: RuntimeError: CP-SAT stopped with status FEASIBLE"."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(_pile_position(60)))
    status, out, err = run(capsys, "-")
    assert status == 0 and err == ""
    assert json.loads(out)["max_bid"] == 9


def test_out_of_time_says_so_on_stderr(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint not proven best keeps FORMATS.md's output and says so on stderr."""
    import fivetowers.games.five_towers.solver.cpsat as cpsat
    from fivetowers.games.five_towers.solver import cache_clear

    cache_clear()
    monkeypatch.setattr(cpsat, "SECONDS", 0.0)
    text = _pile_position(60)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status, out, err = run(capsys, "-")
    assert status == 0
    assert set(json.loads(out)) == {"max_bid", "plans"}
    assert err.count("\n") == 1 and "not proven optimal" in err
    monkeypatch.setattr(sys, "stdin", io.StringIO(text + "\n" + text + "\n"))
    status, out, err = run(capsys, "--batch", "-")
    assert status == 0 and len(out.splitlines()) == 2
    assert err.splitlines() == [line for line in err.splitlines()
                                if "not proven optimal" in line] and err.count("\n") == 2
    assert "line 1" in err and "line 2" in err


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_batch_lines_end_only_at_newline(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         separator: str) -> None:
    """A JSON string may hold U+2028, U+0085...: the line stays one line (issue 18)."""
    data = json.loads(POSITION.read_text())
    data["note"] = f"a{separator}b"
    line = json.dumps(data, ensure_ascii=False)
    assert separator in line
    batch = tmp_path / "in.jsonl"
    batch.write_bytes((line + "\r\n" + line + "\n").encode("utf-8"))
    status, out, err = run(capsys, "--batch", str(batch))
    assert status == 0 and err == ""
    results = [json.loads(x) for x in out.splitlines()]
    assert [r["max_bid"] for r in results] == [2, 2]


def test_batch_line_too_long_is_refused_alone(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    good = json.dumps(json.loads(POSITION.read_text()))
    huge = json.dumps({"format": "fivetowers-position/1", "pad": "x" * (3 << 20)})
    batch = tmp_path / "in.jsonl"
    batch.write_text("\n".join([good, huge, good]) + "\n")
    status, out, err = run(capsys, "--batch", str(batch))
    assert status == 1 and err == ""
    results = [json.loads(x) for x in out.splitlines()]
    assert len(results) == 3 and results[0] == results[2]
    assert results[1]["error"]["line"] == 2
    assert "larger than" in results[1]["error"]["message"]
    assert len(out) < 20_000


GOTOWN_POSITIONS = sorted(p for p in (FIXTURES / "gotown" / "positions").glob("*.json")
                          if not p.name.endswith(".expected.json"))


def test_batch_mixes_gotown_positions_with_five_towers_ones(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Each GoTown line is answered exactly as ``hint`` answers its file; the
    5 Towers lines around them as before; a GoTown record line is refused."""
    five = json.dumps(json.loads(POSITION.read_text()))
    gotown = [json.dumps(json.loads(p.read_text())) for p in GOTOWN_POSITIONS]
    record = FIXTURES / "gotown" / "records" / "gotown-3p-midgame-seed307.json"
    lines = [five, *gotown, json.dumps(json.loads(record.read_text())), five]
    batch = tmp_path / "in.jsonl"
    batch.write_text("\n".join(lines) + "\n")
    status, out, err = run(capsys, "--batch", str(batch))
    assert err == ""
    results = [json.loads(line) for line in out.splitlines()]
    assert status == 1 and len(results) == len(lines)
    assert results[0]["max_bid"] == 2 and results[-1] == results[0]
    for path, result in zip(GOTOWN_POSITIONS, results[1:]):
        status, single, _ = run(capsys, str(path))
        assert status == 0 and result == json.loads(single)
        expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
        assert (result["floors"], result["wins"]) == (expected["floors"], expected["wins"])
    error = results[-2]["error"]
    assert error["line"] == len(lines) - 1 and "record" in error["message"]


def test_batch_gotown_line_that_is_invalid_gets_its_error_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    good = json.loads(GOTOWN_POSITIONS[0].read_text())
    bad = dict(good, towers=[[["3", "5"]]] + good["towers"][1:])
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(bad) + "\n" + json.dumps(good)))
    status, out, _ = run(capsys, "--batch", "-")
    assert status == 1
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["error"]["line"] == 1 and "9" in first["error"]["message"]
    assert "floors" in second
