"""The greedy bot: legal, reproducible, and bidding as its documented rule says."""

from __future__ import annotations

import random

import pytest

from fivetowers.games.five_towers.bots import GreedyBot, RandomBot
from fivetowers.games.five_towers.bots.greedy import pick_bid, rivals_top
from fivetowers.games.five_towers.rules import Bid, Game, Pass, Phase, Position, Variant
from fivetowers.games.five_towers.solver import exhaustive_hint

from tests.bots.helpers import play


@pytest.mark.parametrize("variant", [Variant.BASE, Variant.GREAT_POWERS])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_greedy_bot_is_always_legal(variant: Variant, players: int) -> None:
    for seed in range(2):
        bots = [GreedyBot(exhaustive_hint)] + [RandomBot() for _ in range(players - 1)]
        game, _ = play(bots, variant, seed)
        assert game.phase is Phase.OVER


def test_greedy_bots_against_each_other_with_the_cp_sat_hint() -> None:
    game, _ = play([GreedyBot(), GreedyBot(), GreedyBot()], Variant.GREAT_POWERS, seed=3)
    assert game.phase is Phase.OVER


def test_same_seed_same_game() -> None:
    runs = [play([GreedyBot(exhaustive_hint), RandomBot()], Variant.BASE, seed=9)[1]
            for _ in range(2)]
    assert runs[0] == runs[1]


def test_greedy_beats_random() -> None:
    for seed in range(2):
        greedy, weak = GreedyBot(exhaustive_hint), RandomBot()
        game, _ = play([greedy, weak] if seed == 0 else [weak, greedy], Variant.BASE, seed)
        assert game.outcome().winners == ((0,) if seed == 0 else (1,))


def test_pick_bid() -> None:
    # The most gain wins; equal gains take the higher bid.
    assert pick_bid({0: 0, 1: 2, 2: 3, 3: 3}, rivals=-1) == 3
    # Nothing gains: pass (or bid the least when passing is not allowed).
    assert pick_bid({0: 0, 1: -1}, rivals=-1) is None
    # A rival could raise 2; bid 3 for one point less, since it cannot be beaten.
    assert pick_bid({0: 0, 1: 1, 2: 4, 3: 3}, rivals=2) == 3
    # ... but not for two points less.
    assert pick_bid({0: 0, 1: 1, 2: 4, 3: 2}, rivals=2) == 2


def test_rivals_are_the_seats_still_to_bid() -> None:
    game = Game(["a", "b", "c", "d"], Variant.BASE, seed=4)
    view = game.view(0)
    assert rivals_top(view) == max(view.max_bids[1:])
    game.apply(Bid(0, 0))
    if game.to_move == 1:
        game.apply(Pass(1))
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    later = [s for s in range(seat + 1, 4)]
    assert rivals_top(view) == max((view.max_bids[s] for s in later), default=-1)


def test_greedy_builds_the_hints_plan() -> None:
    game = Game(["a", "b"], Variant.BASE, seed=2)
    rng = random.Random(0)
    bot = GreedyBot(exhaustive_hint)
    while game.phase is not Phase.BUILD:
        seat = game.to_move
        assert seat is not None
        game.apply(bot.choose(game.view(seat), rng))
    seat = game.to_move
    assert seat is not None and game.high_bid is not None
    advice = exhaustive_hint(Position.from_game(game, seat))
    assert bot.choose(game.view(seat), rng) == advice.plans[game.high_bid].to_build(seat)
