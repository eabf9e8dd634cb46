"""The load test's tail report (scripts/load_tail.py): the slowest keys'
waits are put down to the stalls that overlapped them, by cause."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from load_tail import (  # noqa: E402
    OUTSIDE, QUEUE, REDRAWS, Key, blame, read_keys, read_stalls, report, tail,
)

LOG = """\
2026-12-02 16:56:43,791 INFO collected 4088 objects in 296 ms
loop stall 300 ms at 1000.100 (gc 0 ms, 2 samples, 1 callbacks, the longest ~25 ms): QuietCollector.settle > WeakSet.__init__.<locals>._remove
    run_server  (/x/scripts/loadtest_ssh.py:216)
    QuietCollector.run  (server/collector.py:293)
    QuietCollector.settle  (server/collector.py:323)
    3x WeakSet.__init__.<locals>._remove
loop stall 200 ms at 1001.000 (gc 150 ms, 1 samples, 1 callbacks, the longest ~10 ms): Strip.render_style
    Strip.render_style  (textual/strip.py:1)
loop stall 160 ms at 1002.000 (gc 0 ms, 9 samples, 8 callbacks, the longest ~20 ms): SSHConnection._send[SSHServerConnection]
    SSHConnection._send[SSHServerConnection]  (asyncssh/connection.py:1)
  other callbacks: 1x Screen._on_screen_resume[GoTownEndScreen]
loop stall 120 ms at 1003.000 (gc 0 ms, 5 samples, 1 callbacks, the longest ~110 ms): Screen._on_screen_resume[GoTownEndScreen] > Compositor.reflow
    _invoke  (textual/_callback.py:56)
    Screen._on_screen_resume[GoTownEndScreen]  (textual/screen.py:1482)
    1x Compositor.reflow > Compositor._arrange_root
loop stall 1898 ms at 1005.000 (gc 1830 ms, 14 samples, 8 callbacks, the longest ~37 ms): _kept > bound
    EntryLog.render_lines[GameLog]  (ui/entry_log.py:77)
    1x bound
  other callbacks: 2x run_server; 1x QuietCollector.settle
loop stall 90 ms at 1004.000 (gc 0 ms, 5 samples, 1 callbacks, the longest ~80 ms): Compositor.render_update
    Screen._compositor_refresh[TableScreen]  (textual/screen.py:1)
loop stalls over 50 ms: 5, 870 ms in all; grouped by their longest callback
    1x    300 ms, longest callbacks    ...
"""


def test_stalls_are_read_with_their_causes() -> None:
    stalls = read_stalls(LOG.splitlines())
    assert [(s.at, s.ms, s.gc_ms) for s in stalls] == [
        (1000.1, 300, 0), (1001.0, 200, 150), (1002.0, 160, 0), (1003.0, 120, 0),
        (1005.0, 1898, 1830), (1004.0, 90, 0)]
    assert [s.cause for s in stalls] == [
        "collector's settle or reclaim", "collection inside a callback",
        QUEUE,  # eight callbacks in turn: what the other ones were is no cause
        "game end or rematch",
        # Mostly a collection, the collector's settle among its callbacks: its
        # full collection (the longest callback sampled is whatever ran around it).
        "collector's settle or reclaim",
        REDRAWS]
    # The summary after the last block is not part of it.
    assert "grouped" not in stalls[-1].text


def test_old_times_files_without_wall_clock_give_no_keys() -> None:
    assert read_keys(["1.500 230"]) == []
    assert read_keys(["1.500 230 1000.000 bid by ld012 (missed)"]) == [
        Key(1000.0, 230.0, "bid by ld012 (missed)")]


def test_the_slowest_keys_waits_are_split_by_the_stalls_they_overlap() -> None:
    stalls = read_stalls(LOG.splitlines())
    keys = [Key(1000.0, 500.0, "bid by a"),  # 300 ms of the collector, 200 outside
            Key(1002.95, 100.0, "pass by b"),  # 50 ms of the game end's (1003.0-1003.12)
            Key(1010.0, 5.0, "pass by c")]
    assert tail(keys, 0.5) == keys[:2]
    found = blame(keys[:2], stalls)
    assert found["collector's settle or reclaim"][0] == 1
    assert abs(found["collector's settle or reclaim"][1] - 300.0) < 1e-6
    assert found["game end or rematch"][0] == 1
    assert abs(found["game end or rematch"][1] - 50.0) < 1e-6
    assert found[OUTSIDE][0] == 2
    assert abs(found[OUTSIDE][1] - 250.0) < 1e-6
    text = report(keys, stalls, 0.5)
    assert text.startswith("2 slowest keys of 3 (>= 100 ms), 600 ms of waits; 6 stalls")
    assert "collector's settle or reclaim" in text.splitlines()[1]
