"""The load test (scripts/loadtest_ssh.py) runs and reports sane figures.

The load test is a benchmark: no timing thresholds here. Short runs of the
real script (a real server, real SSH clients) check that the realistic mix
plays (keys pressed and seen on every screen), that a flooder floods, that
arrivals are timed, and that the measurement counts an action only when a
screen shows it.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "loadtest_ssh.py"
sys.path.insert(0, str(ROOT / "scripts"))

from load_clients import Action, Player, Results, Viewer  # noqa: E402
from load_mix import PRESETS, seat, with_overrides  # noqa: E402


def run(tmp_path: Path, *args: str) -> tuple[str, dict[str, object]]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, str(SCRIPT), "--data-dir", str(tmp_path), *args],
                          capture_output=True, text=True, timeout=150, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    result = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert len(result) == 1, done.stdout
    return done.stdout, json.loads(result[0].removeprefix("RESULT "))


@pytest.mark.slow
def test_realistic_mix_plays_and_reports(tmp_path: Path) -> None:
    out, figures = run(tmp_path, "--sessions", "6", "--seconds", "8", "--warmup", "2",
                       "--pace", "0.5")
    assert "mix realistic: hints on, 1 strong bot a table" in out
    assert "spectators" in out and "key-to-every-screen" in out
    assert figures["mix"] == "realistic" and figures["sessions"] == 6
    kinds = figures["kinds"]
    assert isinstance(kinds, dict) and sum(kinds.values()) > 0
    actions = figures["actions"]
    assert isinstance(actions, int) and actions > 0
    for name in ("every_p50_ms", "every_p99_ms", "actor_p99_ms"):
        value = figures[name]
        assert isinstance(value, float) and 0 < value < 60_000, (name, value)
    assert figures["every_p50_ms"] <= figures["every_p99_ms"]  # type: ignore[operator]
    per_session = figures["mib_per_session"]
    assert isinstance(per_session, float) and 0 < per_session < 200
    assert math.isfinite(figures["growth_mib_min"])  # type: ignore[arg-type]
    cpu = figures["client_cpu"]
    assert isinstance(cpu, float) and 0 < cpu < 2


@pytest.mark.slow
def test_a_flooder_floods_and_the_run_still_ends(tmp_path: Path) -> None:
    out, figures = run(tmp_path, "--mix", "bids-only", "--sessions", "2", "--sizes", "2",
                       "--seconds", "4", "--warmup", "1", "--flooders", "1")
    assert "1 flooder" in out and "flooders sent" in out
    sent = figures["flood_sent_mib"]
    assert isinstance(sent, float) and sent >= 0.1  # at least one 100 KB burst
    assert figures["mix"] == "bids-only" and figures["flooders"] == 1


@pytest.mark.slow
def test_arrivals_are_timed_to_the_full_lobby(tmp_path: Path) -> None:
    out, figures = run(tmp_path, "--sessions", "4", "--arrivals", "3")
    assert "first full lobby screen" in out
    assert figures["failed"] == 0
    p99 = figures["p99_s"]
    assert isinstance(p99, float) and 0 < p99 < 120


def test_the_realistic_mix_seats_mixed_tables_with_bots_and_spectators() -> None:
    plan = seat(PRESETS["realistic"], 40)
    assert plan.humans + plan.spectators == 40
    assert {t.humans + t.bots for t in plan.tables[:4]} == {2, 3, 4, 5}
    assert all(t.bots == 1 for t in plan.tables)
    assert [t.spectators for t in plan.tables[:4]] == [0, 1, 0, 1]  # every other table
    cheap = seat(with_overrides(PRESETS["bids-only"]), 40)
    assert [(t.humans, t.bots, t.spectators) for t in cheap.tables] == [(5, 0, 0)] * 8
    assert not cheap.mix.hints and cheap.mix.play == "bids"


def test_a_screen_counts_for_an_action_only_when_it_shows_it() -> None:
    async def check() -> None:
        results = Results(since=0.0)
        actor = Player("ld001", results, 0.0, "build", 0.0)
        watcher = Viewer("ld002", results)
        actor.table = watcher.table = [actor, watcher]
        action = Action((b"ld001: pass",), 1.0, actor, {actor, watcher}, True)
        results.open.add(action)
        for viewer in (actor, watcher):
            viewer.expect(action)
        # a bot's move and a hint arriving: bytes, but not the action
        actor.on_output(b"\x1b[1;1HAda (bot) is bidding\x1b[0m hint +3", 1.1)
        watcher.on_output(b"\x1b[9;49Hbuild tree-13", 1.1)
        assert results.everyone == [] and results.actor == []
        actor.on_output(b"\x1b[20;50H\x1b[38;5;253mld001: pa", 1.2)  # split across reads
        actor.on_output(b"ss\x1b[0m", 1.25)
        assert results.actor == [pytest.approx(0.25)] and results.everyone == []
        watcher.on_output(b"\x1b[20;50Hld001: pass", 1.5)
        assert results.everyone == [pytest.approx(0.5)]
        assert not results.open
    asyncio.run(check())


def test_a_key_that_ends_the_round_counts_when_the_next_round_shows() -> None:
    """At 80x24 the log's four lines can scroll the last pass out at once
    (then "nobody builds…" and the next round's reveal): the reveal counts."""
    async def check() -> None:
        results = Results(since=0.0)
        actor = Player("ld001", results, 0.0, "bids", 0.0)
        actor.table = [actor]
        actor.on_output(b"\x1b[1;1H\x1b[1m YOUR TURN to bid \x1b[0mRound 5 \xc2\xb7 deck 55", 0.5)
        markers, kind = actor.markers(b"p")
        assert kind == "pass" and b"round 6:" in markers and b"round 5:" not in markers
        action = Action(markers, 1.0, actor, {actor}, True)
        results.open.add(action)
        actor.expect(action)
        actor.on_output(b"\x1b[19;50Hround 5: tree-6, sand-2\x1b[20;50Hnobody", 1.1)
        assert results.everyone == []  # this round's reveal, redrawn: not the action
        actor.on_output(b"\x1b[20;50Hround 6: candy-3, scary-7,", 1.3)
        assert results.everyone == [pytest.approx(0.3)]
    asyncio.run(check())
