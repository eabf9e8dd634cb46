"""``fivetowers serve --store postgresql://…`` end to end: SSH players play,
the server is SIGKILLed again and again, and every screen they saw is in the
PostgreSQL store (issue 7's kill test, scripts/kill_server.py, on PostgreSQL)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.server.test_kill_server import ROOT, SCRIPT

KILLS = 3


def test_sigkilled_server_on_postgresql_loses_nothing_a_client_saw(
        postgres_url: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--kills", str(KILLS), "--seed", "11",
         "--data-dir", str(tmp_path / "data"), "--store", postgres_url],
        capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert done.returncode == 0, done.stderr + done.stdout
    assert f"kill_server: {KILLS} SIGKILLs, {KILLS} restarts" in done.stdout, done.stdout
    assert " 0 actions kept at the end" not in done.stdout  # they played
    # The SQLite store was never used: the host key is all the data directory holds.
    assert not (tmp_path / "data" / "fivetowers.sqlite3").exists()
