"""A real server on port 0 and real SSH clients that read the screen with pyte."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import AsyncIterator, Iterator

import asyncssh
import pytest

from fivetowers.server.serve import GameServer, ServerConfig
from fivetowers.server.session import AppFactory

from tests.server.server_helpers import LogCapture, StartServer


@pytest.fixture
def server_log() -> Iterator[LogCapture]:
    with LogCapture() as capture:
        yield capture


@pytest.fixture
async def start_server(tmp_path: Path) -> AsyncIterator[StartServer]:
    """Start a GameServer on 127.0.0.1 port 0; every one is stopped at the end."""
    servers: list[GameServer] = []

    async def start(app_factory: AppFactory | None = None, **settings: object) -> GameServer:
        config = replace(ServerConfig(port=0, data_dir=tmp_path / "data", shutdown_grace=0),
                         **settings)  # type: ignore[arg-type]
        server = GameServer(config, app_factory)
        await server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        await server.stop()


@pytest.fixture(scope="session")
def client_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


