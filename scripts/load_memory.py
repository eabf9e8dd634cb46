"""What the load test's server holds in memory, sampled while it serves.

``LOADTEST_MEMORY=FILE`` makes the load test's server append one JSON line
every ``LOADTEST_MEMORY_EVERY`` seconds (default 30): its RSS, the blocks
Python's allocator holds (``sys.getallocatedblocks``), glibc's own account
(``mallinfo2``: bytes in use, bytes free inside its arenas, what it got from
the system) and the collector's generations. RSS that grows while the
blocks and malloc's bytes in use stay flat is fragmentation; blocks that
grow are Python objects kept.

``LOADTEST_TRACEMALLOC=N`` also traces allocations (N frames each; it slows
the server down) and writes, at each sample, the 25 places whose memory grew
most since the first sample after the warm-up (``LOADTEST_MEMORY_AFTER``,
default 60 s).
``LOADTEST_RECLAIM=1`` unfreezes and fully collects at each sample (what
the collector's reclaim does, at most every half hour), and notes the
blocks that freed and the types of what died in cycles (the garbage of a
collection with ``DEBUG_SAVEALL``), then freezes what lives again.
``LOADTEST_TYPES=1`` counts the objects the collector tracks by type at
each sample, and writes the 25 types whose count grew most since the first
sample after the warm-up: what Python objects are kept. (Frozen objects are
invisible to ``gc.get_objects``, so it unfreezes them to count, collects
the young generations and freezes again: it freezes what the collector's
next settle would have, once a sample.) With it, ``LOADTEST_COUNT=Game,Table``
notes those types' counts at each sample, and the lobby's tables (and how
many are over) are noted too; ``LOADTEST_HOLDERS=TYPE`` what holds them.
``LOADTEST_CACHES=1`` notes each cache's entries and bytes at each sample
(scripts/load_caches.py).
Each sample also has Python's allocator's arenas and the bytes in its
blocks (``sys._debugmallocstats``): arenas that grow while the blocks'
bytes do not are fragmentation of Python's own heap.
``LOADTEST_TRIM=1`` calls ``malloc_trim(0)`` at each sample and notes the RSS
it gave back.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import json
import os
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

from load_proc import rss_kib as rss_kib_of


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
        "uordblks", "fordblks", "keepcost")]


def _libc() -> Any:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None


LIBC = _libc()


def rss_kib() -> int:
    """This process's RSS, KiB."""
    return rss_kib_of(os.getpid())


def malloc_figures() -> dict[str, int]:
    """glibc's account of its heap, KiB (empty off glibc)."""
    if LIBC is None or not hasattr(LIBC, "mallinfo2"):
        return {}
    LIBC.mallinfo2.restype = _MallInfo2
    info = LIBC.mallinfo2()
    return {"malloc_system_kib": (info.arena + info.hblkhd) // 1024,
            "malloc_used_kib": (info.uordblks + info.hblkhd) // 1024,
            "malloc_free_kib": info.fordblks // 1024}


PYMALLOC = {"# arenas allocated current": "arenas",
            "# bytes in allocated blocks": "pymalloc_used_kib",
            "# bytes in available blocks": "pymalloc_free_blocks_kib",
            "unused pools": "pymalloc_free_pools_kib"}
"""The lines of ``sys._debugmallocstats`` kept: Python's own allocator's
arenas (1 MiB each, given back only when wholly empty) against the bytes in
the blocks it has handed out: their difference is fragmentation."""


def pymalloc_figures() -> dict[str, int]:
    """Python's small-object allocator's arenas and blocks (KiB; arenas as a count).

    ``sys._debugmallocstats`` writes to the C stderr, so fd 2 is pointed at
    a temporary file meanwhile."""
    import tempfile
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as out:
        os.dup2(out.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read().decode("ascii", "replace")
    figures: dict[str, int] = {}
    for row in text.splitlines():
        for label, key in PYMALLOC.items():
            if label in row and "=" in row:
                value = int(row.rsplit("=", 1)[1].strip().replace(",", ""))
                figures[key] = value if key == "arenas" else value // 1024
    return figures


def trim() -> int:
    """``malloc_trim(0)``; the RSS it gave back, KiB."""
    before = rss_kib()
    if LIBC is not None and hasattr(LIBC, "malloc_trim"):
        LIBC.malloc_trim(0)
    return before - rss_kib()


def reclaim() -> dict[str, Any]:
    """Everything frozen collected: how much of it was garbage, and of what."""
    before = sys.getallocatedblocks()
    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
    finally:
        gc.set_debug(0)
    kinds = Counter(type(o).__qualname__ for o in gc.garbage)
    died = len(gc.garbage)
    gc.garbage.clear()
    gc.collect()
    after = sys.getallocatedblocks()
    gc.freeze()
    return {"reclaimed_blocks": before - after, "died_in_cycles": died,
            "blocks_after_reclaim": after, "rss_after_reclaim_kib": rss_kib(),
            "cycle_types": kinds.most_common(20)}


def type_counts(line: dict[str, Any]) -> Counter[str]:
    """The objects the collector tracks, by type (see the module's docstring).

    ``LOADTEST_COUNT=TYPE,TYPE2`` notes the count of each of those types.
    ``LOADTEST_HOLDERS=TYPE`` also notes, for 200 objects of that type taken
    across the heap, what holds them: the types of their referrers and of
    those referrers' referrers (``TYPE,TYPE2``: of each, in ``holders_of``)."""
    gc.unfreeze()
    try:
        objects = gc.get_objects()
        counts = Counter(type(o).__qualname__ for o in objects)
        widget_module = sys.modules.get("textual.widget")
        if widget_module is not None:  # widgets by class, as "widget:Name"
            counts.update(f"widget:{type(o).__qualname__}" for o in objects
                          if isinstance(o, widget_module.Widget))
        for o in objects:
            if type(o).__qualname__ == "Workers" and hasattr(o, "_hints"):
                line["hints_kept"] = len(o._hints)
                line["hint_keys_kib"] = sum(len(k[1]) for k in o._hints) // 1024
                line["pool_stats"] = len(o.stats.moves) + len(o.stats.hints)
            if type(o).__qualname__ == "Lobby" and hasattr(o, "tables"):
                line["lobby_tables"] = len(o.tables)
                line["lobby_tables_over"] = sum(1 for t in o.tables.values() if t.over)
        for kind in filter(None, os.environ.get("LOADTEST_COUNT", "").split(",")):
            line.setdefault("counted", {})[kind] = counts[kind]
        for kind in filter(None, os.environ.get("LOADTEST_HOLDERS", "").split(",")):
            line.setdefault("holders_of", {})[kind] = holders(objects, kind)
            line.setdefault("holders", line["holders_of"][kind])  # the first, as before
        del objects
        return counts
    finally:
        gc.collect(1)
        gc.freeze()


PASSING = {"Strip", "FIFOCache", "LRUCache", "dict", "list", "tuple", "OrderedDict", "Segment",
           "BoxModel"}
"""Containers a holder's chain climbs through to what owns them."""


def holders(objects: list[Any], kind: str, sample: int = 200, depth: int = 8) -> list[Any]:
    """For ``sample`` objects of type ``kind``: the chains of referrers' types
    up to the first that is not a plain container (or ``depth`` steps), counted.
    One pass over the heap a step (gc.get_referrers would be one per object)."""
    chosen = [o for o in objects if type(o).__qualname__ == kind]
    chosen = chosen[::max(1, len(chosen) // sample)]
    parents: dict[int, Any] = {}
    frontier = {id(o) for o in chosen}
    mine = {id(objects), id(chosen)}
    for _ in range(depth):
        found: dict[int, Any] = {}
        for o in objects:
            if id(o) in mine:
                continue
            for r in gc.get_referents(o):
                if id(r) in frontier and id(r) not in found:
                    found[id(r)] = o
        parents.update(found)
        frontier = {id(p) for p in found.values() if type(p).__qualname__ in PASSING}
        if not frontier:
            break
    chains: Counter[str] = Counter()
    for o in chosen:
        path, here = [], o
        for _ in range(depth):
            up = parents.get(id(here))
            if up is None:
                path.append("?")
                break
            path.append(type(up).__qualname__)
            if type(up).__qualname__ not in PASSING:
                break
            here = up
        chains[" < ".join(path)] += 1
    return chains.most_common(20)


async def watch_memory(path: str) -> None:
    every = float(os.environ.get("LOADTEST_MEMORY_EVERY", "30"))
    after = float(os.environ.get("LOADTEST_MEMORY_AFTER", "60"))
    frames = int(os.environ.get("LOADTEST_TRACEMALLOC", "0"))
    if frames and not tracemalloc.is_tracing():
        tracemalloc.start(frames)
    base: tracemalloc.Snapshot | None = None
    base_types: Counter[str] | None = None
    types = bool(os.environ.get("LOADTEST_TYPES"))
    started = time.monotonic()
    while True:
        await asyncio.sleep(every)
        line: dict[str, Any] = {
            "t": round(time.monotonic() - started, 1), "rss_kib": rss_kib(),
            "blocks": sys.getallocatedblocks(), "gc_counts": gc.get_count(),
            **malloc_figures(), **pymalloc_figures()}
        shared = sys.modules.get("fivetowers.ui.shared_lines")
        if shared is not None:  # the renders the screens share, against their cap
            line["shared_renders"] = len(shared._lines)
            line["shared_cap"] = max(shared.KEPT, shared.PER_APP * len(shared._apps))
        if os.environ.get("LOADTEST_RECLAIM"):
            line.update(reclaim())
        if os.environ.get("LOADTEST_CACHES"):  # each cache's entries and bytes
            from load_caches import caches
            line["caches"] = caches()
        if types:
            counts = type_counts(line)
            line["objects"] = sum(counts.values())
            if base_types is None and time.monotonic() - started >= after:
                base_types = counts
            elif base_types is not None:
                grown = counts.copy()
                grown.subtract(base_types)
                line["types_grew"] = grown.most_common(25)
                line["widgets_grew"] = [(k, n) for k, n in grown.most_common()
                                        if k.startswith("widget:") and n][:25]
        if os.environ.get("LOADTEST_TRIM"):
            line["trimmed_kib"] = trim()
        if frames:
            snap = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)])
            line["traced_kib"] = tracemalloc.get_traced_memory()[0] // 1024
            line["tracemalloc_own_kib"] = tracemalloc.get_tracemalloc_memory() // 1024
            if base is None and time.monotonic() - started >= after:
                base = snap
            elif base is not None:
                diff = snap.compare_to(base, "traceback" if frames > 1 else "lineno")
                line["grew"] = [
                    [stat.size_diff // 1024, stat.count_diff,
                     " < ".join(f"{Path(f.filename).name}:{f.lineno}"
                                for f in stat.traceback)]
                    for stat in diff[:25]]
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
