"""Bad command-line input gets one clear line and a status, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fivetowers.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_deeply_nested_json() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    for args in (("replay", "-"), ("hint", "-")):
        out = run(*args, stdin=deep)
        assert out.returncode == 2 and "nested too deeply" in out.stderr
        assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1


def test_export_of_an_impossible_game_number(tmp_path: Path) -> None:
    out = run("export", "99999999999999999999999", "--data-dir", str(tmp_path))
    assert out.returncode == 2 and "not a game number" in out.stderr


def test_play_refuses_a_nan_bot_delay() -> None:
    out = run("play", "--bot-delay", "nan")
    assert out.returncode == 2 and "--bot-delay" in out.stderr


def test_serve_password_file_must_be_readable(tmp_path: Path) -> None:
    out = run("serve", "--port", "0", "--data-dir", str(tmp_path),
              "--password-file", str(tmp_path / "missing"))
    assert out.returncode == 2 and "cannot read the password file" in out.stderr


# -- size limits (issue 18) -------------------------------------------------------

GOOD_RECORD = Path(__file__).parent / "fixtures" / "records" / "base-3p-seed2.json"
POSITION = Path(__file__).parent / "fixtures" / "positions" / "formats-example.json"


def _record(**fields: object) -> str:
    data = json.loads(GOOD_RECORD.read_text())
    data.update(fields)
    return json.dumps(data)


def _refused(out: subprocess.CompletedProcess[str], words: str) -> None:
    """Exit 2, one short line on stderr naming the problem, nothing on stdout."""
    assert out.returncode == 2, out.stderr[:300]
    assert out.stdout == "" and "Traceback" not in out.stderr
    assert out.stderr.count("\n") == 1 and len(out.stderr) < 400, out.stderr[:400]
    assert words in out.stderr, out.stderr


def test_an_oversize_file_is_refused_before_parsing(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_text(_record(players=["a" * (50 << 20), "b"]))
    for args in (("replay", str(big)), ("hint", str(big), "--seat", "0"),
                 ("hint", str(big))):
        _refused(run(*args), "larger than 1024 KiB")
    _refused(run("replay", "-", stdin=" " * (2 << 20) + "{}"), "larger than 1024 KiB")


def test_a_huge_player_name_is_refused() -> None:
    out = run("replay", "-", stdin=_record(players=["x" * 500_000, "Peter", "Anni"]))
    _refused(out, "player name 'xxxxxxxxxxxxxxxxxxxx'… is 500000 characters long; at most 100")


def test_a_huge_deck_is_refused_by_its_length() -> None:
    out = run("replay", "-", stdin=_record(deck=["candy-1"] * 80_000))
    _refused(out, '"deck" holds 80000 cards; the largest card set has 110')
    out = run("replay", "-", stdin=_record(reshuffle=["candy-1"] * 80_000))
    _refused(out, '"reshuffle" holds 80000 cards')


def test_too_many_actions_are_refused() -> None:
    out = run("replay", "-", stdin=_record(actions=[{"seat": 0, "pass": True}] * 20_000))
    _refused(out, '"actions" holds 20000 actions')


@pytest.mark.parametrize("fields", [
    {"format": "f" * 500_000}, {"variant": "v" * 500_000}, {"deck": ["c" * 500_000]},
    {"seed": "s" * 500_000}, {"variant": int("9" * 4000)}, {"players": ["\x1b[2J" * 1000, "b"]},
])
def test_echoed_input_is_cut_short(fields: dict[str, object]) -> None:
    """An offending value is shown by its first ~60 characters, then "…"."""
    out = run("replay", "-", stdin=_record(**fields))
    _refused(out, "")
    assert "\x1b" not in out.stderr


def test_a_malformed_action_message_is_cut_short() -> None:
    data = json.loads(GOOD_RECORD.read_text())
    data["actions"][2] = {"seat": 0, "bid": "b" * 500_000}
    out = run("replay", "-", stdin=json.dumps(data))
    assert out.returncode == 1 and out.stderr == ""
    error = json.loads(out.stdout)["error"]
    assert error["action"] == 2 and len(error["message"]) < 200
    assert error["message"].endswith("'…")


def test_a_number_too_long_is_not_valid_json() -> None:
    _refused(run("replay", "-", stdin='{"seed": ' + "9" * 5000 + "}"), "a number is too long")


@pytest.mark.parametrize("fields, words", [
    ({"teardown": ["candy-1"] * 5000}, '"teardown" may hold at most 110 cards, not 5000'),
    ({"towers": {"candy": [1] * 5000}}, "the candy tower holds 5000 cards"),
    ({"display": ["candy-" + "1" * 500_000]}, "is not a card"),
    ({"format": "p" * 500_000}, "unknown format"),
])
def test_oversize_positions_are_refused(fields: dict[str, object], words: str) -> None:
    data = json.loads(POSITION.read_text())
    data.update(fields)
    _refused(run("hint", "-", stdin=json.dumps(data)), words)


def test_a_huge_path_is_cut_short(tmp_path: Path) -> None:
    _refused(run("replay", "/no/" + "d" * 3000), "cannot read")
    _refused(run("export", "9" * 100_000, "--data-dir", str(tmp_path)), "not a game number")
