"""The store's tests run against both backends: a :class:`Backend` opens the
same store again and again (SQLite file or PostgreSQL database)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import psycopg

from fivetowers.tables.pg_store import PgStore
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import Store

BACKENDS = ["sqlite", "postgresql"]


@dataclass(frozen=True)
class Backend:
    name: str  # sqlite or postgresql
    location: str  # the SQLite file's path or the database's URL

    def open(self, *, durable: bool = True, create: bool = True,
             clock: Callable[[], float] | None = None) -> Store:
        extra: dict[str, Any] = {} if clock is None else {"clock": clock}
        if self.name == "sqlite":
            return SqliteStore(Path(self.location), durable=durable, create=create, **extra)
        return PgStore(self.location, durable=durable, create=create, **extra)

    @property
    def store_class(self) -> type[SqliteStore] | type[PgStore]:
        return SqliteStore if self.name == "sqlite" else PgStore

    def execute(self, query: str, params: Sequence[Any] = ()) -> None:
        """Run SQL on the store behind its back (to damage it); ``?`` marks
        the parameters for either backend."""
        if self.name == "sqlite":
            conn = sqlite3.connect(self.location)
            conn.execute(query, params)
            conn.commit()
            conn.close()
            return
        with psycopg.connect(self.location, autocommit=True) as pg:
            pg.execute(query.replace("?", "%s"), params)
