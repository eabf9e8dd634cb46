"""GoTown's bots: plain classes with ``choose(view, rng) -> action``:
random, greedy, and strong (:mod:`fivetowers.games.gotown.strong`).

Each decides from its own :class:`PlayerView` only; the view lists the legal
plays (``view.legal``), so a bot never sees a hidden card.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from fivetowers.games.gotown.hint import hint
from fivetowers.games.gotown.rules.actions import play_from_json
from fivetowers.games.gotown.rules.cards import FLOOR_SUM, floor_card
from fivetowers.games.gotown.rules.position import Position
from fivetowers.games.gotown.rules import (
    Action, Bone, Build, Card, Dog, DonutTruck, Jackhammer, Milkshake, PlayerView, Steal,
    SuperThief, Thief, WreckingBall,
)

if TYPE_CHECKING:
    from fivetowers.games.gotown.strong import StrongBot

BOT_NAMES = ("random", "greedy", "strong")
LATE_BOT = "greedy+"
"""The strong bot's play without its search: greedy+ (plus.py), as quick as
greedy and better. A worker plays it for a bot whose time was up before the
worker could take its turn, so a busy pool costs the strong bot its search,
not its policy."""


def _legal(view: PlayerView) -> tuple[Action, ...]:
    if view.seat is None or not view.my_turn or not view.legal:
        raise ValueError("it is not this bot's turn")
    return view.legal


class RandomBot:
    """Any legal play, uniformly (ending the turn is one of them)."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return rng.choice(_legal(view))


HOARD = 8
"""The greedy bot builds (short of a win) only with this many cards in hand:
a floor in hand cannot be stolen or hit, its cards steal from the others'
towers, and at this size the hand draws no more at the start of a turn."""


class GreedyBot:
    """Takes cards first, steals whenever it can and builds when that wins or
    its hand is full (see :data:`HOARD`), guards its top floor, and turns its
    action cards on the opponent nearest to winning. Ends the turn when
    nothing is worth playing."""

    name = "greedy"

    def __init__(self, plan: bool = True) -> None:
        self.plan = plan  # False: no hint search (faster, for the strong bot's playouts)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = _legal(view)
        assert view.seat is not None
        if not self.plan:
            return self.ranked(view, legal, rng)[0]
        scored = [(self.worth(view, a), rng.random(), i) for i, a in enumerate(legal)]
        best = max(scored)
        if best[0] >= 95.0:  # a win, a steal or a thief first
            return legal[best[2]]
        height = len(view.seats[view.seat].floors)
        found = hint(_position(view))
        if (found.wins or self.full(view)) and found.floors > height:
            planned = _plan_play(view, found.plan)
            if any(planned == a for a in legal):
                return planned
        if not (found.wins or self.full(view)):
            best = max(x for x in scored if not isinstance(legal[x[2]], Build))
        return legal[best[2]]

    def ranked(self, view: PlayerView, actions: Sequence[Action],
               rng: random.Random) -> list[Action]:
        """``actions`` best first as the greedy bot without its plan sees
        them, builds left out while it keeps its pairs. The strong bot's
        playouts try these in order, the first legal one played."""
        assert view.seat is not None
        scored = sorted(((self.worth(view, a), rng.random(), i) for i, a in enumerate(actions)),
                        reverse=True)
        if self.full(view) or \
                len(view.seats[view.seat].floors) + pairs(view.hand) \
                >= view.floors_to_win:
            return [actions[i] for _, _, i in scored]
        return [actions[i] for _, _, i in scored if not isinstance(actions[i], Build)]

    @staticmethod
    def full(view: PlayerView) -> bool:
        """True when it builds short of a win: a full hand, or a dog to guard the new top."""
        return len(view.hand) >= HOARD or Card.DOG in view.hand

    def worth(self, view: PlayerView, action: Action) -> float:
        """How much the play is worth now; 0 (ending the turn) or less: not played."""
        assert view.seat is not None
        me = view.seats[view.seat]
        height = [len(s.floors) for s in view.seats]
        goal = view.floors_to_win
        if isinstance(action, (Build, Steal)) and height[view.seat] + 1 >= goal:
            return 1000.0  # the win
        if isinstance(action, SuperThief):
            return 97.0
        if isinstance(action, Thief):
            return 95.0 + view.seats[action.target].hand_size / 10
        if isinstance(action, Steal):
            return 100.0 + 5 * height[action.target]
        if isinstance(action, Build):
            return 80.0 + spread_after(Counter(view.hand), action) / 10
        if isinstance(action, DonutTruck):
            return 60.0
        if isinstance(action, Dog):
            top = len(me.floors) - 1
            return 50.0 if action.floor == top else (5.0 if action.floor == top - 1 else -1.0)
        if not isinstance(action, (Milkshake, Jackhammer, WreckingBall, Bone)):
            return 0.0  # End
        target = action.target
        threat = height[target] - height[view.seat] / 2
        them = view.seats[target]
        top_guarded = len(them.floors) - 1 in them.dogs
        if isinstance(action, Milkshake):
            return 40.0 + threat
        if isinstance(action, Jackhammer):
            return 30.0 + 10 * threat
        if isinstance(action, WreckingBall):
            return 32.0 + 10 * threat if height[target] >= 2 or top_guarded else -1.0
        if action.floor != len(them.floors) - 1:
            return -1.0
        # a guarded top: lure the dog if a card in hand then takes the floor,
        # or if the tower is one floor from winning
        return 35.0 + 10 * threat if self._can_hit(view, target) \
            or height[target] + 1 >= goal else -1.0

    @staticmethod
    def _can_hit(view: PlayerView, target: int) -> bool:
        """True if, with the dog gone, a card in hand could take the top floor."""
        them = view.seats[target]
        top = them.floors[-1]
        if Card.JACKHAMMER in view.hand:
            return True
        return any(c.number is not None and 9 - c.number in (top.left.value, top.right.value)
                   for c in view.hand)


def _position(view: PlayerView) -> Position:
    assert view.seat is not None
    return Position(view.floors_to_win, view.seat, view.hand,
                    tuple(s.floors for s in view.seats), tuple(s.dogs for s in view.seats))


def _plan_play(view: PlayerView, plan: tuple[dict[str, Any], ...]) -> Action:
    """The play to make now of a hint's plan: its first that is not a build
    (steals and the cards that open towers to them), else the build that
    keeps the hand's values most varied."""
    assert view.seat is not None
    plays = [play_from_json(view.seat, *next(iter(p.items()))) for p in plan]
    for play in plays:
        if not isinstance(play, Build):
            return play
    hand = Counter(view.hand)
    return max(plays, key=lambda b: spread_after(hand, b) if isinstance(b, Build) else 0)


def spread_after(hand: Mapping[Card, int], build: Build) -> float:
    """How many different values 1–8 the hand (card counts) keeps after
    ``build`` (each one a steal it may make), a kept wild counting most (it
    builds with any)."""
    a, b = build.cards
    # ``in`` then ``[]``, not get(): no call (a playout asks this at most builds)
    wilds = (hand[_WILD] if _WILD in hand else 0) - (a is _WILD) - (b is _WILD)
    values = 0
    for card in _NUMBERS:
        if card in hand:
            values += hand[card] - (card is a) - (card is b) > 0
    return values + 2 * (wilds > 0) + 0.5 * (wilds > 1)


def make_bot(name: str, time_per_move: float = 0.05) -> RandomBot | GreedyBot | StrongBot:
    """A bot by name; ``time_per_move`` (seconds) is the strong bot's budget."""
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    if name == "strong":
        from fivetowers.games.gotown.strong import StrongBot
        return StrongBot(time_per_move)
    if name == LATE_BOT:  # not offered to players: the game's late answer
        from fivetowers.games.gotown.strong import StrongBot
        return StrongBot(search=False)
    raise ValueError(f"unknown GoTown bot {name!r}: expected one of {', '.join(BOT_NAMES)}")


def pairs(hand: Iterable[Card]) -> int:
    """How many floors the hand alone could build."""
    return pairs_held(Counter(hand))


_NUMBERS = tuple(floor_card(v) for v in range(1, 9))


def pairs_held(hand: Counter[Card]) -> int:
    """:func:`pairs` of a hand kept as a Counter (the strong bot's playouts
    and score), without listing its cards."""
    # ``in`` then ``[]`` (Counter's [] of a card not held runs __missing__),
    # and no min() or abs(): the playouts ask this at most plays
    made = left = 0
    for low, high in _PAIRS:
        a = hand[low] if low in hand else 0
        b = hand[high] if high in hand else 0
        if a < b:
            made += a
            left += b - a
        else:
            made += b
            left += a - b
    wilds = hand[_WILD] if _WILD in hand else 0
    return made + (wilds if wilds < left else left)


_PAIRS = tuple((_NUMBERS[low - 1], _NUMBERS[FLOOR_SUM - low - 1]) for low in range(1, 5))
"""The number cards that make 9 together, low card first."""
_WILD = Card.WILD


__all__ = ["BOT_NAMES", "GreedyBot", "HOARD", "LATE_BOT", "RandomBot", "make_bot", "pairs", "pairs_held", "spread_after"]
