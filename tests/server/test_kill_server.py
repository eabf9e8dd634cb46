"""Issue 7's kill test: ``fivetowers serve`` SIGKILLed mid-game loses nothing shown.

The test runs ``scripts/kill_server.py`` (a subprocess server, SSH clients with
a pty and a pyte screen, seeded kills) with fewer kills than the script's own
default of 20, to stay quick on a loaded machine; the checker itself is
tested here on a state the store does not have, so it can fail.
"""

from __future__ import annotations

import importlib.util
from dataclasses import replace
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from fivetowers.games.five_towers.rules import Bid, Game, Pass, Record, Variant

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "kill_server.py"
KILLS = 6


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kill_server", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["kill_server"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_checker_refuses_a_screen_the_store_does_not_have() -> None:
    kill = _script()
    game = Game(["ann", "Hedda (bot)"], Variant.BASE, seed=4)
    first = game.to_move
    assert first is not None
    game.apply(Bid(first, 1))
    game.apply(Pass(1 - first))
    record = Record.from_game(game)
    shown = kill.prefix_states(record, 0)[-1]  # the screen showed both actions...
    kept = replace(record, actions=record.actions[:1])  # ...the store kept one
    assert kill.found_at(shown, kill.prefix_states(kept, 0)) is None
    assert kill.found_at(shown, kill.prefix_states(record, 0)) == 2
    # A half-drawn frame: the log is already there, the top line not yet.
    half = kill.Seen(kill.prefix_states(record, 0)[1].banner, shown.clock, shown.log)
    assert kill.found_at(half, kill.prefix_states(record, 0)) is not None


def test_sigkilled_server_loses_nothing_a_client_saw(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--kills", str(KILLS), "--seed", "7",
         "--data-dir", str(tmp_path / "data")],
        capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert done.returncode == 0, done.stderr + done.stdout
    assert f"kill_server: {KILLS} SIGKILLs, {KILLS} restarts" in done.stdout, done.stdout
