"""Helpers for the server tests: log capture, clients, a pyte screen."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import socket
import sys
import time
import weakref
from pathlib import Path
from typing import Any, Awaitable, Callable

import asyncssh
import pyte

from textual.app import App

from fivetowers.server.serve import GameServer
from fivetowers.server.session import Visitor

WAIT = 30.0
"""Seconds a screen may take to show what a test waits for: generous, since a
loaded machine (two test workers, other work) can be slow and a wait ends
as soon as the text is there."""

StartServer = Callable[..., Awaitable[GameServer]]


class LogCapture:
    """The server's log lines, through a handler bound when the test starts."""

    def __init__(self) -> None:
        self.stream = io.StringIO()
        self.handler = logging.StreamHandler(self.stream)
        self.handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
        self.logger = logging.getLogger("fivetowers.server")

    def __enter__(self) -> LogCapture:
        self.logger.addHandler(self.handler)
        self._level = self.logger.level
        self.logger.setLevel(logging.INFO)
        return self

    def __exit__(self, *exc: object) -> None:
        self.logger.removeHandler(self.handler)
        self.logger.setLevel(self._level)

    @property
    def text(self) -> str:
        return self.stream.getvalue()


async def connect(server: GameServer, key: asyncssh.SSHKey | None = None,
                  username: str = "alice", **options: object) -> asyncssh.SSHClientConnection:
    keys = [key] if key is not None else [asyncssh.generate_private_key("ssh-ed25519")]
    options.setdefault("client_keys", keys)
    options.setdefault("agent_path", None)
    return await asyncssh.connect("127.0.0.1", server.port, username=username,
                                  known_hosts=None, **options)  # type: ignore[arg-type]


class Screen:
    """A client session with a pty, its output fed to a pyte terminal."""

    def __init__(self, process: asyncssh.SSHClientProcess[bytes], width: int, height: int) -> None:
        self.process = process
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.closed = asyncio.Event()
        self._pump = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, conn: asyncssh.SSHClientConnection, width: int = 100, height: int = 30,
                   term: str = "xterm-256color", command: str | None = None,
                   env: dict[str, str] | None = None) -> Screen:
        process = await conn.create_process(command, term_type=term, term_size=(width, height),
                                            encoding=None, env=env or {})
        return cls(process, width, height)

    async def _read(self) -> None:
        try:
            while True:
                data = await self.process.stdout.read(65536)
                if not data:
                    break
                self.raw += data
                self.stream.feed(data)
        finally:
            self.closed.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, needle: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.text:
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} never appeared; screen:\n{self.text}")
            if self.closed.is_set():
                raise AssertionError(f"session closed before {needle!r}; screen:\n{self.text}")
            await asyncio.sleep(0.02)

    async def wait_until(self, ready: Callable[[], bool], what: str,
                         timeout: float = WAIT) -> None:
        """Poll the screen until ``ready()`` holds (redraws come in frames)."""
        deadline = time.monotonic() + timeout
        while not ready():
            if time.monotonic() > deadline:
                raise AssertionError(f"never {what}; screen:\n{self.text}")
            await asyncio.sleep(0.02)

    def resize(self, width: int, height: int) -> None:
        self.screen.resize(height, width)
        self.process.change_terminal_size(width, height)

    def press(self, keys: bytes) -> None:
        self.process.stdin.write(keys)

    async def wait_closed(self, timeout: float = WAIT) -> int | None:
        await asyncio.wait_for(self.closed.wait(), timeout)
        await asyncio.wait_for(self.process.wait_closed(), timeout)
        return self.process.exit_status

    def row_of(self, needle: str) -> int:
        for row, line in enumerate(self.screen.display):
            if needle in line:
                return row
        raise AssertionError(f"{needle!r} not on screen:\n{self.text}")

    def column_of(self, needle: str) -> int:
        return self.screen.display[self.row_of(needle)].index(needle)


def free_port() -> int:
    """A TCP port nothing listens on now (SO_REUSEPORT servers need a number)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def serve_processes(postgres_url: str, data_dir: Path, processes: int = 2
                          ) -> tuple[asyncio.subprocess.Process, int]:
    """``fivetowers serve --processes N`` as a host starts it, on a free port."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "FIVETOWERS_STORE"}
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "fivetowers.cli", "serve", "--processes", str(processes),
        "--port", str(port), "--data-dir", str(data_dir), "--store", postgres_url,
        "--workers", "1", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env=env)
    return server, port


def remembering_apps(make: Callable[[Visitor], App[Any]]
                     ) -> tuple[Callable[[Visitor], App[Any]], list[weakref.ref[App[Any]]]]:
    """A session factory making what ``make`` makes, and the weak references
    to every App it made (to see which ended sessions' Apps still live)."""
    apps: list[weakref.ref[App[Any]]] = []

    def factory(visitor: Visitor) -> App[Any]:
        app = make(visitor)
        apps.append(weakref.ref(app))
        return app

    return factory, apps
