"""The log tells every play, and a thief's catch only to those who know it."""

from __future__ import annotations

import random

from fivetowers.games.gotown.bots import make_bot
from fivetowers.games.gotown.chronicle import Chronicle
from fivetowers.games.gotown.rules import (
    Card, DonutTruck, End, Game, Milkshake, SuperThief, Thief, full_deck,
)


def test_a_thiefs_card_is_named_for_the_thief_and_the_robbed_only() -> None:
    game = Game(["Ann", "Bo", "Cy"], seed=7)
    chronicle = Chronicle(game)
    # play greedy until a thief has been played, then compare the viewers
    bot, rng = make_bot("greedy"), random.Random(3)
    while not any(isinstance(a, (Thief, SuperThief)) and (a.took if isinstance(a, Thief)
                  else a.took) for a in game.actions):
        assert not game.over
        game.apply(bot.choose(game.view(game.to_move), rng))
    chronicle.follow(game)
    entry = next(e for e in chronicle.entries if e.took)
    thief = entry.thief
    assert thief is not None
    robbed = {s for s, _ in entry.took}
    for seat in range(3):
        text = entry.text_for(seat)
        for s, card in entry.took:
            if seat in (thief, s):
                assert card.words in text, (seat, text)
        if seat != thief and seat not in robbed:
            assert "a card" in text
    assert "a card" in entry.text_for(None)  # a watcher knows no card


def test_milkshake_and_donut_truck_turns_are_told_and_give_the_reason() -> None:
    deck = full_deck()
    for card in (Card.DONUT_TRUCK, Card.MILKSHAKE):  # dealt to Ann
        deck.remove(card)
        deck.insert(0, card)
    game = Game(["Ann", "Bo", "Cy"], deck=deck, seed=7)
    chronicle = Chronicle(game)
    for action in (DonutTruck(0), Milkshake(0, 1), End(0)):
        game.apply(action)
    chronicle.follow(game)
    texts = [e.text for e in chronicle.entries]
    assert texts[-2:] == ["Ann ends the turn", "Donut truck: Ann takes another turn"]
    assert chronicle.reason == "another turn: donut truck" and game.to_move == 0
    game.apply(End(0))  # Bo drinks the milkshake: Cy's turn
    chronicle.follow(game)
    assert chronicle.entries[-1].text == "Bo drinks a milkshake: turn lost"
    assert chronicle.reason == "Bo drank a milkshake" and game.to_move == 2


def test_every_action_is_told_once_in_order() -> None:
    game = Game(["You", "Bo"], seed=2)
    bot, rng = make_bot("random"), random.Random(2)
    chronicle = Chronicle(game)
    while not game.over:
        game.apply(bot.choose(game.view(game.to_move), rng))
        if len(game.actions) % 5 == 0:
            chronicle.follow(game)
    chronicle.follow(game)
    told = [e.action for e in chronicle.entries]
    assert sorted(set(told)) == list(range(len(game.actions)))
    assert told == sorted(told)
    assert not any("You builds" in e.text or "You's" in e.text for e in chronicle.entries)
