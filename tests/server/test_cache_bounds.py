"""Every cache the serving process keeps has a bound, and stays within it
game after game (issue 11: memory stays flat).

Hosted tables play game after game in a process of its own (its module caches
undisturbed by earlier tests; scripts/bench_games_memory.py);
then every module-level dict, OrderedDict and set of fivetowers' modules that
grew from one game to the next, and every lru_cache of theirs, must be a
cache ``scripts/load_caches.py`` knows the bound of (``BOUNDS``), within
it, or one whose keys are a small fixed set (``FINITE``). A new cache that
grows with play and has no bound fails here."""

from __future__ import annotations

import functools
import gc
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from fivetowers.ui import log_lines

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from bench_games_memory import Bench  # noqa: E402
from load_caches import BOUNDS, FINITE, bound_of, caches, ceiling_kib  # noqa: E402

CACHES_AT_THEIR_BOUNDS_AT_MOST_KIB = 28 << 10
"""What every known cache would hold at its bound (its bytes an entry now,
times its bound), here with three Apps: some 22 MiB; 38 MiB with the style
caches' bounds of 4,096, some 60 with every bound of 2026-12-02's morning:
most of it caches that took many minutes to fill at 20 sessions and then
held what no screen showed any more."""


LOG_ENTRIES = "fivetowers.ui.log_lines._entries"


def _found() -> dict[str, dict[str, int]]:
    """Every fivetowers module's container and lru_cache, by where it lives."""
    return caches(("fivetowers",), least=1)


def _sizes() -> dict[str, int]:
    return {where: found["entries"] for where, found in _found().items()}


def _unbounded_lru_caches() -> list[str]:
    """fivetowers' lru_caches alive with no maxsize and no fixed set of keys."""
    found = []
    frozen = gc.get_freeze_count()
    gc.unfreeze()  # a frozen object (the server's collector freezes) is not listed
    try:
        for o in gc.get_objects():
            if isinstance(o, functools._lru_cache_wrapper) and o.cache_info().maxsize is None:
                where = f"{getattr(o, '__module__', '?')}.{getattr(o, '__qualname__', '?')}"
                if where.startswith("fivetowers") and where not in FINITE:
                    found.append(where)
    finally:
        if frozen:
            gc.freeze()
    return found


async def measure() -> dict[str, Any]:
    """Two rounds of hosted games, and what the caches held after each.

    Run in a process of its own (see the test): what earlier tests left in
    the module caches would change their bytes an entry, so the ceiling."""
    bench = Bench(tables=1, seats=2, watchers=1, seed=5)
    await bench.start()
    try:
        await bench.play_round()
        first = _sizes()
        await bench.play_round()
        found = _found()
        later = {where: kept["entries"] for where, kept in found.items()}
        ceiling = sum(ceiling_kib(where, kept["entries"], kept["kib"])
                      for where, kept in found.items() if where in BOUNDS)
        # read while the Apps are alive: the per-App bounds fall as they go
        bounds = {where: bound_of(where) for where in BOUNDS if where in later}
    finally:
        await bench.close()
    return {"first": first, "later": later, "ceiling": ceiling, "bounds": bounds,
            "unbounded_lru": _unbounded_lru_caches()}


def test_every_cache_that_grows_game_after_game_is_bounded_and_within_its_bound() -> None:
    probe = subprocess.run(
        [sys.executable, "-c", "import asyncio, json; from tests.server.test_cache_bounds "
         "import measure; print(json.dumps(asyncio.run(measure())))"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout.strip().splitlines()[-1])
    first, later, bounds = found["first"], found["later"], found["bounds"]
    grew = {where for where, entries in later.items() if entries > first.get(where, 0)}
    assert grew, "no cache grew: the games played nothing"
    unknown = sorted(grew - set(BOUNDS) - FINITE)
    assert not unknown, f"caches that grow game after game with no known bound: {unknown}"
    for where, bound in bounds.items():
        assert 0 < bound and later[where] <= bound, (where, later[where], bound)
    assert not found["unbounded_lru"]
    # The log entries' lines fill within the first games (they held every
    # entry for 19 minutes of play at 20 sessions): what a bound keeps is what
    # is shown again, so it is full while they play.
    print("log entries kept after two games", first.get(LOG_ENTRIES), later[LOG_ENTRIES])
    assert later[LOG_ENTRIES] == bounds[LOG_ENTRIES]
    print("KiB at the bounds", found["ceiling"])
    assert found["ceiling"] <= CACHES_AT_THEIR_BOUNDS_AT_MOST_KIB


def test_a_new_unbounded_module_cache_would_fail() -> None:
    # The check above finds a module's dict by its place: one the known
    # caches do not name is reported as it grows.
    log_lines._probe_cache = {n: n for n in range(3)}  # type: ignore[attr-defined]
    try:
        assert "fivetowers.ui.log_lines._probe_cache" in _sizes()
        assert "fivetowers.ui.log_lines._probe_cache" not in BOUNDS
    finally:
        del log_lines._probe_cache  # type: ignore[attr-defined]
