"""The server's caches, their entries and bytes: what fills as it serves.

``LOADTEST_CACHES=1`` (with ``LOADTEST_MEMORY=FILE``) adds to each memory
sample every cache it finds with at least ``MIN_ENTRIES`` entries: the
module-level dicts, OrderedDicts and sets of fivetowers', Textual's and
Rich's modules, and every ``functools.lru_cache`` alive (Textual's and
Rich's many among them). For each: its entries, its bound where it has one
(an lru_cache's ``maxsize``; a fivetowers module's ``*_KEPT`` is noted by
name beside it in the code, not guessed here) and the bytes reachable from
it alone (``sys.getsizeof`` summed over what it refers to, not through
modules, classes, functions or widgets: an estimate, objects shared with
other caches are counted in each).
"""

from __future__ import annotations

import functools
import gc
import sys
import types
from collections import OrderedDict
from typing import Any

MIN_ENTRIES = 32
OWNERS = ("fivetowers", "textual", "rich")
STOP = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType,
        types.MethodType, types.CodeType, types.FrameType)


def _stop_types() -> tuple[type, ...]:
    """What a cache's bytes do not climb through: code and live screens."""
    extra: list[type] = []
    dom = sys.modules.get("textual.dom")
    if dom is not None:
        extra.append(dom.DOMNode)
    app = sys.modules.get("textual.app")
    if app is not None:
        extra.append(app.App)
    return (*STOP, *extra)


def reachable_bytes(root: Any, stop: tuple[type, ...], limit: int = 2_000_000) -> int:
    """sys.getsizeof summed over what ``root`` refers to (not through ``stop``)."""
    seen = {id(root)}
    todo = [root]
    total = 0
    while todo and len(seen) < limit:
        here = todo.pop()
        total += sys.getsizeof(here)
        for ref in gc.get_referents(here):
            if id(ref) in seen or isinstance(ref, stop):
                continue
            seen.add(id(ref))
            todo.append(ref)
    return total


def caches(owners: tuple[str, ...] = OWNERS) -> dict[str, dict[str, int]]:
    """Every cache found in the modules named ``owners*`` (see the module's
    docstring), by where it lives."""
    stop = _stop_types()
    found: dict[str, dict[str, int]] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith(owners) or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if type(value) in (dict, OrderedDict, set) and len(value) >= MIN_ENTRIES:
                if attr.startswith("__") or (attr.isupper() and type(value) is not OrderedDict):
                    # builtins, constants (an upper-case OrderedDict is a cache: _MEASURED_ROWS)
                    continue
                found[f"{name}.{attr}"] = {"entries": len(value),
                                           "kib": reachable_bytes(value, stop) // 1024}
    was_frozen = gc.get_freeze_count() > 0  # the server freezes; a test's process does not
    gc.unfreeze()  # frozen objects are invisible to gc.get_objects (as load_memory)
    try:
        wrappers = [o for o in gc.get_objects() if isinstance(o, functools._lru_cache_wrapper)]
    finally:
        if was_frozen:
            gc.collect(1)
            gc.freeze()
    for o in wrappers:
        info = o.cache_info()
        if info.currsize < MIN_ENTRIES:
            continue
        where = f"{getattr(o, '__module__', '?')}.{getattr(o, '__qualname__', '?')}"
        if not where.startswith(owners):
            continue
        found[where] = {"entries": info.currsize, "bound": info.maxsize or 0,
                        "kib": reachable_bytes(o, stop) // 1024}
    return dict(sorted(found.items(), key=lambda item: -item[1]["kib"]))
