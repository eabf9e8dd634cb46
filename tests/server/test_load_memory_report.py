"""The load test's memory report: growth after the warm-up said honestly,
and the samples of what the server's memory is made of."""

from __future__ import annotations

import gc
import math
import sys
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from load_caches import caches  # noqa: E402
from load_memory import pymalloc_figures  # noqa: E402
from load_proc import growth_after  # noqa: E402


def test_growth_after_the_warm_up_leaves_the_caches_filling_out() -> None:
    # 10 MiB a minute for two minutes (caches filling), then 1 MiB a minute.
    points = [(float(t), 100 + (t / 6 if t < 120 else 20 + (t - 120) / 60))
              for t in range(0, 420, 2)]
    slope, minutes = growth_after(points, 120)
    assert math.isclose(slope, 1.0, rel_tol=1e-6)
    assert [round(m, 6) for m in minutes] == [1.0] * 4  # 120-360 s: whole minutes only
    slope, minutes = growth_after(points, 0)
    assert slope > 2 and [round(m, 6) for m in minutes[:3]] == [10.0, 10.0, 1.0]


def test_a_measurement_shorter_than_the_warm_up_has_no_growth_after_it() -> None:
    slope, minutes = growth_after([(0.0, 100.0), (30.0, 101.0)], 180)
    assert math.isnan(slope) and minutes == []


_filled: dict[str, bytes] = {f"entry {i}": bytes(1000) for i in range(64)}


@lru_cache(maxsize=4096)
def _cached(n: int) -> bytes:
    return bytes(n)


def test_the_caches_are_found_with_their_entries_and_bytes() -> None:
    for n in range(40):
        _cached(1000 + n)
    assert gc.get_freeze_count() == 0
    found = caches(owners=(__name__,))
    assert gc.get_freeze_count() == 0  # nothing of this process frozen for good
    mine = found[f"{__name__}._filled"]
    assert mine["entries"] == 64 and mine["kib"] >= 64
    wrapped = found[f"{__name__}._cached"]
    assert wrapped["entries"] == 40 and wrapped["bound"] == 4096 and wrapped["kib"] >= 40


def test_pythons_allocator_is_sampled() -> None:
    figures = pymalloc_figures()
    assert figures["arenas"] > 0
    assert 0 < figures["pymalloc_used_kib"] <= figures["arenas"] * 1024
