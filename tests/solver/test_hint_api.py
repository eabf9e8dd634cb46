"""The Python API: OR-Tools loaded lazily, answers cached per position, thread-safe."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from fivetowers.games.five_towers.rules import Position, Variant
from fivetowers.games.five_towers.solver import Hint, _Cache, cache_clear, exhaustive_hint, hint
from fivetowers.games.five_towers.solver.problem import Problem
from fivetowers.games.five_towers.solver.samples import random_position


def test_importing_the_solver_does_not_load_ortools() -> None:
    code = ("import sys, fivetowers.games.five_towers.solver, fivetowers.cli\n"
            "from fivetowers.games.five_towers.solver import hint, exhaustive_hint, Plan, Hint\n"
            "assert 'ortools' not in sys.modules, 'ortools imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_exhaustive_hint_needs_no_ortools() -> None:
    code = ("import sys, json\n"
            "from fivetowers.games.five_towers.rules import Position\n"
            "from fivetowers.games.five_towers.solver import exhaustive_hint\n"
            "p = Position.from_json({'format': 'fivetowers-position/1', 'variant': 'base',"
            " 'display': ['candy-3']})\n"
            "assert exhaustive_hint(p).max_bid == 1\n"
            "assert 'ortools' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_cached_per_position_in_any_display_order() -> None:
    cache_clear()
    rng = random.Random(5)
    pos = random_position(rng, Variant.GREAT_POWERS)
    first = hint(pos)
    shuffled = Position(pos.variant, pos.board.clone(), list(reversed(pos.display)))
    shuffled.board.teardown.reverse()
    assert hint(shuffled) is first
    other = Position(pos.variant, pos.board.clone(), pos.display[:-1])
    assert hint(other) is not first
    cache_clear()
    again = hint(pos)
    assert again is not first and again == first


def test_thread_pool_gives_the_exhaustive_answers() -> None:
    cache_clear()
    rng = random.Random(11)
    positions = [random_position(rng) for _ in range(60)]
    positions += positions[:20]  # the same positions asked again, concurrently
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(hint, positions))
    for pos, answer in zip(positions, answers):
        assert isinstance(answer, Hint)
        exact = exhaustive_hint(pos)
        assert answer.max_bid == exact.max_bid
        assert [p.gain for p in answer.plans] == [p.gain for p in exact.plans]
    for a, b in zip(answers[:20], answers[60:]):
        assert a is b


def test_cache_computes_each_key_once_across_threads() -> None:
    cache = _Cache(size=2)
    calls: list[Problem] = []
    gate = threading.Event()
    pos = Problem.from_position(random_position(random.Random(1), Variant.BASE))

    def compute(key: Problem) -> Hint:
        calls.append(key)
        gate.wait(5)
        return exhaustive_hint(random_position(random.Random(1), Variant.BASE))

    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = [pool.submit(cache.get, pos, compute) for _ in range(4)]
        gate.set()
        results = [f.result() for f in futures]
    assert len(calls) == 1 and all(r is results[0] for r in results)


def test_cache_recovers_from_a_failed_computation() -> None:
    cache = _Cache(size=2)
    pos = Problem.from_position(random_position(random.Random(2), Variant.BASE))

    def fail(key: Problem) -> Hint:
        raise RuntimeError("boom")

    try:
        cache.get(pos, fail)
    except RuntimeError:
        pass
    answer = exhaustive_hint(random_position(random.Random(2), Variant.BASE))
    assert cache.get(pos, lambda key: answer) is answer


def test_cache_is_bounded() -> None:
    cache = _Cache(size=3)
    rng = random.Random(3)
    keys = [Problem.from_position(random_position(rng)) for _ in range(5)]
    answer = Hint(0, ())
    for key in keys:
        cache.get(key, lambda key: answer)
    assert len(cache._done) == 3


def test_an_unproven_hint_is_not_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint cut short by the time budget is tried again next time, not kept."""
    import fivetowers.games.five_towers.solver.cpsat as cpsat
    from fivetowers.games.five_towers.solver.samples import ISSUE_18, with_pile

    position = with_pile(Position.from_json(ISSUE_18), 60, random.Random(0))
    cache_clear()
    with monkeypatch.context() as patch:
        patch.setattr(cpsat, "SECONDS", 0.0)
        assert not hint(position).proven
    again = hint(position)
    assert again.proven and again.max_bid == 9
