"""Hints: the highest bid a player can carry out, and the best build for every bid.

``hint(position)`` answers with the OR-Tools CP-SAT model
(:mod:`fivetowers.games.five_towers.solver.cpsat`), ``exhaustive_hint(position)`` with a plain
exact search (:mod:`fivetowers.games.five_towers.solver.exhaustive`, the oracle the tests hold
the model to). Both return a :class:`Hint`: ``max_bid`` and one :class:`Plan`
per bid ``0..max_bid``, the plan that maximises the gain in score, ties broken
by the rule in :mod:`fivetowers.games.five_towers.solver.problem` (no teardown, then open tower
tops, then fewer tree cards paid).

Importing this package does not import OR-Tools (about 0.25 s and 90 MiB):
the model is loaded on the first ``hint`` call. ``hint`` is safe to call from
a thread pool (each call builds its own model; CP-SAT releases the GIL while
it solves) and caches its answers per position: the same towers, teardown
pile and display (in any order) and variant give the same :class:`Hint`
object, computed once even when threads ask for it at the same time.

A hint is exact or says it is not: CP-SAT has a time budget per hint
(:data:`fivetowers.games.five_towers.solver.cpsat.SECONDS`); when it runs out, ``hint``
returns the legal plans found so far with ``Hint.proven`` false (and does
not cache them). A large teardown pile no longer gets near the budget: the
model offers only the pile cards a best plan may need
(:mod:`fivetowers.games.five_towers.solver.rebuilds`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable

from fivetowers.games.five_towers.rules.position import Position
from fivetowers.games.five_towers.solver.plans import Hint, Plan
from fivetowers.games.five_towers.solver.problem import Problem

__all__ = ["Hint", "Plan", "cache_clear", "exhaustive_hint", "hint"]

CACHE_SIZE = 512
"""Hints kept per process (about 6 KiB each). Asked again within a round (the
greedy bot, a hint panel): 4,096 kept a worker growing for half an hour
under load, some 24 MiB, with deals long over; the server keeps its own
hints for every viewer (``Workers.hints_kept``)."""


class _Cache:
    """A thread-safe LRU cache that computes each missing key once."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._done: OrderedDict[Problem, Hint] = OrderedDict()
        self._running: dict[Problem, threading.Event] = {}

    def get(self, key: Problem, compute: Callable[[Problem], Hint]) -> Hint:
        while True:
            with self._lock:
                found = self._done.get(key)
                if found is not None:
                    self._done.move_to_end(key)
                    return found
                waiting = self._running.get(key)
                if waiting is None:
                    event = self._running[key] = threading.Event()
                    break
            waiting.wait()  # another thread computes it; it may fail, so look again
        try:
            result = compute(key)
            if result.proven:  # an unproven hint may be bettered by the next try
                with self._lock:
                    self._done[key] = result
                    while len(self._done) > self.size:
                        self._done.popitem(last=False)
            return result
        finally:
            with self._lock:
                del self._running[key]
            event.set()

    def clear(self) -> None:
        with self._lock:
            self._done.clear()


_cache = _Cache(CACHE_SIZE)


def _solve_cpsat(problem: Problem) -> Hint:
    from fivetowers.games.five_towers.solver.cpsat import cpsat_plans  # loads OR-Tools on first use

    plans, proven = cpsat_plans(problem)
    return Hint(len(plans) - 1, plans, proven)


def hint(position: Position) -> Hint:
    """The CP-SAT hint for ``position`` (cached per position; thread-safe)."""
    return _cache.get(Problem.from_position(position), _solve_cpsat)


def exhaustive_hint(position: Position) -> Hint:
    """The same answer by exhaustive search, in pure Python (not cached)."""
    from fivetowers.games.five_towers.solver.exhaustive import exhaustive_plans

    plans = exhaustive_plans(Problem.from_position(position))
    return Hint(len(plans) - 1, plans)


def cache_clear() -> None:
    """Forget every cached hint (for benchmarks and tests)."""
    _cache.clear()
