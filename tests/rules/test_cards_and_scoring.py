"""Cards, decks and scoring (RULES.md A1, A5, B scary/candy)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from fivetowers.games.five_towers.rules import (
    TYPES, Card, CardError, Game, TowerType, Variant, card, full_deck,
)
from fivetowers.games.five_towers.rules.scoring import pair_count, score, teardown_penalty, total

from tests.rules.randomplay import random_action


def test_deck_sizes() -> None:
    for n in (2, 3):
        assert len(full_deck(n)) == 80
    for n in (4, 5):
        deck = full_deck(n)
        assert len(deck) == 110
        counts = Counter(deck)
        assert counts[card("candy-7")] == 2 and counts[card("sand-0")] == 2
        assert counts[card("tree-8")] == 1
    with pytest.raises(CardError):
        full_deck(6)


@pytest.mark.parametrize("text", ["candy-16", "candy--1", "Candy-3", "goo-3", "candy", 3, None, "candy-03"])
def test_bad_card_names(text: object) -> None:
    with pytest.raises(CardError):
        Card.from_str(text)


def test_card_round_trip_and_order() -> None:
    for c in full_deck(5):
        assert Card.from_str(str(c)) == c
    assert sorted([card("sand-0"), card("candy-9"), card("candy-2")]) == [
        card("candy-2"), card("candy-9"), card("sand-0")]


def _towers(**kw: list[int]) -> dict[TowerType, list[int]]:
    out: dict[TowerType, list[int]] = {t: [] for t in TowerType}
    for name, values in kw.items():
        out[TowerType(name)] = values
    return out


def test_rulebook_scoring_example() -> None:
    # A tower with no tower top: 4 x 1 VP. A tower with a tower top of 6
    # cards, chosen as main: 6 x 2 + 6 VP. Two torn-down cards: -3.
    s = score(_towers(candy=[15, 12, 8, 4], scary=[14, 12, 10, 6, 3, 0]), 2, powers=False)
    assert (s.towers, s.main, s.pairs, s.teardown) == (4 + 12, 6, 0, -3)
    assert s.total == 4 + 12 + 6 - 3
    # The 3-card tower-topped example: 3 x 2 VP.
    assert score(_towers(tree=[5, 3, 0]), 0, powers=False).towers == 6


def test_teardown_penalty_grows() -> None:
    assert [teardown_penalty(n) for n in range(6)] == [0, 1, 3, 6, 10, 15]


def test_rulebook_pairs_example() -> None:
    # scary 12, 11, 7, 3 and candy 14, 11, 8, 12, 0: pairs 12 and 11 -> 6 VP.
    scary, candy = [12, 11, 7, 3], [14, 11, 8, 12, 0]
    assert pair_count(scary, candy) == 2
    assert score(_towers(scary=scary, candy=candy), 0, powers=True).pairs == 6
    assert score(_towers(scary=scary, candy=candy), 0, powers=False).pairs == 0


def test_each_card_in_one_pair_only() -> None:
    assert pair_count([7, 9, 9], [9, 8, 9, 9]) == 2
    assert pair_count([5], [5, 5]) == 1


@pytest.mark.parametrize("variant", [Variant.BASE, Variant.GREAT_POWERS])
def test_the_quick_total_is_the_score(variant: Variant) -> None:
    # Searches and rollouts score with total(); the breakdown with score():
    # on every board of random games, one number.
    checked = 0
    for seed in range(3):
        game = Game(["a", "b", "c"], variant, seed=seed)
        rng = random.Random(seed)
        while not game.is_terminal():
            for player in game.players:
                board = player.board
                towers = [board.towers[t] for t in TYPES]
                assert total(towers, len(board.teardown), variant.powers) == \
                    board.score(variant.powers).total
                checked += 1
            game.apply(random_action(game, rng))
    assert checked > 100
