"""Bad command-line input gets one clear line and a status, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


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
