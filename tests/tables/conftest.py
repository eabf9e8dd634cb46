"""The store's fixtures: every test asking for ``backend`` runs on both stores."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tables.backends import BACKENDS, Backend


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "sqlite":
        return Backend("sqlite", str(tmp_path / "store.sqlite3"))
    return Backend("postgresql", request.getfixturevalue("postgres_url"))
