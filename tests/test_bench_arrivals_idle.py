"""bench_arrivals' idle meter: the loop's waits for input count, its own work does not."""

from __future__ import annotations

import asyncio
import time

from tests.conftest import script_module


def test_idle_meter_counts_waits_not_work() -> None:
    bench = script_module("bench_arrivals")

    async def burst() -> tuple[float, float, float]:
        idle = bench.IdleMeter(asyncio.get_running_loop())
        began = time.monotonic()
        await asyncio.sleep(0.05)  # nothing to run: the loop waits in select
        waited = time.monotonic()
        spin_until = waited + 0.05
        while time.monotonic() < spin_until:  # the loop's own work: no select
            pass
        ended = time.monotonic()
        return idle.idle_between(began, ended), waited - began, ended - began

    idle, asleep, span = asyncio.run(burst())
    assert idle >= 0.04  # a sleep of 50 ms waits at least that long
    assert idle <= asleep < span  # the spin after it is not idle
