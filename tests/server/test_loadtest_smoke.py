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
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "loadtest_ssh.py"
sys.path.insert(0, str(ROOT / "scripts"))

from load_clients import Action, Player, Results, Viewer  # noqa: E402
from load_mix import PRESETS, seat, with_overrides  # noqa: E402
from load_gotown import GoTownPlayer  # noqa: E402


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
    assert "GoTown at every other table" in out and "1 of them GoTown" in out
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
    # Eight seconds are all warm-up: no growth "after warm-up" is claimed.
    assert "RSS growth after the memory warm-up: not measured" in out
    assert figures["settled_by_minute_mib"] == []
    cpu = figures["client_cpu"]
    assert isinstance(cpu, float) and 0 < cpu < 2
    # The server's pool: its bots' moves and hints while measuring.
    pool = figures["pool"]
    assert isinstance(pool, dict) and "hints computed" in out
    bots = {name: f for name, f in pool.items() if name.startswith(("bot ", "advice "))}
    assert sum(f["moves"] for f in bots.values()) > 0, pool
    for name, f in bots.items():
        assert f"{name} bot moves (from the server)" in out
        assert f["late"] + f["quick"] <= f["moves"] and f["waited_p50"] <= f["took_p50"]
    assert pool["hints"]["computed"] + pool["hints"]["known"] > 0


@pytest.mark.slow
def test_a_flooder_floods_and_the_run_still_ends(tmp_path: Path) -> None:
    out, figures = run(tmp_path, "--mix", "bids-only", "--sessions", "2", "--sizes", "2",
                       "--seconds", "4", "--warmup", "1", "--flooders", "1")
    assert "1 flooder" in out and "flooders sent" in out
    sent = figures["flood_sent_mib"]
    assert isinstance(sent, float) and sent >= 100 * 1024 / 2**20  # at least one 100 KiB burst
    assert figures["mix"] == "bids-only" and figures["flooders"] == 1
    # The server drops a flooder within seconds, and refuses it for a while.
    drops, refused = figures["flood_drops"], figures["flood_refused"]
    assert isinstance(drops, int) and isinstance(refused, int)
    assert drops >= 1 and refused >= 1


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


def test_a_key_at_a_table_on_two_processes_is_timed_to_the_other_process_apart() -> None:
    """With --processes, a key's time to every screen counts as with one
    process, and its time to the screens on the other process apart."""
    async def check() -> None:
        results = Results(since=0.0)
        actor = Player("ld001", results, 0.0, "build", 0.0)
        near, far = Viewer("ld002", results), Viewer("ld003", results)
        actor.process = near.process = 1
        far.process = 2
        actor.table = near.table = far.table = [actor, near, far]
        action = Action((b"ld001: pass",), 1.0, actor, {actor, near, far}, True)
        results.open.add(action)
        for viewer in (actor, near, far):
            viewer.expect(action)
        actor.on_output(b"ld001: pass", 1.1)
        far.on_output(b"ld001: pass", 1.3)  # the other process shows it first ...
        near.on_output(b"ld001: pass", 1.6)  # ... and a screen on the actor's, last
        assert results.everyone == [pytest.approx(0.6)]
        assert results.crossing == [pytest.approx(0.6)]
        assert results.elsewhere == [pytest.approx(0.3)]
        alone = Player("ld004", results, 0.0, "build", 0.0)  # a table on one process
        alone.process = 2
        alone.table = [alone]
        solo = Action((b"ld004: pass",), 2.0, alone, {alone}, True)
        alone.expect(solo)
        alone.on_output(b"ld004: pass", 2.2)
        assert results.everyone[-1] == pytest.approx(0.2) and len(results.crossing) == 1
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


def bid_pressed(actor_name: str, other_name: str, key: bytes
                ) -> tuple[Results, Player, Viewer]:
    """A player who pressed the bid ``key`` at 1.0 s, and another screen at
    its table: the bid waits for both."""
    results = Results(since=0.0)
    actor = Player(actor_name, results, 0.0, "build", 0.0)
    other = Viewer(other_name, results)
    actor.table = other.table = [actor, other]
    markers, kind = actor.markers(key)
    action = Action(markers, 1.0, actor, {actor, other}, True, kind,
                    own=actor.own_markers(key))
    results.open.add(action)
    for viewer in (actor, other):
        viewer.expect(action)
    return results, actor, other


def test_a_bid_counts_when_the_bidding_panel_shows_it_though_the_log_scrolled_it_out() -> None:
    """What ld007's screen got in a run where its bid took 1.9 s "to show":
    the panel said "You bid 2" at once, but an automatic pass followed and
    the log (one line high under long hints) showed only that pass; the bid's
    log line came back when the layout changed, seconds later."""
    async def check() -> None:
        results, actor, watcher = bid_pressed("ld007", "ld005", b"2")
        markers = next(iter(results.open)).markers
        actor.on_output(b"\x1b[6;49H\xe2\x94\x82 \x1b[1mYou\x1b[0m bid 2              "
                        b"\x1b[22;49H\xe2\x94\x82 ld008: pass (cannot raise)   ", 1.05)
        assert results.actor == [pytest.approx(0.05)]
        watcher.on_output(b"\x1b[6;49H\xe2\x94\x82 \x1b[1mld007\x1b[0m bids 2", 1.1)
        assert results.everyone == [pytest.approx(0.1)] and results.who == ["bid by ld007"]
        # another seat's own panel never says "You bid 2" for ld007's bid
        assert b"You bid 2" not in markers
    asyncio.run(check())


def test_a_bid_nobody_can_raise_counts_when_its_bidder_builds() -> None:
    """What ld025's table showed in a 60-session run where its "bid 5" was
    missed (11.6 s, on every screen): five cards on display, so every other
    seat passed at once ("cannot raise"), the three passes scrolled the bid's
    line out of the log's three lines in the same frame, and the building
    panel replaced the bidding one: no screen ever said "bid 5". Each showed
    its bidder building: the bid is on every screen then."""
    async def check() -> None:
        results, actor, other = bid_pressed("ld025", "ld026", b"5")
        passes = (b"\x1b[20;49H\xe2\x94\x82 ld026: pass (cannot raise)   "
                  b"\x1b[21;49H\xe2\x94\x82 ld027: pass (cannot raise)   "
                  b"\x1b[22;49H\xe2\x94\x82 ld028: pass (cannot raise)   ")
        other.on_output(b"\x1b[1;1Hld027 is building\xe2\x80\xa6  Round 3 ", 1.02)
        assert results.open  # another seat building (a redrawn old frame): not this bid
        actor.on_output(b"\x1b[1;1H \xe2\x96\xb6 YOUR TURN to build   Round 4 " + passes, 1.1)
        assert results.actor == [pytest.approx(0.1)] and results.everyone == []
        other.on_output(b"\x1b[1;1Hld025 is building\xe2\x80\xa6  Round 4 " + passes, 1.2)
        assert results.everyone == [pytest.approx(0.2)] and not results.open
        assert results.missed == 0
    asyncio.run(check())


def test_misses_mid_run_are_told_from_actions_still_unseen_at_the_end() -> None:
    """A key no screen showed for 10 s is a miss mid-run; one pressed in the
    measurement's last seconds and unseen when it ends is counted apart."""
    results, actor, other = bid_pressed("ld001", "ld002", b"1")  # pressed at 1.0 s
    results.sweep(5.0)
    assert results.missed == 0  # 4 s: still waited for
    results.sweep(12.0)
    assert (results.missed, results.missed_at_end) == (1, 0)
    late = Action((b"ld002: pass",), 20.0, other, {actor, other}, True, "pass")
    results.open.add(late)
    results.sweep(22.0, after=1.0, at_end=True)
    assert (results.missed, results.missed_at_end) == (2, 1)
    assert results.who == ["bid by ld001 (missed)", "pass by ld002 (missed at the end)"]


# What ld000's screen showed in a run where its pass was "missed": the panel's
# 28 columns wrapped "(you start: no pass)" after "(you", so the client did not
# know it started, pressed p, and the rules refused it (nothing changed on any
# other screen, and the table waited for ld000 until the run ended).
WRAPPED_STARTER = (b"\x1b[1;1H\x1b[1m YOUR TURN to bid \x1b[0mRound 5 \xc2\xb7 deck 40"
                   b"\x1b[4;49H\xe2\x94\x82 \x1b[1;7mld000\x1b[0m  to bid\xe2\x80\xa6"
                   b"\x1b[5;49H\xe2\x94\x82 \x1b[1mYou may bid \x1b[1;32m0 1 2 3 4\x1b[0m"
                   b"\x1b[2m  (you\x1b[0m  \xe2\x94\x82"
                   b"\x1b[6;49H\xe2\x94\x82 \x1b[2mstart: no pass)\x1b[0m")


@pytest.mark.parametrize("play, key", [("build", b"1"), ("bids", b"0")])
def test_a_starter_is_known_when_the_panel_wraps_its_start_line(play: str, key: bytes) -> None:
    player = Player("ld000", Results(), 0.0, play, 0.0)
    player.on_output(WRAPPED_STARTER, 0.5)
    assert player.my_turn() is not None
    assert player.choose("bid")[0] == key  # a bid, not the pass the rules refuse


class Keys:
    """A session's stdin: the keys a player pressed."""

    def __init__(self) -> None:
        self.pressed: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.pressed.append(data)


def test_a_refused_pass_is_withdrawn_and_a_bid_pressed_instead() -> None:
    """Whatever the client misread, a key the rules refuse is not an action:
    it is withdrawn (not counted missed) and the fallback bid is pressed."""
    async def check() -> None:
        results = Results(since=0.0)
        player = Player("ld000", results, 0.0, "build", 0.0)
        player.table = [player]
        process = type("Process", (), {"stdin": Keys()})()
        stop = asyncio.Event()
        task = asyncio.create_task(player.play_table(process, stop))
        # the turn, with the start line cut where no marker can find it
        player.on_output(WRAPPED_STARTER.replace(b"start: no pass)", b"st"), 0.5)
        for _ in range(100):
            await asyncio.sleep(0.01)
            if process.stdin.pressed:
                break
        assert process.stdin.pressed == [b"p"]
        player.on_output(b"\x1b[7;49H\xe2\x94\x82 \x1b[1;31m\xe2\x9c\x97 the starting player must",
                         0.6)
        for _ in range(100):
            await asyncio.sleep(0.01)
            if len(process.stdin.pressed) > 1:
                break
        stop.set()
        await task
        assert process.stdin.pressed == [b"p", b"0"]
        assert results.retries == 1 and results.missed == 0
        assert [a.markers[0] for a in results.open] == [b"ld000: bid 0"]
    asyncio.run(check())


def test_the_realistic_mix_seats_gotown_at_every_other_table_that_fits() -> None:
    plan = seat(PRESETS["realistic"], 40)
    games = [(t.humans + t.bots, t.game) for t in plan.tables[:8]]
    assert games == [(4, "fivetowers"), (3, "gotown"), (5, "fivetowers"), (2, "gotown")] * 2
    assert "2 of them GoTown" in seat(PRESETS["realistic"], 12).describe()
    assert all(t.game == "fivetowers" for t in seat(PRESETS["bids-only"], 40).tables)
    assert "GoTown at every other table" in PRESETS["realistic"].describe()


async def _pressed(process: Any, count: int) -> None:
    for _ in range(200):
        if len(process.stdin.pressed) >= count:
            return
        await asyncio.sleep(0.01)


def test_a_gotown_player_plays_a_legal_first_option_else_ends_its_turn() -> None:
    """From the raw bytes: its turn, a card picked, the panel's first option
    legal (1 ✓): played, measured until its log line; then, its first option
    refused (1 ✗): the card back and the turn ended, measured the same way."""
    async def check() -> None:
        results = Results(since=0.0)
        player = GoTownPlayer("ld000", results, 0.0)
        watcher = Viewer("ld001", results)
        player.table = watcher.table = [player, watcher]
        process = type("Process", (), {"stdin": Keys()})()
        stop = asyncio.Event()
        task = asyncio.create_task(player.play_table(process, stop))
        player.on_output(b"\x1b[1;1H\x1b[1m \xe2\x96\xb6 YOUR TURN \x1b[0m turn 3", 0.1)
        await _pressed(process, 1)
        assert process.stdin.pressed == [b"1"]  # the first card: not measured
        assert not results.open
        player.on_output(b"\x1b[4;50H\x1b[1m1 \x1b[32m\xe2\x9c\x93 \x1b[0mbuild [3 6]", 0.2)
        await _pressed(process, 2)
        assert process.stdin.pressed[1] == b"1"
        [play] = results.open
        assert play.kind == "gotown-play" and play.actor is player
        for viewer in (player, watcher):  # the play's log line reaches both screens
            viewer.on_output(b"\x1b[12;50H\x1b[32mld000 builds [3 6]\x1b[0m", 0.5)
        assert len(results.everyone) == 1 and len(results.actor) == 1
        assert not results.open
        # Still its turn (no new status line): the next card, refused this time.
        await _pressed(process, 3)
        assert process.stdin.pressed[2] == b"1"
        player.on_output(b"\x1b[4;50H\x1b[1m1 \x1b[2;31m\xe2\x9c\x97 \x1b[0msteal", 0.7)
        await _pressed(process, 4)
        assert process.stdin.pressed[3] == b"\x7fe"
        [end] = results.open
        assert end.kind == "gotown-end" and end.markers[0] == b"ld000 ends the turn"
        for viewer in (player, watcher):
            viewer.on_output(b"\x1b[13;50Hld000 ends the turn, draws 1"
                             b"\x1b[1;1HHedda (bot) is playing\xe2\x80\xa6", 0.9)
        await asyncio.sleep(0.1)
        stop.set()
        await task
        assert len(process.stdin.pressed) == 4  # not its turn any more: no key
        assert results.kinds == {"gotown-play": 1, "gotown-end": 1}
        assert len(results.everyone) == 2 and results.missed == 0
    asyncio.run(check())


@pytest.mark.slow
def test_two_processes_on_postgresql_serve_every_table_through_one_port(
        tmp_path: Path, postgres_url: str) -> None:
    import psycopg

    out, figures = run(tmp_path, "--sessions", "6", "--seconds", "6", "--warmup", "2",
                       "--pace", "0.5", "--store", postgres_url, "--processes", "2")
    assert "store: postgresql; 2 server processes sharing it and one port" in out
    assert figures["store"] == "postgresql" and figures["processes"] == 2
    # Every session went to the one port and learnt which process took it.
    spread = figures["sessions_per_process"]
    assert isinstance(spread, dict) and set(spread) <= {"1", "2"}
    assert sum(spread.values()) == 6
    across = figures["tables_across"]
    assert isinstance(across, int) and 0 <= across <= len(seat(PRESETS["realistic"], 6).tables)
    assert f"{across} of " in out and "tables had players on more than one process" in out
    kinds = figures["kinds"]
    assert isinstance(kinds, dict) and sum(kinds.values()) > 0
    with psycopg.connect(postgres_url) as conn:
        games = conn.execute("SELECT code, kept FROM games ORDER BY code").fetchall()
    plan = seat(PRESETS["realistic"], 6)
    # Every table started on its own server and kept its moves in the one store.
    assert sorted(code for code, _ in games) == sorted(t.code for t in plan.tables)
    assert all(kept > 0 for _, kept in games), games
