"""The play panel's options follow the engine: a target is marked legal
exactly when the engine allows the play, and a refused one carries the
engine's own reason."""

from __future__ import annotations

import random

import pytest

from fivetowers.games.gotown.bots import make_bot
from fivetowers.games.gotown.rules import (
    Action, Build, Card, End, Floor, Game, IllegalPlay, Piece, Steal,
)
from fivetowers.games.gotown.tui.choices import card_of, choice_at, choices_for


def refusal_of(game: Game):  # type: ignore[no-untyped-def]
    def refusal(action: Action) -> str | None:
        try:
            game.check(action)
        except IllegalPlay as exc:
            return str(exc)
        return None
    return refusal


def same_play(action: Action) -> object:
    """A build is the same play whichever of its cards comes first."""
    return ("build", frozenset(action.cards)) if isinstance(action, Build) else action


@pytest.mark.parametrize("seed", range(12))
def test_marked_targets_are_exactly_the_engines_legal_plays(seed: int) -> None:
    game = Game(["A", "B", "C"], seed=seed)
    bot, rng = make_bot("random"), random.Random(seed)
    positions = 0
    while not game.over and positions < 400:
        view = game.view(game.to_move)
        marked, refused = set(), 0
        for card in set(view.hand):
            for choice in choices_for(card, view, refusal_of(game)):
                assert card_of(choice.action) is card
                if choice.legal:
                    marked.add(same_play(choice.action))
                else:
                    refused += 1
                    with pytest.raises(IllegalPlay) as caught:
                        game.check(choice.action)
                    assert str(caught.value) == choice.refusal
        assert marked == {same_play(a) for a in view.legal if not isinstance(a, End)}
        game.apply(bot.choose(view, rng))
        positions += 1
    assert positions > 20


def test_a_steal_aims_at_the_top_floor_and_a_click_there_finds_it() -> None:
    game = Game(["A", "B"], seed=1)
    a, b = game.players
    a.hand.clear()
    a.hand.update([Card.THREE, Card.JACKHAMMER])
    b.floors = [Floor(Piece(1), Piece(8)), Floor(Piece(3, wild=True), Piece(6))]
    view = game.view(0)
    steal = choices_for(Card.THREE, view, refusal_of(game))
    [only] = steal
    assert only.action == Steal(0, Card.THREE, 1) and only.legal
    assert (only.seat, only.floor) == (1, 1)
    assert choice_at(steal, 1, 1) is only
    # the only play aimed at a tower: a click anywhere on it means it
    assert choice_at(steal, 1, 0) is only and choice_at(steal, 0, 0) is None
    hammer = choices_for(Card.JACKHAMMER, view, refusal_of(game))
    assert choice_at(hammer, 1, None) is hammer[0]
    b.dogs.update({0, 1})
    game.players[0].hand.update([Card.BONE])
    bones = choices_for(Card.BONE, game.view(0), refusal_of(game))
    assert [(c.floor, c.legal) for c in bones] == [(0, True), (1, True)]
    assert choice_at(bones, 1, 0) is bones[0] and choice_at(bones, 1, None) is None
    b.dogs.clear()
    b.dogs.add(1)
    [guarded] = choices_for(Card.THREE, game.view(0), refusal_of(game))
    assert not guarded.legal and "has a dog" in (guarded.refusal or "")


def test_two_wilds_are_offered_and_refused_with_the_rule() -> None:
    game = Game(["A", "B"], seed=1)
    game.players[0].hand.clear()
    game.players[0].hand.update([Card.WILD, Card.WILD, Card.FOUR])
    choices = choices_for(Card.WILD, game.view(0), refusal_of(game))
    by_partner = {c.partner: c for c in choices}
    assert by_partner[Card.FOUR].legal
    assert by_partner[Card.WILD].refusal == \
        "two wilds never make a floor: a wild pairs with a 1 to 8"
