"""Shared test fixtures: where the golden fixtures live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# tests/fixtures is a copy of the project's shared golden fixtures, so a clone
# tests the same files anywhere; FIVETOWERS_FIXTURES points at another copy.
_CANDIDATES = [Path(os.environ["FIVETOWERS_FIXTURES"])] if "FIVETOWERS_FIXTURES" in os.environ else []
_CANDIDATES += [ROOT / "tests" / "fixtures"]
FIXTURES = next(p for p in _CANDIDATES if (p / "records").is_dir())


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES
