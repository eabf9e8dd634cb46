"""compat.asyncssh: a server's own SSHServerProcess class, made the way asyncssh makes one."""

from __future__ import annotations

import inspect
from typing import Any

import asyncssh
import pytest

from fivetowers.compat.asyncssh import (SERVER_PROCESS_PARAMETERS, ServerProcessChanged,
                                        server_process)
from fivetowers.server.auth import GameProcess


async def handler(process: asyncssh.SSHServerProcess[bytes]) -> None:
    pass


def test_asyncssh_makes_its_process_with_the_same_positional_arguments() -> None:
    assert list(inspect.signature(asyncssh.SSHServerProcess.__init__).parameters) == \
        SERVER_PROCESS_PARAMETERS, "re-check compat/asyncssh.py: server_process"
    # asyncssh's own call (SSHServerConnection), the one server_process copies.
    source = inspect.getsource(asyncssh.connection)
    assert "SSHServerProcess(process_factory, None, MIN_SFTP_VERSION, False)" in source


def test_a_process_of_our_class_runs_our_handler() -> None:
    process = server_process(GameProcess, handler)
    assert type(process) is GameProcess
    assert process._process_factory is handler  # where asyncssh's start looks
    assert not process.subsystem_requested("sftp")
    assert process.exec_requested("join ABCD")


def test_a_changed_constructor_fails_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    def changed(self: Any, process_factory: Any, sftp_factory: Any, sftp_version: int,
                allow_scp: bool, sftp_options: Any = None) -> None:
        pass

    monkeypatch.setattr(asyncssh.SSHServerProcess, "__init__", changed)
    with pytest.raises(ServerProcessChanged, match="re-check fivetowers/compat/asyncssh.py"):
        server_process(GameProcess, handler)


def test_the_constructor_is_read_once_not_once_a_session(monkeypatch: pytest.MonkeyPatch) -> None:
    server_process(GameProcess, handler)
    reads: list[Any] = []
    signature = inspect.signature
    monkeypatch.setattr(inspect, "signature", lambda code: reads.append(code) or signature(code))
    for _ in range(3):
        assert type(server_process(GameProcess, handler)) is GameProcess
    assert reads == []
