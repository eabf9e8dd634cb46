"""bench_arrivals' idle meter: the loop's waits for input count, its own work does not."""

from __future__ import annotations

import types
from typing import Any

import pytest

from tests.conftest import script_module


def test_idle_meter_counts_waits_not_work(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = script_module("bench_arrivals")
    now = [100.0]
    monkeypatch.setattr(bench, "time", types.SimpleNamespace(monotonic=lambda: now[0]))

    class Selector:
        def select(self, timeout: float | None = None) -> list[Any]:
            now[0] += timeout or 0.0  # waits for input as long as it is let
            return []

    selector = Selector()
    loop = types.SimpleNamespace(_selector=selector)
    idle = bench.IdleMeter(loop)
    selector.select(0.05)  # nothing to run: the loop waits 50 ms in select
    now[0] += 0.05  # the loop's own work: no select
    selector.select(0.0)  # a poll between callbacks is not a wait
    selector.select(0.0001)  # nor is a wait too short to tell from one
    selector.select(0.02)
    assert idle.idle_between(100.0, 100.2) == pytest.approx(0.07)
    assert idle.idle_between(100.0, 100.2) == 0.0  # counted once, then forgotten
    selector.select(0.1)  # 100.1201 to 100.2201: half of it in the window
    assert idle.idle_between(100.0, 100.1701) == pytest.approx(0.05)
