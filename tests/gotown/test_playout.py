"""The strong bot's playout policy plays as the greedy bot without its plan."""

from __future__ import annotations

import random
import typing

from fivetowers.games.gotown.bots import GreedyBot, RandomBot
from fivetowers.games.gotown.playout import greedy_play
from fivetowers.games.gotown.rules import Action, Build, Card, End, Game, Steal, Thief

from tests.gotown.arrange import table


def test_greedy_play_is_the_plan_free_greedy_bots_play_over_whole_games() -> None:
    """Same worth and same kind of play as GreedyBot(plan=False) at every
    moment of random games (2–4 players, both lengths); ties may differ."""
    bot = GreedyBot(plan=False)
    for seed in range(30):
        players, floors = 2 + seed % 3, 4 + seed % 2
        game = Game([f"p{i}" for i in range(players)], floors, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            mine = greedy_play(game, random.Random(seed))
            theirs = bot.choose(view, random.Random(seed))
            assert mine in view.legal, f"seed {seed}: {mine} is not legal"
            assert bot.worth(view, mine) == bot.worth(view, theirs), (seed, mine, theirs)
            # a win is a win, by a build or a steal
            assert type(mine) is type(theirs) or bot.worth(view, mine) == 1000.0, \
                (seed, mine, theirs)
            game.apply(mine if rng.random() < 0.7 else RandomBot().choose(view, rng))


def test_greedy_play_steals_from_the_taller_tower_and_keeps_its_pairs() -> None:
    game = table([["7", "8", "4", "5"], ["2"], ["2"]],
                 towers=[[], [["1", "8"]], [["3", "6"], ["2", "7"]]], draw=["2"] * 3)
    assert greedy_play(game, random.Random(0)) == Steal(0, Card.SEVEN, 2)
    game.apply(Steal(0, Card.SEVEN, 2))
    game.apply(Steal(0, Card.EIGHT, 1))
    # two floors and one pair in hand are not a win: the pair stays in hand
    assert greedy_play(game, random.Random(0)) == End(0)


def test_greedy_play_builds_to_win_and_thieves_the_fullest_hand() -> None:
    winning = table([["4", "5", "2", "7"], ["3"]],
                    towers=[[["1", "8"], ["3", "6"], ["1", "8"]], []], draw=["2"] * 3)
    assert isinstance(greedy_play(winning, random.Random(0)), Build)
    thief = table([["thief", "1"], ["3"], ["3", "4", "5"]], towers=[[], [], []],
                  draw=["2"] * 3)
    assert greedy_play(thief, random.Random(0)) == Thief(0, 2)


def test_pairs_held_counts_as_pairs_does() -> None:
    """The playouts' count of a hand's floors agrees with :func:`pairs` on
    random hands (wilds, action cards and repeated values included)."""
    from collections import Counter

    from fivetowers.games.gotown.bots import pairs, pairs_held
    from fivetowers.games.gotown.rules import full_deck

    rng = random.Random(3)
    deck = full_deck()
    for _ in range(500):
        hand = rng.sample(deck, rng.randrange(0, 12))
        assert pairs_held(Counter(hand)) == pairs(hand), hand


def test_every_play_class_is_final() -> None:
    """The game tells plays apart by ``type(action) is`` (apply_trusted, which
    every real play goes through too): a subclass would match none of its
    branches, so mypy must refuse one (``typing.final``)."""
    plays = typing.get_args(Action)
    assert len(plays) == 11
    assert [c.__name__ for c in plays if not getattr(c, "__final__", False)] == []


def test_apply_trusted_carries_out_plays_as_apply_does() -> None:
    """A playout's unchecked plays leave the same game as checked ones
    (draws, thieves' picks, reshuffles and the win included)."""
    for seed in range(8):
        checked = Game(["a", "b", "c"][:2 + seed % 2], 4 + seed % 2, seed=seed)
        trusted = checked.clone()
        rng = random.Random(seed)
        while not checked.over:
            action = greedy_play(checked, random.Random(rng.random()))
            checked.apply(action)
            trusted.apply_trusted(action)
            assert trusted.record_json() == checked.record_json()
            assert [p.hand for p in trusted.players] == [p.hand for p in checked.players]
        assert trusted.over and trusted.winners == checked.winners
