"""The strong bot's reading of the last opponent's turn (``Search.infer``):
what a sensible player's hand cannot hold after the turn it just played,
read from the engine's views only, and deals that keep to it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from fivetowers.games.gotown.bots import GreedyBot
from fivetowers.games.gotown.plus import plus_play
from fivetowers.games.gotown.rules import Card, Game, PlayerView
from fivetowers.games.gotown.rules.cards import COUNTS
from fivetowers.games.gotown.rules.view import SeatView
from fivetowers.games.gotown.strong import (
    HEADS_UP_SEARCH, Dealer, Reading, StrongBot, consistent, read_hand, read_turn,
)

from tests.gotown.arrange import cards, table


def later(game: Game, turn: int = 7) -> Game:
    """``game`` some turns in (a reading needs a turn played before ours)."""
    game.turn, game.turns_ended = turn, turn - 1
    return game


def test_an_open_top_floor_tells_what_the_opponent_lacks() -> None:
    """Our open top floor [3, 6] faced the opponent all its turn: it holds
    no 3 or 6 to steal it with, no jackhammer, no thief; one floor only, so
    a wrecking ball may wait; 5 cards: its hand is not full, a pair may wait."""
    game = later(table([["1", "2"], ["1", "1", "2", "2", "7"]], towers=[[["3", "6"]], []]))
    reading = read_turn(game.view(0))
    assert reading is not None and reading.seat == 1
    assert {Card.THREE, Card.SIX, Card.JACKHAMMER, Card.THIEF, Card.MILKSHAKE,
            Card.DONUT_TRUCK} <= reading.none_of
    assert Card.WRECKING_BALL not in reading.none_of and not reading.no_build
    # a guarded top: nothing to steal or hammer, but a wrecking ball would have hit it
    guarded = later(table([["1"], ["1"] * 5], towers=[[["3", "6"]], []], dogs=[[0], []]))
    reading = read_turn(guarded.view(0))
    assert reading is not None
    assert not {Card.THREE, Card.SIX, Card.JACKHAMMER} & reading.none_of
    assert Card.WRECKING_BALL in reading.none_of


def test_a_full_hand_that_did_not_build_holds_no_pair() -> None:
    game = later(table([["1"], ["1", "1", "2", "2", "3", "3", "4", "4"]]))
    reading = read_turn(game.view(0))
    assert reading is not None and reading.no_build
    assert consistent(Counter(cards("1", "1", "2", "3", "4", "dog", "bone", "1")), reading)
    assert not consistent(Counter(cards("1", "8", "2", "3", "4", "bone", "bone", "1")), reading)
    assert not consistent(Counter(cards("1", "?", "bone", "bone", "bone", "1", "1", "1")),
                          reading)
    assert consistent(Counter(cards("?", "?", "bone", "bone", "dog", "dog", "dog", "dog")),
                      reading)


def test_nothing_is_read_when_the_turn_says_nothing() -> None:
    """The first turn (nobody played), a hand of 3 (the draw up to 3 may
    have brought any of them) and a milkshake turn (no plays) read nothing."""
    first = table([["1"], ["1"] * 6], towers=[[["3", "6"]], []])
    assert read_turn(first.view(0)) is None
    small = later(table([["1"], ["1"] * 3], towers=[[["3", "6"]], []]))
    assert read_turn(small.view(0)) is None
    drank = later(table([["1"], ["1"] * 6], towers=[[["3", "6"]], []], milkshakes=[0, 1]))
    before = drank.view(0).seats
    drank.players[1].milkshakes = 0
    assert read_turn(drank.view(0), before) is None
    assert read_turn(drank.view(0)) is not None


def test_deals_keep_to_the_reading_and_to_the_view() -> None:
    """Every deal gives the opponent a hand its last turn allows, of its
    size; every card is in exactly one place; the table is the view's."""
    game = later(table([["1", "2", "8"], ["1"] * 8], towers=[[["3", "6"]], [["2", "7"]]],
                       discard=["thief", "4", "5"]))
    # the real hand does not matter: the deals see the view only
    view = game.view(0)
    reading = read_turn(view)
    assert reading is not None and reading.no_build
    dealer = Dealer(view, reading=reading)
    rng = random.Random(3)
    for _ in range(300):
        dealt = dealer.deal(rng)
        hand = dealt.players[1].hand
        assert hand.total() == 8 and consistent(hand, reading)
        assert dealt.players[0].hand == Counter(view.hand)
        assert [p.floors for p in dealt.players] == [list(s.floors) for s in view.seats]
        everywhere = Counter(dealt.draw) + Counter(dealt.discard)
        for player in dealt.players:
            everywhere += player.hand
            everywhere.update(piece.card for f in player.floors for piece in f.pieces)
        assert everywhere == Counter(COUNTS)


def test_a_hand_no_sensible_player_would_hold_is_dealt_anyway() -> None:
    """Too few cards allowed (the opponent did not play sensibly after all):
    the hand is filled from the others, never short."""
    reading = Reading(1, frozenset({Card.ONE}), no_build=True)
    hand, rest = read_hand(cards("1", "1", "8", "2", "1"), 3, reading, random.Random(0))
    assert len(hand) == 3 and Counter(hand + rest) == Counter(cards("1", "1", "8", "2", "1"))


def test_a_sensible_players_hand_always_fits_its_reading() -> None:
    """Over whole games, at the start of each of seat 0's turns, the greedy
    bot's true hand (a sensible player) is one its reading allows: the
    reading never rules out what the opponent really holds."""
    readings = 0
    for seed in range(40):
        game = Game(["a", "b"], 5, seed=seed)
        rng, greedy = random.Random(seed), GreedyBot()
        turn, seats = -1, None
        while not game.over and game.turn < 300:
            view = game.view(game.to_move)
            if game.to_move == 1:
                game.apply(greedy.choose(view, rng))
                continue
            if view.turn != turn:
                reading = read_turn(view, seats) if turn != view.turn - 1 else None
                if reading is not None:
                    readings += 1
                    assert consistent(game.players[1].hand, reading)
                turn = view.turn
            seats = view.seats
            game.apply(plus_play(game, rng))
    assert readings > 100


@pytest.mark.parametrize("infer", [True, False])
def test_the_strong_bot_deals_by_the_turn_read_only_with_infer_on(
        infer: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``infer`` its decisions play to the end of a game, dealt by the
    reading made at the start of each of its turns; without, by none."""
    from dataclasses import replace

    from fivetowers.games.gotown import strong

    given: list[Reading | None] = []
    real = strong.Dealer

    def dealer(view: PlayerView, faced: SeatView | None = None,
               reading: Reading | None = None) -> strong.Dealer:
        given.append(reading)
        return real(view, faced, reading)

    monkeypatch.setattr(strong, "Dealer", dealer)
    bot = StrongBot(simulations=3, heads_up=replace(HEADS_UP_SEARCH, infer=infer, min_deals=0))
    game = Game(["a", "b"], 4, seed=2)
    rng, greedy = random.Random(2), GreedyBot()
    while not game.over and game.turn < 200:
        seat = game.to_move
        assert seat is not None
        game.apply(bot.choose(game.view(seat), rng) if seat == 0
                   else greedy.choose(game.view(seat), rng))
    assert given  # it searched
    read = [r for r in given if r is not None]
    assert read if infer else not read
