"""Display names, join codes, the data directory and the host key."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from fivetowers.server.hostkey import HostKeyError, default_data_dir, load_or_create_host_key
from fivetowers.server.names import parse_exec
from fivetowers.user_text import MAX_NAME, clean_name


@pytest.mark.parametrize(("raw", "name"), [
    ("hedda", "hedda"),
    ("\x1b[31mred\x1b[0m", "red"),
    ("\x1b]8;;http://x\x07link\x1b]8;;\x07", "link"),
    ("[bold]anni[/bold]", "boldanni/bold"),
    ("peter\u202eevil", "peterevil"),  # bidi override
    ("a\u200bb", "ab"),  # zero-width space
    ("  many   spaces\there ", "many spaces here"),
    ("x" * 40, "x" * MAX_NAME),
    ("\x07\x08", "player"),
    ("Jürgen Ölmann", "Jürgen Ölmann"),
])
def test_clean_name(raw: str, name: str) -> None:
    assert clean_name(raw) == name


def test_clean_name_has_no_markup_or_controls() -> None:
    cleaned = clean_name("[link=x]\\[\x1b]8;;evil\x07" + "é" * 3)
    assert not set(cleaned) & set("[]\\\x1b\x07")


@pytest.mark.parametrize(("command", "code"), [
    ("join abc12", "ABC12"),
    ("  join   XYZ  ", "XYZ"),
    ("join", None),
    ("join ab", None),
    ("join abc; rm -rf /", None),
    ("ls", None),
    ("join abc def", None),
])
def test_parse_exec(command: str, code: str | None) -> None:
    assert parse_exec(command) == code


def test_host_key_generated_once_private_and_kept(tmp_path: Path) -> None:
    data = tmp_path / "deep" / "data"
    key, created = load_or_create_host_key(data)
    assert created
    assert stat.S_IMODE((data / "ssh_host_ed25519_key").stat().st_mode) == 0o600
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    again, created_again = load_or_create_host_key(data)
    assert not created_again
    assert again.get_fingerprint() == key.get_fingerprint()
    assert key.get_algorithm() == "ssh-ed25519"


def test_unreadable_host_key_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "ssh_host_ed25519_key").write_text("not a key")
    with pytest.raises(HostKeyError, match="cannot read host key"):
        load_or_create_host_key(tmp_path)


def test_default_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / "fivetowers"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_data_dir() == Path.home() / ".local" / "share" / "fivetowers"
