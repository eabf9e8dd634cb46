"""The solver package passes ``mypy --strict``."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")
def test_solver_passes_mypy_strict() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "fivetowers/games/five_towers/solver"],
        cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
