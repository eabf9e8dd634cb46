"""What the playout policies read straight off the true state of a dealt
game: the builds a hand allows, the steals and the attacks on offer.

:class:`~fivetowers.games.gotown.bots.GreedyBot` decides from a
:class:`PlayerView` and ranks every candidate play; a playout makes tens of
thousands of plays per second, so greedy+ (:mod:`~fivetowers.games.gotown.plus`,
the strong bot's playout policy for every seat) builds on these helpers,
which look only at the cards held. :func:`greedy_play` is greedy+ with its
rules off: the greedy bot's play without its plan. The strong bot's
decisions themselves still go through the view and the validator; only its
imagined continuations use this.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Sequence, TypeVar, Union

from fivetowers.games.gotown.rules import (
    Action, Bone, Build, Card, DonutTruck, Dog, Game, Jackhammer, Milkshake, Steal, Thief,
    WreckingBall,
)
from fivetowers.games.gotown.rules.game import MAX_PLAYERS
from fivetowers.games.gotown.rules.cards import FLOOR_SUM, Floor, floor_card

if TYPE_CHECKING:
    from fivetowers.games.gotown.plus import Knobs

_NUMBERS = tuple(floor_card(v) for v in range(1, 9))
# the cards as globals: Card.X is a metaclass lookup, several times slower
_MILKSHAKE, _JACKHAMMER, _WRECKING_BALL, _BONE, _WILD = (
    Card.MILKSHAKE, Card.JACKHAMMER, Card.WRECKING_BALL, Card.BONE, Card.WILD)


def greedy_play(game: Game, rng: random.Random) -> Action:
    """The plan-free greedy bot's play for the seat to move (see GreedyBot.worth):
    a win, a steal from the tallest open tower, a super thief, a thief on the
    fullest hand, a build (with a full hand, a dog, or pairs enough to win),
    a donut truck, a dog on the top floor, an action card on the leader,
    else the end of the turn: greedy+ with none of its rules
    (:data:`~fivetowers.games.gotown.plus.GREEDY`)."""
    # plus.py builds on this module's helpers: imported here, not at the top.
    from fivetowers.games.gotown.plus import GREEDY, plus_play
    return plus_play(game, rng, GREEDY)


def _offer_attacks(game: Game, seat: int, others: Sequence[int], height: list[int],
                   offer: Callable[[float, Action], None], knobs: Knobs) -> None:
    """Milkshakes, jackhammers, wrecking balls and bones, on the opponent
    nearest to winning (the worths of ``knobs``: by default the greedy bot's)."""
    # ``in`` then ``[]``, not get() (no call): asked at every play of a playout
    hand = game.players[seat].hand
    milkshake = _MILKSHAKE in hand and hand[_MILKSHAKE]
    jackhammer = _JACKHAMMER in hand and hand[_JACKHAMMER]
    wrecking_ball = _WRECKING_BALL in hand and hand[_WRECKING_BALL]
    bone = _BONE in hand and hand[_BONE]
    if not (milkshake or jackhammer or wrecking_ball or bone):
        return
    for target in others:
        them = game.players[target]
        threat = height[target] - height[seat] * knobs.own_height
        guarded = height[target] - 1 in them.dogs  # top_has_dog(), a call less
        if milkshake:
            offer(knobs.milkshake + knobs.milk_threat * threat, made(Milkshake, seat, target))
        if not them.floors:
            continue
        hit = knobs.hit_threat * threat
        if jackhammer and not guarded:
            offer(knobs.jackhammer + hit, made(Jackhammer, seat, target))
        if wrecking_ball and (height[target] >= 2 or guarded):
            offer(knobs.wrecking_ball + hit, made(WreckingBall, seat, target))
        if bone and guarded and (
                height[target] + 1 >= game.floors_to_win or _can_hit(hand, them.floors[-1])):
            offer(knobs.bone + hit, made(Bone, seat, target, height[target] - 1))


def _can_hit(hand: Counter[Card], top: Floor) -> bool:
    """True if, with its dog gone, a card in hand could take ``top``."""
    if hand.get(Card.JACKHAMMER):
        return True
    return any(hand.get(_NUMBERS[FLOOR_SUM - p.value - 1]) for p in top.pieces)


def _builds(hand: Counter[Card], seat: int) -> tuple[Build, ...]:
    """Every build the hand allows (plain pairs low card first, then wilds)."""
    # The floor cards and wilds held, as bits, pick the builds from a table
    # made once: a loop over the hand's few kinds, not over the 8 numbers.
    held = 0
    for card, count in hand.items():
        if count:
            held |= _BUILD_BIT[card] if count > 0 else _NUMBER_BIT[card]
    return _BUILDS_HELD[seat][held]


def _builds_of(held: int, seat: int) -> tuple[Build, ...]:
    """:func:`_builds` of a hand holding the floor cards of the bits
    ``held`` (bit v − 1 for value v, bit 8 a wild)."""
    found: list[Build] = []
    wild = bool(held & _WILD_BIT)
    for card, pair, with_wild in _BUILDS[seat]:
        if not held & _BUILD_BIT[card]:
            continue
        if pair is not None and held & _BUILD_BIT[pair.cards[1]]:
            found.append(pair)
        if wild:
            found.append(with_wild)
    return tuple(found)


def _seat_builds(seat: int) -> tuple[tuple[Card, Build | None, Build], ...]:
    """For each floor card, low value first: the card, its build with the
    card that makes 9 (the lower of the two only), its build with a wild."""
    return tuple(
        (card, Build(seat, (card, _NUMBERS[FLOOR_SUM - value - 1]))
         if value < FLOOR_SUM - value else None, Build(seat, (card, Card.WILD)))
        for value, card in enumerate(_NUMBERS, 1))


_BUILDS = tuple(_seat_builds(seat) for seat in range(MAX_PLAYERS))
"""Every build a hand can make, by seat: plays are values, made once."""
_WILD_BIT = 1 << 8
_NUMBER_BIT = {card: (1 << (card.number - 1) if card.number is not None else 0) for card in Card}
"""A card's bit if it is a number (a wild's only with a count above 0, as _builds asks)."""
_BUILD_BIT = {**_NUMBER_BIT, Card.WILD: _WILD_BIT}
_BUILDS_HELD = tuple(tuple(_builds_of(held, seat) for held in range(1 << 9))
                     for seat in range(MAX_PLAYERS))
"""_BUILDS_HELD[seat][held]: :func:`_builds_of`, for every hand's bits."""


@lru_cache(maxsize=None)
def steal(seat: int, card: Card, target: int) -> Steal:
    """The play (a value, made once: a playout offers the same steals again and again)."""
    return Steal(seat, card, target)


_Play = TypeVar("_Play", bound=Union[Dog, Bone, Jackhammer, WreckingBall, Milkshake, DonutTruck])


@lru_cache(maxsize=None)
def made(kind: type[_Play], *fields: int) -> _Play:
    """The play ``kind(*fields)``, made once: plays are values, and a
    playout offers the same attacks, dogs and bones again and again (a
    frozen dataclass is slow to make; thieves: :func:`thief`)."""
    return kind(*fields)


@lru_cache(maxsize=None)
def thief(seat: int, target: int) -> Thief:
    """The thief's play on ``target``, made once (a value, as :func:`made`'s:
    apart because a thief's fields are not all seats, as ``made``'s types have them)."""
    return Thief(seat, target)


__all__ = ["greedy_play"]
