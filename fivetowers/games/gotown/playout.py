"""The strong bot's playout policy: the greedy bot without its plan, read
straight off the true state of a dealt game.

:class:`~fivetowers.games.gotown.bots.GreedyBot` decides from a
:class:`PlayerView` and ranks every candidate play; a playout makes tens of
thousands of plays per second, and building a view and scoring every
candidate for each was most of its cost. :func:`greedy_play` reaches the
same play (the greedy bot's worth of each kind of play, ties drawn at
random) from the players' hands and towers, and only for the cards held.
The strong bot's decisions themselves still go through the view and the
validator; only its imagined continuations use this.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Callable

from fivetowers.games.gotown.bots import HOARD, pairs_held, spread_after
from fivetowers.games.gotown.rules import (
    Action, Bone, Build, Card, Dog, DonutTruck, End, Game, Jackhammer, Milkshake, Steal,
    SuperThief, Thief, WreckingBall,
)
from fivetowers.games.gotown.rules.cards import FLOOR_SUM, Floor, floor_card

_NUMBERS = tuple(floor_card(v) for v in range(1, 9))


def greedy_play(game: Game, rng: random.Random) -> Action:
    """The plan-free greedy bot's play for the seat to move (see GreedyBot.worth):
    a win, a steal from the tallest open tower, a super thief, a thief on the
    fullest hand, a build (with a full hand, a dog, or pairs enough to win),
    a donut truck, a dog on the top floor, an action card on the leader,
    else the end of the turn."""
    seat = game.to_move
    assert seat is not None
    players = game.players
    me = players[seat]
    hand = me.hand
    goal = game.floors_to_win
    height = [len(p.floors) for p in players]
    others = [s for s in range(len(players)) if s != seat]
    best: list[Action] = []
    best_worth = 0.0

    def offer(worth: float, action: Action) -> None:
        nonlocal best_worth
        if worth > best_worth:
            best_worth = worth
            best.clear()
            best.append(action)
        elif worth == best_worth and worth > 0:
            best.append(action)

    held = hand.get  # Counter's [] runs __missing__ for every card not held
    builds = _builds(hand, seat)
    wins = height[seat] + 1 >= goal
    for target in others:
        them = players[target]
        if not them.floors or them.top_has_dog():
            continue
        top = them.floors[-1]
        for value in sorted({FLOOR_SUM - top.left.value, FLOOR_SUM - top.right.value}):
            card = _NUMBERS[value - 1]
            if held(card):
                offer(1000.0 if wins else 100.0 + 5 * height[target], Steal(seat, card, target))
    if builds and (wins or hand.total() >= HOARD or held(Card.DOG)
                   or height[seat] + pairs_held(hand) >= goal):
        cards = tuple(sorted(hand.elements(), key=lambda c: c.value))
        for build in builds:
            offer(1000.0 if wins else 80.0 + spread_after(cards, build) / 10, build)
    if best_worth >= 1000.0:
        return rng.choice(best)
    if held(Card.SUPER_THIEF):
        offer(97.0, SuperThief(seat))
    if held(Card.THIEF):
        for target in others:
            size = players[target].hand_size
            if size:
                offer(95.0 + size / 10, Thief(seat, target))
    if held(Card.DONUT_TRUCK):
        offer(60.0, DonutTruck(seat))
    if held(Card.DOG) and me.floors:
        mine = len(me.floors) - 1
        if mine not in me.dogs:
            offer(50.0, Dog(seat, mine))
        elif mine - 1 >= 0 and mine - 1 not in me.dogs:
            offer(5.0, Dog(seat, mine - 1))
    _offer_attacks(game, seat, others, height, offer)
    return rng.choice(best) if best else End(seat)


def _offer_attacks(game: Game, seat: int, others: list[int], height: list[int],
                   offer: Callable[[float, Action], None]) -> None:
    """Milkshakes, jackhammers, wrecking balls and bones, on the opponent
    nearest to winning (the greedy bot's worths)."""
    held = game.players[seat].hand.get
    milkshake, jackhammer, wrecking_ball, bone = (
        held(Card.MILKSHAKE), held(Card.JACKHAMMER), held(Card.WRECKING_BALL), held(Card.BONE))
    if not (milkshake or jackhammer or wrecking_ball or bone):
        return
    hand = game.players[seat].hand
    for target in others:
        them = game.players[target]
        threat = height[target] - height[seat] / 2
        guarded = them.top_has_dog()
        if milkshake:
            offer(40.0 + threat, Milkshake(seat, target))
        if not them.floors:
            continue
        if jackhammer and not guarded:
            offer(30.0 + 10 * threat, Jackhammer(seat, target))
        if wrecking_ball and (height[target] >= 2 or guarded):
            offer(32.0 + 10 * threat, WreckingBall(seat, target))
        if bone and guarded and (
                height[target] + 1 >= game.floors_to_win or _can_hit(hand, them.floors[-1])):
            offer(35.0 + 10 * threat, Bone(seat, target, height[target] - 1))


def _can_hit(hand: Counter[Card], top: Floor) -> bool:
    """True if, with its dog gone, a card in hand could take ``top``."""
    if hand.get(Card.JACKHAMMER):
        return True
    return any(hand.get(_NUMBERS[FLOOR_SUM - p.value - 1]) for p in top.pieces)


def _builds(hand: Counter[Card], seat: int) -> list[Build]:
    """Every build the hand allows (plain pairs low card first, then wilds)."""
    found: list[Build] = []
    held = hand.get
    wild = held(Card.WILD, 0) > 0
    for value, card in enumerate(_NUMBERS, 1):
        if not held(card):
            continue
        if value < FLOOR_SUM - value and held(_NUMBERS[FLOOR_SUM - value - 1]):
            found.append(Build(seat, (card, _NUMBERS[FLOOR_SUM - value - 1])))
        if wild:
            found.append(Build(seat, (card, Card.WILD)))
    return found


__all__ = ["greedy_play"]
