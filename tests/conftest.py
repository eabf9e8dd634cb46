"""Shared test fixtures: where the golden fixtures live; a PostgreSQL server."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Iterator

import pytest

from tests.postgres import Postgres

ROOT = Path(__file__).resolve().parent.parent


def script_module(name: str) -> ModuleType:
    """``scripts/NAME.py`` as a module, registered under its name (its
    dataclasses look their module up)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
# tests/fixtures is a copy of the project's shared golden fixtures, so a clone
# tests the same files anywhere; FIVETOWERS_FIXTURES points at another copy.
_CANDIDATES = [Path(os.environ["FIVETOWERS_FIXTURES"])] if "FIVETOWERS_FIXTURES" in os.environ else []
_CANDIDATES += [ROOT / "tests" / "fixtures"]
FIXTURES = next(p for p in _CANDIDATES if (p / "records").is_dir())


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture(scope="session", autouse=True)
def patient_bots() -> Iterator[None]:
    """Bots without a time budget of their own get a minute, not a second.

    In play a bot still queued for a worker when its budget runs out is
    answered for by the game's late bot (and, past the margin, by a quick
    one). On a loaded test machine the thread workers of local tables were
    that busy with hints, and a test's passive bot came back as a greedy
    bid of the whole display. Tests of that rule give their bots budgets of
    their own (tests/tables/test_workers.py)."""
    from fivetowers.tables import workers

    patch = pytest.MonkeyPatch()
    patch.setattr(workers, "DEFAULT_BUDGET", 60.0)
    patch.setattr(workers.threads(), "margin", 60.0)
    yield
    patch.undo()


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
