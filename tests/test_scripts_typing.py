"""The kill test script type-checks (``mypy scripts/kill_server.py``): its
GoTown half reads the registry's protocol ``Match`` as GoTown's own game."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_kill_server_script_passes_mypy() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "scripts/kill_server.py"],
        cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
