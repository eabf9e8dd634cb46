"""``ssh HOST export GAME``: a key's own finished games, and nothing else."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import AsyncIterator

import asyncssh
import pytest

from fivetowers.cli import _record_text
from fivetowers.lobby.app import lobby_factory
from fivetowers.lobby.export import exporter
from fivetowers.lobby.model import Lobby
from fivetowers.server.names import parse_exec, parse_export
from fivetowers.server.serve import GameServer, ServerConfig
from fivetowers.tables.history import record_text_of
from fivetowers.tables.sqlite_store import SqliteStore

from tests.server.history_helpers import ANN, kept_store
from tests.server.server_helpers import connect



@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[tuple[GameServer, SqliteStore]]:
    store = kept_store(tmp_path)  # 1 ann's, 2 bob's and ann's, 3 bob's, 4 ann's unfinished
    lobby = Lobby(store=store)
    config = ServerConfig(port=0, data_dir=tmp_path / "data", shutdown_grace=0)
    game_server = GameServer(config, lobby_factory(lobby), exporter(lobby))
    await game_server.start()
    yield game_server, store
    await game_server.stop()
    await lobby.close()


def _as(fingerprint: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key logs in as ``fingerprint`` (the stored games' keys are made up)."""
    monkeypatch.setattr(asyncssh.SSHKey, "get_fingerprint",
                        lambda self, hash_name="sha256": fingerprint)


async def _run(server: GameServer, command: str) -> asyncssh.SSHCompletedProcess:
    async with await connect(server) as conn:
        return await asyncio.wait_for(conn.run(command, encoding="utf-8"), 10)


async def test_a_player_exports_their_own_finished_game(
        server: tuple[GameServer, SqliteStore], monkeypatch: pytest.MonkeyPatch) -> None:
    game_server, store = server
    _as(ANN, monkeypatch)
    for command in ("export 2", "export #2", "  export 2 "):
        result = await _run(game_server, command)
        assert result.exit_status == 0, result.stderr
        stored = store.load_table(2)
        # Byte for byte what `fivetowers export 2` prints on the server.
        assert result.stdout == _record_text(record_text_of(stored.info.kind,
                                                            stored.record)) + "\n"
        assert json.loads(str(result.stdout))["players"][1] == "ann"
        assert result.stderr == ""


async def test_other_keys_games_unknown_and_running_ones_are_refused(
        server: tuple[GameServer, SqliteStore], monkeypatch: pytest.MonkeyPatch) -> None:
    game_server, _ = server
    _as(ANN, monkeypatch)
    theirs = await _run(game_server, "export 3")  # bob's game
    unknown = await _run(game_server, "export 99")
    assert theirs.exit_status == unknown.exit_status == 1
    assert theirs.stdout == unknown.stdout == ""
    assert str(theirs.stderr).strip() == \
        'fivetowers: game 3 is not one of your games (see "my games" in the lobby for their numbers)'
    assert str(unknown.stderr).strip() == str(theirs.stderr).strip().replace("3", "99", 1)
    running = await _run(game_server, "export 4")  # ann's, still going on: its deck is secret
    assert running.exit_status == 1 and running.stdout == ""
    assert "still being played" in str(running.stderr)
    assert len(str(running.stderr).strip().splitlines()) == 1


async def test_no_other_command_runs(server: tuple[GameServer, SqliteStore],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    game_server, _ = server
    _as(ANN, monkeypatch)
    for command in ("export 2; cat /etc/passwd", "export 2 && id", "export ../1", "export -1",
                    "export 0", "export 1 2", "export", "exportx 2", "sh -c 'export 2'",
                    "export 2\nid", "export ２", "export 1234567890123456789"):
        result = await _run(game_server, command)
        assert result.exit_status == 2, command
        assert str(result.stdout).strip() == \
            "fivetowers: the only commands are: join CODE, export GAME", command


def test_the_export_command_parses_strictly() -> None:
    assert parse_export("export 42") == 42 and parse_export("export #7") == 7
    for command in ("export 42 ", "\texport\t42"):
        assert parse_export(command) == 42
    for command in ("export 0", "export -1", "export 4.2", "export 42;id", "export ４２",
                    "Export 42", "export 42 43", "join 42"):
        assert parse_export(command) is None, command
    assert parse_exec("export 42") is None
