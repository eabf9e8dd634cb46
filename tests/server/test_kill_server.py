"""Issue 7's kill test: ``fivetowers serve`` SIGKILLed mid-game loses nothing shown.

The test runs ``scripts/kill_server.py`` (a subprocess server, SSH clients with
a pty and a pyte screen, seeded kills) with fewer kills than the script's own
default of 20, to stay quick on a loaded machine; the checker itself is
tested here on a state the store does not have, so it can fail.
"""

from __future__ import annotations

from dataclasses import replace
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import random
from typing import Any

import asyncssh
import pytest

from fivetowers.games.five_towers.rules import Bid, Game, Pass, Record, Variant
from fivetowers.games.gotown.rules import End
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import STORE_FILE, StoredSeat
from tests.conftest import script_module

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "kill_server.py"
KILLS = 6


def _script() -> ModuleType:
    return script_module("kill_server")


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


def gotown_start(players: list[str]) -> Any:
    from fivetowers.games.gotown.kind import GAME as GOTOWN
    return GOTOWN.new_match(players, {"floors": "4"}, seed=9)


def test_the_checker_reads_a_gotown_record_as_the_screen_shows_it() -> None:
    kill = _script()
    game = gotown_start(["p1", "Hedda (bot)", "Peter (bot)"])
    states = kill.gotown_prefix_states(game.record_json(), 0)
    assert states[0].banner == "YOUR TURN" and states[0].clock.startswith("turn 1 of at most")
    game.apply(End(0))
    states = kill.gotown_prefix_states(game.record_json(), 0)
    assert len(states) == 2
    assert states[1].banner == "Hedda (bot) is playing…" and "p1endstheturn" in states[1].log
    kept = {**game.record_json(), "actions": []}  # the store kept none of it
    assert kill.found_at(states[1], kill.gotown_prefix_states(kept, 0)) is None
    assert kill.found_at(states[1], states) == 1


def test_the_checker_fails_on_a_screen_beyond_the_store(tmp_path: Path) -> None:
    """check() itself, not only found_at: a screen that showed an action the
    store lost is a failure (it once fell through without a word)."""
    kill = _script()
    key = asyncssh.generate_private_key("ssh-ed25519")
    player = kill.Player("p1", key, random.Random(1), game="gotown")
    game = gotown_start(["p1", "Hedda (bot)", "Peter (bot)"])
    store = SqliteStore(tmp_path / STORE_FILE)
    store.create_table(code="KILL1", name="k", kind="gotown", setup=game.setup_json(),
                       seats=[StoredSeat("p1", fingerprint=player.fingerprint),
                              StoredSeat("Hedda (bot)", bot="greedy"),
                              StoredSeat("Peter (bot)", bot="greedy")])
    store.close()
    game.apply(End(0))
    player.seen = [kill.gotown_prefix_states(game.record_json(), 0)[1]]  # shown, not kept
    with pytest.raises(kill.CheckFailed, match="but the store has 0 actions"):
        kill.check(player, tmp_path, 1)
    player.seen = [kill.gotown_prefix_states(game.record_json(), 0)[0]]
    assert kill.check(player, tmp_path, 1) == 1


def test_sigkilled_server_loses_nothing_a_client_saw(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--kills", str(KILLS), "--seed", "7",
         "--data-dir", str(tmp_path / "data")],
        capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert done.returncode == 0, done.stderr + done.stdout
    assert f"kill_server: {KILLS} SIGKILLs, {KILLS} restarts, 3 clients (1 at GoTown " \
        "tables)" in done.stdout, done.stdout
