"""bench_arrivals' split of each arrival's wait at the server's marks."""

from __future__ import annotations

from types import ModuleType

from tests.conftest import script_module


def _bench() -> ModuleType:
    return script_module("bench_arrivals")


def test_the_wait_is_split_at_the_marks_and_turns_out_of_order_are_counted() -> None:
    bench = _bench()
    marks = {  # port -> the server's marks (seconds)
        "1": {"accepted": 0.1, "logged in": 0.5, "session": 0.6, "turn": 0.7,
              "first screen": 0.9},
        "2": {"accepted": 0.1, "logged in": 0.5, "session": 0.65, "turn": 0.95,
              "first screen": 1.2},
        "3": {"accepted": 0.1, "logged in": 0.5},  # never started: left out
    }
    seen = {1: (0.0, 0.91), 2: (0.0, 1.25), 3: (0.0, 2.0)}  # (p50 of two: the later)
    line = bench.where_the_wait_went(marks, seen)
    assert "to logged in 400 / 400" in line
    assert "App made and waiting for a start turn 300 / 300" in line
    assert "start to first screen 250 / 250" in line
    assert "out of the asking order: 0 of 2" in line
    marks["2"]["turn"] = 0.69  # 2 asked after 1 but took its turn first
    assert "out of the asking order: 2 of 2" in bench.where_the_wait_went(marks, seen)
