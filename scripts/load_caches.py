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
import importlib
from collections import OrderedDict
from typing import Any

MIN_ENTRIES = 32
OWNERS = ("fivetowers", "textual", "rich")
STOP = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType,
        types.MethodType, types.CodeType, types.FrameType)


MAXSIZE = "maxsize"
"""A ``functools.lru_cache``'s bound is its own."""

BOUNDS: dict[str, str] = {
    "fivetowers.ui.log_lines._entries": "fivetowers.ui.log_lines.bound",
    "fivetowers.ui.log_lines._style_on_row": MAXSIZE,
    "fivetowers.ui.shared_lines._lines": "fivetowers.ui.shared_lines.bound",
    "fivetowers.ui.shared_lines._contents": "fivetowers.ui.shared_lines.content_bound",
    "fivetowers.ui.steady_text._height": MAXSIZE,
    "fivetowers.ui.key_bar._built": "fivetowers.ui.key_bar.BUILT_KEPT",
    "fivetowers.compat.styles._outcomes": "fivetowers.compat.styles.RULES_KEPT",
    "fivetowers.compat.dispatch._plans": "fivetowers.compat.dispatch.PLANS_KEPT",
    "fivetowers.compat.reactive._plain": "fivetowers.compat.reactive.KINDS_KEPT",
    "fivetowers.compat.callbacks._counts": "fivetowers.compat.callbacks.COUNTS_KEPT",
    "fivetowers.compat.textual._parsed": "fivetowers.compat.textual.CSS_KEPT",
    "fivetowers.compat.textual._variable_sets": "fivetowers.compat.textual.VARIABLE_SETS_KEPT",
    "fivetowers.compat.textual._MEASURED_ROWS": "fivetowers.compat.textual.MEASURED_ROWS_KEPT",
    "fivetowers.compat.textual._matches": "fivetowers.compat.textual.STYLE_MATCHES_KEPT",
    "fivetowers.compat.textual._candidates": "fivetowers.compat.textual.STYLE_MATCHES_KEPT",
    "fivetowers.compat.textual._rule_lists": "fivetowers.compat.textual.RULE_LISTS_KEPT",
    "fivetowers.compat.textual._inner_outer": MAXSIZE,
    "fivetowers.compat.dirty_lines._move_to": MAXSIZE,
    "fivetowers.server.colours.client_color_system": MAXSIZE,
    "fivetowers.games.five_towers.rules.search._best_chain": MAXSIZE,
    "fivetowers.games.five_towers.rules.search.best_sand": MAXSIZE,
    "fivetowers.games.five_towers.rules.search.most_placed": MAXSIZE,
    "fivetowers.games.five_towers.rules.search.free_rebuild_best": MAXSIZE,
    "fivetowers.games.five_towers.bots.plans.options": MAXSIZE,
    "fivetowers.games.gotown.plus._steal_chance": MAXSIZE,
}
"""The serving process's caches (found by :func:`caches`) and their bounds:
a module's constant or function (a bound that follows the Apps drawing) by
its full name, or the lru_cache's ``maxsize``."""

FINITE = frozenset({
    "fivetowers.i18n.translator",  # one a language
    "fivetowers.compat.checked.source_digest",  # one an upstream function patched
    "fivetowers.games.gotown.rules.game._stolen_floor",  # numbers x pieces
    "fivetowers.games.gotown.rules.game._build_floor",  # pairs of cards
    "fivetowers.games.gotown.playout.steal",  # seats x cards x seats
    "fivetowers.games.gotown.playout.made",  # plays' kinds x seats
    "fivetowers.games.gotown.playout.thief",  # seats x seats
})
"""Caches with no bound of their own, whose keys are a small fixed set."""


def bound_of(where: str) -> int:
    """The bound of the cache at ``where`` (a key of :data:`BOUNDS`) now;
    0 for an lru_cache with none."""
    bound = BOUNDS[where]
    if bound == MAXSIZE:
        module, attr = where.rsplit(".", 1)
        return getattr(importlib.import_module(module), attr).cache_info().maxsize or 0
    module, attr = bound.rsplit(".", 1)
    value = getattr(importlib.import_module(module), attr)
    if callable(value):
        value = value()
    assert isinstance(value, int), where
    return value


def ceiling_kib(where: str, entries: int, kib: int) -> int:
    """What the cache at ``where`` would hold at its bound, from its
    ``kib`` for ``entries`` now (0 with none: nothing to go by)."""
    return bound_of(where) * kib // entries if entries else 0


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


def caches(owners: tuple[str, ...] = OWNERS, least: int = MIN_ENTRIES
           ) -> dict[str, dict[str, int]]:
    """Every cache found in the modules named ``owners*`` with at least
    ``least`` entries (see the module's docstring), by where it lives."""
    stop = _stop_types()
    found: dict[str, dict[str, int]] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith(owners) or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if type(value) in (dict, OrderedDict, set) and len(value) >= least:
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
        if info.currsize < least:
            continue
        where = f"{getattr(o, '__module__', '?')}.{getattr(o, '__qualname__', '?')}"
        if not where.startswith(owners):
            continue
        found[where] = {"entries": info.currsize, "bound": info.maxsize or 0,
                        "kib": reachable_bytes(o, stop) // 1024}
    return dict(sorted(found.items(), key=lambda item: -item[1]["kib"]))
