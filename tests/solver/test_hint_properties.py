"""The CP-SAT hint against the exhaustive search and the engine, on random positions.

For every position: the model's ``max_bid`` equals the exhaustive search's
and the engine's fast ``rules.search.max_bid``; for every bid both solvers
reach the same rank (gain, then the tie-break: no teardown, open tops, fewer
tree cards paid), so also the same gain; and the engine accepts every plan of
both and scores it at its gain. Positions: synthetic ones from decks for 2–3
and 4–5 players, both variants, and the positions of every bidding seat in
games of random legal moves (``Position.from_game``).

Counts are chosen to keep this file near 30 s; ``FIVETOWERS_HINT_SCALE=10``
runs ten times as many (``scripts/bench_hint.py`` checks its positions too).
"""

from __future__ import annotations

import os
import random

import pytest

from fivetowers.rules import Position, Variant
from fivetowers.solver import exhaustive_hint, hint
from fivetowers.solver.samples import game_positions, random_position

from tests.solver.helpers import check_hint, engine_max_bid

SCALE = int(os.environ.get("FIVETOWERS_HINT_SCALE", "1"))
SYNTHETIC = 500 * SCALE  # per variant and deck size
GAMES = 4 * SCALE  # per variant and player count


def _agree(position: Position) -> None:
    fast, exact = hint(position), exhaustive_hint(position)
    context = position.to_json()
    assert fast.max_bid == exact.max_bid == engine_max_bid(position), context
    assert [p.gain for p in fast.plans] == [p.gain for p in exact.plans], context
    assert check_hint(position, fast) == check_hint(position, exact), context


@pytest.mark.parametrize("variant", list(Variant), ids=str)
@pytest.mark.parametrize("players", [3, 5], ids=lambda n: f"{n}p-deck")
def test_synthetic_positions(variant: Variant, players: int) -> None:
    rng = random.Random(f"{variant}-{players}")
    for _ in range(SYNTHETIC):
        _agree(random_position(rng, variant, players))


@pytest.mark.parametrize("variant", list(Variant), ids=str)
@pytest.mark.parametrize("players", [2, 3, 4, 5], ids=lambda n: f"{n}p")
def test_positions_from_random_games(variant: Variant, players: int) -> None:
    count = 0
    for seed in range(GAMES):
        for position in game_positions(1000 * players + seed, variant, players):
            _agree(position)
            count += 1
    assert count > 20 * GAMES


def test_plans_carried_out_in_real_games() -> None:
    """Games where every winner builds the hint's plan for its bid, through Game.apply."""
    from fivetowers.rules import Bid, Game, Pass, Phase

    for seed, variant in enumerate([Variant.BASE, Variant.GREAT_POWERS] * 2):
        rng = random.Random(seed)
        game = Game(["a", "b", "c"], variant, seed=seed)
        while game.phase is not Phase.OVER:
            seat = game.to_move
            assert seat is not None
            if game.phase is Phase.BUILD:
                assert game.high_bid is not None
                plan = hint(Position.from_game(game, seat)).plans[game.high_bid]
                game.apply(plan.to_build(seat))
                continue
            bids = game.legal_bids()
            if game.may_pass() and (not bids or rng.random() < 0.3):
                game.apply(Pass(seat))
            else:
                game.apply(Bid(seat, rng.choice(bids)))
