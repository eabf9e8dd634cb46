"""Shared test fixtures: where the golden fixtures live; a PostgreSQL server."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

from tests.postgres import Postgres

ROOT = Path(__file__).resolve().parent.parent
# tests/fixtures is a copy of the project's shared golden fixtures, so a clone
# tests the same files anywhere; FIVETOWERS_FIXTURES points at another copy.
_CANDIDATES = [Path(os.environ["FIVETOWERS_FIXTURES"])] if "FIVETOWERS_FIXTURES" in os.environ else []
_CANDIDATES += [ROOT / "tests" / "fixtures"]
FIXTURES = next(p for p in _CANDIDATES if (p / "records").is_dir())


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A real PostgreSQL server for the whole session (started in ~2 s)."""
    server = Postgres()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres: Postgres) -> Iterator[str]:
    """The URL of a new, empty database of that server, dropped afterwards."""
    url = postgres.new_database()
    yield url
    postgres.drop_database(url)
