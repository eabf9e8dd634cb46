"""ascii_names_prepared_at_once: printable ASCII is its own SASLprep, other text goes upstream."""

from __future__ import annotations

from pathlib import Path

import pytest
from asyncssh import auth, connection
from asyncssh.saslprep import SASLPrepError

import fivetowers.compat.saslprep as compat_saslprep
from fivetowers.compat.saslprep import (UPSTREAM_SOURCE, ascii_names_prepared_at_once,
                                        upstream_saslprep, upstream_source_digest)
from tests.compat.calls import python_calls

PRINTABLE_ASCII = "".join(chr(code) for code in range(0x20, 0x7F))




def test_the_profile_stood_for_is_asyncssh_s() -> None:
    assert upstream_source_digest() == UPSTREAM_SOURCE, (
        "asyncssh's saslprep module changed: re-read it, update compat/saslprep.py and its digest")


def test_printable_ascii_comes_out_of_upstream_unchanged() -> None:
    upstream = upstream_saslprep()
    for char in PRINTABLE_ASCII:  # every character the shortcut answers for
        assert upstream(char) == char
    assert upstream(PRINTABLE_ASCII) == PRINTABLE_ASCII
    assert upstream("") == ""


def test_asyncssh_logins_use_it_and_answer_as_upstream() -> None:
    assert ascii_names_prepared_at_once()
    upstream = upstream_saslprep()
    for used in (connection.saslprep, auth.saslprep):
        assert used is not upstream
        for text in ("anni", "bo-2.x_Y@host", PRINTABLE_ASCII, "", "Ｎａｍｅ", "a\u00adb",
                     "caf\u00e9", "a\u3000b", "\u05d0\u05d1"):
            assert used(text) == upstream(text)
        for bad in ("a\x07b", "a\x7f", "\u05d0a", "a\ue000"):  # control, DEL, bidi, private use
            with pytest.raises(SASLPrepError):
                upstream(bad)
            with pytest.raises(SASLPrepError):
                used(bad)
        # A plain name costs no stringprep table lookup at all.
        assert python_calls(lambda: used("anni_from_the_north")) == 1
        assert python_calls(lambda: upstream("anni_from_the_north")) > 50


def test_changed_code_is_left_alone(monkeypatch: pytest.MonkeyPatch,
                                    caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(compat_saslprep, "_upstream", None)
    monkeypatch.setattr(compat_saslprep, "UPSTREAM_SOURCE", "0" * 16)
    monkeypatch.setattr(connection, "saslprep", upstream_saslprep())
    assert not ascii_names_prepared_at_once()
    assert connection.saslprep is upstream_saslprep()
    assert "saslprep changed" in caplog.text


async def test_the_server_installs_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from fivetowers.lobby.app import lobby_factory
    from fivetowers.lobby.model import Lobby
    from fivetowers.server.serve import GameServer, ServerConfig

    monkeypatch.setattr(compat_saslprep, "_upstream", None)
    for user in (connection, auth):
        monkeypatch.setattr(user, "saslprep", upstream_saslprep())
    server = GameServer(ServerConfig(port=0, data_dir=tmp_path, shutdown_grace=0),
                        lobby_factory(Lobby()))
    await server.start()
    try:
        assert connection.saslprep is auth.saslprep is compat_saslprep._saslprep
    finally:
        await server.stop()
