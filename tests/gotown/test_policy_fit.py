"""scripts/gotown_policy_fit.py: the coordinate search keeps a knob's move
only when its paired gain is beyond the noise, and its games are the arena's."""

from __future__ import annotations

from dataclasses import replace
from multiprocessing.pool import ThreadPool
from types import ModuleType

import pytest

from fivetowers.games.gotown.plus import GREEDY_PLUS, Knobs
from tests.conftest import script_module


@pytest.fixture(scope="module")
def fit() -> ModuleType:
    return script_module("gotown_policy_fit")


def test_the_search_climbs_a_knob_that_wins_more_deals(fit: ModuleType) -> None:
    """A made-up objective: each of 400 deals won when the bone is worth more
    than its deal's threshold (spread 35 to 75), so a higher bone wins more
    deals up to 75; the milkshake changes nothing and stays."""
    calls: list[Knobs] = []

    def objective(knobs: Knobs) -> list[float]:
        calls.append(knobs)
        return [1.0 if knobs.bone > 35 + i % 40 else 0.0 for i in range(400)]

    best = fit.fit(objective, GREEDY_PLUS, ["bone", "milkshake"], sure=1.5,
                   budget=60.0, sweeps=4)
    assert best.bone > GREEDY_PLUS.bone
    assert best.milkshake == GREEDY_PLUS.milkshake
    assert fit.knobs_text(best, GREEDY_PLUS) == f"bone={best.bone!r}"


def test_a_move_within_the_noise_is_not_kept(fit: ModuleType) -> None:
    """Gains and losses that cancel out deal by deal (a paired gain of 0)."""
    def objective(knobs: Knobs) -> list[float]:
        flip = knobs.bone != GREEDY_PLUS.bone
        return [float((i % 2 == 0) != flip) for i in range(200)]

    assert fit.fit(objective, GREEDY_PLUS, ["bone"], 1.5, 60.0, 2) == GREEDY_PLUS


def test_ints_stay_ints_and_in_range(fit: ModuleType) -> None:
    assert fit.moved(replace(GREEDY_PLUS, refill_build=0), "refill_build", -1) is None
    moved = fit.moved(GREEDY_PLUS, "hoard", 1)
    assert moved is not None and moved.hoard == GREEDY_PLUS.hoard + 1
    assert isinstance(moved.hoard, int)


def test_the_objective_plays_the_arenas_deals(fit: ModuleType) -> None:
    """Its shares are the arena's games: greedy+ against greedy, seat i % 2."""
    arena = script_module("gotown_policy_arena")
    with ThreadPool(1) as pool:
        shares = fit.Objective(pool, 4, 6, 2, 2)(GREEDY_PLUS)
    for i, share in enumerate(shares):
        policies = [arena.greedy_play] * 2
        policies[i % 2] = lambda g, r: arena.plus_play(g, r, GREEDY_PLUS)
        assert share == arena._share(arena.play(policies, 4 * 1_000_003 + i), i % 2)
