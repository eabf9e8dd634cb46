"""A whole game completed from a player's view and the hidden cards
(:meth:`Game.from_view`, the bots' determinisation)."""

from __future__ import annotations

import random

import pytest

from fivetowers.games.five_towers.rules import (
    Bid, Card, Game, HiddenCardsMismatch, Pass, Phase, Variant,
)

from tests.rules.randomplay import play_random_game, random_action


def _with_piles() -> Game:
    """A game in the bidding where seat 1 has a teardown pile (random play)."""
    game = Game(["a", "b", "c"], Variant.BASE, seed=2)
    rng = random.Random(2)
    while not (game.players[1].board.teardown and game.phase is Phase.BID
               and game.high_bid is not None and game.to_move == 0):
        game.apply(random_action(game, rng))
    return game


def _hidden(game: Game) -> tuple[list[list[Card]], list[Card]]:
    return [list(p.board.teardown) for p in game.players], list(game.draw)


def test_the_true_hidden_cards_give_back_the_game() -> None:
    game = _with_piles()
    piles, draw = _hidden(game)
    world = Game.from_view(game.view(0), piles, draw, reshuffle_seed=7)
    for seat in range(3):
        assert world.view(seat).seats == game.view(seat).seats
    assert world.draw == game.draw and world.waiting == game.waiting
    assert world.runout_round == game.runout_round and world.actions == []
    # It plays on like the real one.
    for g in (game, world):
        g.apply(Pass(0))
    assert world.to_move == game.to_move and world.waiting == game.waiting


def test_the_round_in_play_carries_on() -> None:
    game = Game(["a", "b", "c", "d"], Variant.GREAT_POWERS, seed=3)
    game.apply(Bid(0, 1))
    world = Game.from_view(game.view(1), *_hidden(game), reshuffle_seed=0)
    assert world.waiting == game.waiting == (1, 2, 3)
    assert world.legal_bids() == game.legal_bids()


@pytest.mark.parametrize("spoil,message", [
    (lambda piles, draw: (piles[:2], draw), "2 teardown piles for 3 seats"),
    (lambda piles, draw: ([piles[0], [], piles[2]], draw + piles[1]), "seat 1 has"),
    (lambda piles, draw: (piles, draw[1:]), "the draw deck has"),
    (lambda piles, draw: ([list(reversed(draw[:len(piles[0]) or 1]))] + piles[1:], draw),
     "own teardown pile"),
    (lambda piles, draw: (piles, [draw[0]] * len(draw)), "not the ones the view hides"),
])
def test_cards_that_do_not_complete_the_view_are_refused(spoil: object, message: str) -> None:
    game = _with_piles()
    piles, draw = spoil(*_hidden(game))  # type: ignore[operator]
    with pytest.raises(HiddenCardsMismatch, match=message):
        Game.from_view(game.view(0), piles, draw, reshuffle_seed=0)


def test_a_finished_game_has_no_round_to_play_on() -> None:
    game = play_random_game(Game(["a", "b"], Variant.BASE, seed=1), random.Random(1))
    assert game.is_terminal()
    with pytest.raises(HiddenCardsMismatch, match="over"):
        Game.from_view(game.view(0), *_hidden(game), reshuffle_seed=0)


def test_without_the_card_check_the_counts_are_still_checked() -> None:
    game = _with_piles()
    piles, draw = _hidden(game)
    with pytest.raises(HiddenCardsMismatch, match="the draw deck has"):
        Game.from_view(game.view(0), piles, draw[1:], reshuffle_seed=0, check_cards=False)
    # The caller vouches for the cards themselves (a bot that dealt view.unseen()).
    world = Game.from_view(game.view(0), piles, list(reversed(draw)), reshuffle_seed=0,
                           check_cards=False)
    assert world.draw == list(reversed(game.draw))
