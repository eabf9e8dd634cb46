"""Greedy+: the strong bot's default play and the policy of its playouts.

The plan-free greedy policy (:func:`~fivetowers.games.gotown.playout.greedy_play`)
with three rules found by playing variants of it against it
(``scripts/gotown_policy_arena.py``, 4000 heads-up games a variant, seed 3,
95% Wilson intervals), read straight off a game's true state but using only
what the seat to move may see (its hand, the towers and dogs, the discard
pile, the hand sizes):

- **build with 3 cards or fewer** (:attr:`Knobs.refill_build`): the draw up
  to 3 at the end of the turn gives back the two cards the floor took (52%
  alone; building with up to 4 cards 50%, up to 5 45%);
- **bone any guarded top** (:attr:`Knobs.bone_any`) instead of only one a
  card in hand could then take or that is one floor from winning: a tower
  without its dog is open to the next steal or hammer (52% with the above);
- **build a floor the opponents most likely cannot steal** before the hand is
  full (:attr:`Knobs.risk_p`): when the chance that some opponent, after its
  next draw, holds a card that steals it (:func:`steal_chance`, the unseen
  cards dealt at random) is at most 10% (53.6% [52.1–55.2] with the above;
  at 5% 53.7%, at 20% 54.1%; 29.2% of 2000 four-player games, share 25%);
- **steal with the card that keeps a pair** (:attr:`Knobs.steal_keep`): a
  top floor [a, 9−a] is stolen with an a or a 9−a; spend the one held more
  often than its partner, then one held twice. Paired against greedy+
  without it on the same deals and seats (``--base``): +0.74 points
  [+0.47, +1.01] over 8000 heads-up deals (seed 5: 54.6% against 53.8%),
  +0.33 [−0.02, +0.67] over 4000 (seed 3), +1.28 [+0.17, +2.40] over 2000
  four-player deals (seed 5: 28.0% against 26.7%, share 25%); no speed cost
  (4000 self-play games in 9.3–9.5 s of CPU either way, busy shared machine).
  The strong bot with it as its policy, 60 deals a decision, the same 200
  heads-up games (``scripts/gotown_search_arena.py --deals 60 --games 200
  --seed 1``): 66.5% [59.7–72.7] against 64.5% [57.7–70.8] before, four
  games more, within the noise of 200 games.

Tried and no better than greedy (about 50%, or worse): building with 7 cards
(40%), 9 (44%), two floors a turn once full (44%), jackhammers and wrecking
balls kept for towers of 2 floors (43%) or 3 (31%), milkshakes for towers of
2 (45%), a thief before a steal, a wrecking ball on a one-floor tower. And a
linear evaluation (25 features: floors, the chance the top is stolen, pairs,
cards held…, fitted by logistic regression on 60,000 turn ends of 3000
self-play games) choosing each play one ply ahead won only 20% of 400: what a
position is worth at the end of a greedy turn does not say which play to make.

Tried later, paired against greedy+ on the same 4000 heads-up deals (seed
3; points of difference, 95% interval) and no better: among steals, the
card whose loss leaves most pairs_held (−1.4 [−2.0, −0.9], 8000 deals;
the wilds it counts mislead it); a dog making the hand full only until a
floor is built this turn (−2.8 [−3.8, −1.7]: with a dog, building every
pair and guarding the last is worth it); a dog kept, not put on the top,
while the top's steal chance is at most 5–30% (−0.2 to −0.4); a build over
an unguarded top that is likelier stolen than the new floor (−1.2
[−2.4, +0.0]); the full hand's build chosen by its steal chance (+0.1 at
weight 0.5, −1.1 at 5); builds that keep the cards stealing an opponent's
top (+0.05 [−0.35, +0.45], 8000 deals, seed 5); a wrecking ball kept for
guarded tops (51.7% against 52.9% unpaired, 8000); the thief only on hands
of 3 or more (53.0%) or 5 (51.9%; greedy+ 52.9% on those deals); the donut truck only with 5 or 7 cards
or fewer (−0.15, −0.03); a risk_p of 0.3 or 1.0 when a rival is one floor
from winning, or 0.3 when two floors ahead (within ±0.3, few deals differ);
the opponents' hands dealt from the unseen floor cards only (a greedy hand
plays its action cards at once) with a risk_p of 0.1–0.3 (+0.0 to +0.4).
An unguarded top hit with a jackhammer before the wrecking ball (kept for a
guarded top) gained +0.16 [+0.01, +0.32] over 8000 deals (seed 5, 41 deals
differ): too little to be sure of, left out. The risky-build limit rarely decides: a pair's 8 stealers are mostly unseen.

**Fitted worths.** The worths a play is ranked by (the greedy bot's: steal
100 + 5 a floor, super thief 97, thief 95, build 80, donut truck 60, dog 50,
milkshake 40, bone 35, wrecking ball 32, jackhammer 30, the threat's
weights...) are :class:`Knobs` fields, fitted by ``scripts/gotown_policy_fit.py``:
a coordinate search over 20 knobs (a step up and down each, kept when the
paired gain was over 1.5 standard errors), greedy+ against greedy on seed
21's 4000 heads-up deals, 67 evaluations. Heads-up most worths only order
plays within a turn (every play worth more than 0 is made before the turn
ends), so most steps changed no deal or a few dozen. Sweep 0 kept a build at
60 (+0.30 points [se 0.11], 20 deals differ: a build, 60 + its spread's
tenth, now ties or barely beats the donut truck's 60 and comes after a
jackhammer, wrecking ball or bone on a rival at a threat of 3, 5 or 1, its
floors less half ours), a wrecking ball at 17
(+0.26 [0.12], 23 deals) and a bone at 50 (+0.33 [0.18], 53 deals: the dog
lured off before the milkshake and the hammers); 53.91% to 54.80% on those
deals; sweep 1 kept nothing. Much worse there: the build's spread weight
−0.1 (−9.7), a dog on the top at 70 (−3.9: before the donut truck, whose
extra turn builds a new top to guard), a hoard of 7 or 9 (−7.1, −5.6),
refill_build 4 or 2 (−2.7, −0.9). Validated paired against greedy+ with
the greedy worths on fresh deals (seed 31): +0.74 points [+0.39, +1.08]
over 8000 heads-up deals (54.8% against 54.1%, 201 deals differ) and +0.79
[−0.41, +2.00] over 2000 four-player deals (29.8% against 29.0%), so
:data:`GREEDY_PLUS` has them. No speed cost (600 self-play games in
1.1–1.3 s of CPU either way, busy shared machine). The strong bot with it as
its policy, 60 deals a decision, paired with the same bot on greedy+ with
greedy's worths (``scripts/gotown_search_arena.py --deals 60 --games 200``,
``--wins-to`` and ``--paired``): seed 1 68.0% [61.2–74.1] against 66.5%
(12 games only it won, 9 only the other, p 0.66), seed 2 62.0% [55.1–68.4]
against 55.5% (21/8, p 0.024); the 400 games 65.0% [60.2–69.5] against
61.0% (33/17, p 0.033). Through the tournament at 0.05 s a move on the
quiet machine (``--workers 2``) the gain does not show: 60.0% of 400 at
seed 1 and 62.3% at seed 0, the bot before 60.5% at seed 1 in the same hour.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import cached_property, lru_cache
from operator import attrgetter
from typing import Mapping, Sequence

from fivetowers.games.gotown.bots import HOARD, pairs_held, spread_after
from fivetowers.games.gotown.draws import choice
from fivetowers.games.gotown.playout import _builds, _offer_attacks, made, steal, thief
from fivetowers.games.gotown.rules import (
    Action, Bone, Build, Card, Dog, DonutTruck, End, Game, Jackhammer, Milkshake,
    SuperThief, WreckingBall,
)
from fivetowers.games.gotown.rules.cards import (
    COUNTS, FLOOR_SUM, cards_seen, cards_unseen, floor_card,
)
from fivetowers.games.gotown.rules.game import MAX_PLAYERS

_NUMBERS = tuple(floor_card(v) for v in range(1, 9))
# the cards as globals: Card.X is a metaclass lookup, several times slower
_DOG, _BONE, _SUPER_THIEF, _THIEF, _DONUT_TRUCK = (
    Card.DOG, Card.BONE, Card.SUPER_THIEF, Card.THIEF, Card.DONUT_TRUCK)
_FLOORS = attrgetter("floors")
_ENDS = tuple(End(seat) for seat in range(MAX_PLAYERS))
_SUPER_THIEVES = tuple(SuperThief(seat) for seat in range(MAX_PLAYERS))
_OTHERS = tuple(tuple(tuple(s for s in range(players) if s != seat) for seat in range(players))
                for players in range(MAX_PLAYERS + 1))
"""The seats other than ``seat`` at a table of ``players``: _OTHERS[players][seat]."""


@dataclass(frozen=True)
class Knobs:
    """The rules greedy+ adds, each one switchable (the arena plays variants)."""

    hoard: int = HOARD
    """Build short of a win with this many cards (the greedy bot's rule)."""
    refill_build: int = 3
    """Also build with this many cards or fewer (0: never)."""
    bone_any: bool = True
    """Bone the dog off any opponent's guarded top floor."""
    risk_p: float = 0.1
    """Also build a floor some opponent holds a stealer of with at most this
    chance (negative: never)."""
    hammer_min: int = 0
    """Jackhammers and wrecking balls only on towers this tall (0: any)."""
    milk_min: int = 0
    """Milkshakes only before towers this tall (0: any)."""
    steal_keep: bool = True
    """Of the two cards that steal a top floor, spend one the hand holds more
    of than of the card it pairs with (so a pair in hand stays whole), then
    one held twice or more."""

    # The worths a play is ranked by (by default the greedy bot's,
    # GreedyBot.worth), as knobs so that scripts/gotown_policy_fit.py can fit
    # them; a win is 1000.
    steal: float = 100.0
    """A steal, plus :attr:`steal_height` a floor of the tower stolen from."""
    steal_height: float = 5.0
    super_thief: float = 97.0
    thief: float = 95.0
    """A thief, plus :attr:`thief_size` a card of the hand it takes from."""
    thief_size: float = 0.1
    build: float = 80.0
    """A build short of a win, plus :attr:`build_spread` a value the hand
    keeps (:func:`~fivetowers.games.gotown.bots.spread_after`)."""
    build_spread: float = 0.1
    donut_truck: float = 60.0
    dog_top: float = 50.0
    """A dog on the own top floor (on the floor below, :attr:`dog_below`)."""
    dog_below: float = 5.0
    milkshake: float = 40.0
    """A milkshake, plus :attr:`milk_threat` times the target's threat: its
    floors less :attr:`own_height` times ours."""
    milk_threat: float = 1.0
    jackhammer: float = 30.0
    """A jackhammer, wrecking ball, bone: plus :attr:`hit_threat` times the threat."""
    wrecking_ball: float = 32.0
    bone: float = 35.0
    hit_threat: float = 10.0
    own_height: float = 0.5

    @cached_property  # asked at every play of a playout
    def build_cap(self) -> float:
        """The most a build short of a win is worth (a spread is at most 8
        values and two wilds): after a steal worth more, no build is offered."""
        return self.build + self.build_spread * (8 + 2 + 0.5)


GREEDY_PLUS = Knobs(build=60.0, wrecking_ball=17.0, bone=50.0)
"""Greedy+: the rules above, and three worths fitted by
``scripts/gotown_policy_fit.py`` (see the module's docstring)."""
GREEDY = Knobs(refill_build=0, bone_any=False, risk_p=-1.0, steal_keep=False)
"""The plain greedy rules and worths, as a check of the arena (plays as greedy_play)."""


def unseen_counts(game: Game, seat: int) -> Counter[Card]:
    """How many of each card ``seat`` cannot see: the other hands and the draw
    pile (the dogs, milkshakes and donut truck on the table are seen)."""
    return cards_unseen(game.players, game.discard, game.truck_on_table,
                        game.players[seat].hand)


def stealers(build: Build, unseen: Mapping[Card, int]) -> int:
    """How many unseen cards could steal the floor ``build`` makes."""
    card, partner = stealer_cards(build)
    return unseen.get(card, 0) + unseen.get(partner, 0)


def stealer_cards(build: Build) -> tuple[Card, Card]:
    """The two cards that steal the floor ``build`` makes: its number card
    a (that takes the 9 − a, plain or wild) and the 9 − a (that takes the a)."""
    a = build.cards[0]
    assert a.number is not None
    return a, _NUMBERS[FLOOR_SUM - a.number - 1]


_DECK_SIZE = sum(COUNTS.values())


def _unseen_stealers(game: Game, seat: int, builds: Sequence[Build]) -> tuple[list[int], int]:
    """For each of ``builds``, how many cards that steal its floor ``seat``
    cannot see, and how many cards it cannot see in all: :func:`stealers`
    and the total of :func:`unseen_counts`, worked out for the cards asked
    about only. Greedy+ asks at most plays of a playout: counting all 17
    kinds was a tenth of the strong bot's search, and a call a floor and a
    build most of the rest."""
    players = game.players
    # what seat sees or holds, as plain cards
    sighted = cards_seen(players, game.discard, game.truck_on_table)
    for card, count in players[seat].hand.items():
        sighted[card] = sighted[card] + count if card in sighted else count
    # no kind counted past its number in the deck (min of the two, in C)
    total = _DECK_SIZE - sum(map(min, sighted.values(), map(COUNTS.__getitem__, sighted)))
    counts = []
    for build in builds:
        card, partner = _STEALERS[build.cards[0]]  # stealer_cards(build)
        bad = COUNTS[card] - (sighted[card] if card in sighted else 0)
        if bad < 0:
            bad = 0
        unseen = COUNTS[partner] - (sighted[partner] if partner in sighted else 0)
        if unseen > 0:
            bad += unseen
        counts.append(bad)
    return counts, total


_STEALERS = {card: (card, _NUMBERS[FLOOR_SUM - value - 1]) for value, card in enumerate(_NUMBERS, 1)}
"""A build's first card: :func:`stealer_cards` of the build."""


def steal_chance(game: Game, seat: int, build: Build, unseen: Counter[Card]) -> float:
    """The chance that some opponent holds, after its next draw, a card that
    steals the floor ``build`` makes, its hand dealt at random from the unseen cards."""
    total = unseen.total()
    return _chance(stealers(build, unseen), total, _held_next(_hand_sizes(game, seat), total))


def _hand_sizes(game: Game, seat: int) -> tuple[int, ...]:
    """The opponents' hand sizes, in seat order."""
    return tuple(player.hand_size for s, player in enumerate(game.players) if s != seat)


def _held_next(hand_sizes: tuple[int, ...], total: int) -> tuple[int, ...]:
    """The opponents' hands after their next draw (of ``total`` unseen cards)."""
    return tuple(min(size + 1, total) for size in hand_sizes)


def _chance(bad: int, total: int, held_next: tuple[int, ...]) -> float:
    """:func:`steal_chance` with ``bad`` stealers among ``total`` unseen cards,
    the opponents about to hold ``held_next`` (:func:`_held_next`)."""
    if total <= 0 or bad <= 0:
        return 0.0
    return _steal_chance(total, bad, held_next)


@lru_cache(maxsize=1 << 14)
def _steal_chance(total: int, bad: int, cards: tuple[int, ...]) -> float:
    """:func:`steal_chance` for opponents about to hold ``cards``, ``bad`` of
    ``total`` unseen cards stealers (few distinct cases recur in playouts)."""
    safe = 1.0
    for held in cards:
        for i in range(held):  # no stealer among them
            safe *= max(total - bad - i, 0) / (total - i)
    return 1.0 - safe


def _keep_worth(count: int, partners: int) -> float:
    """What spending one of ``count`` cards on a steal keeps, with
    ``partners`` cards in hand that build with it (under 1: it only
    breaks ties between steals of equal worth: the two cards of one top
    floor, or the tops of equal height of different opponents)."""
    return 0.5 * (count > partners) + 0.2 * (count >= 2)


def plus_play(game: Game, rng: random.Random, knobs: Knobs = GREEDY_PLUS) -> Action:
    """Greedy+'s play for the seat to move (the worths of greedy_play, the
    rules of :class:`Knobs` on top)."""
    seat = game.to_move
    assert seat is not None
    players = game.players
    me = players[seat]
    hand = me.hand
    goal = game.floors_to_win
    height = list(map(len, map(_FLOORS, players)))  # no call traced: C all through
    others = _OTHERS[len(players)][seat]
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

    # Cards are asked about with ``in`` then ``[]``, not hand.get(): no call
    # (greedy+ plays every play of every playout), and a tower's top guard
    # as ``height - 1 in dogs`` for top_has_dog()'s call.
    wins = height[seat] + 1 >= goal
    for target in others:
        them = players[target]
        floors = them.floors
        if not floors or height[target] - 1 in them.dogs:
            continue
        top = floors[-1]
        low, high = FLOOR_SUM - top.left.value, FLOOR_SUM - top.right.value
        if low > high:
            low, high = high, low
        for value in (low,) if low == high else (low, high):
            card = _NUMBERS[value - 1]
            count = hand[card] if card in hand else 0
            if count:
                if knobs.steal_keep:
                    partner = _NUMBERS[FLOOR_SUM - value - 1]
                    keep = _keep_worth(count, hand[partner] if partner in hand else 0)
                else:
                    keep = 0.0
                offer(1000.0 if wins else knobs.steal + knobs.steal_height * height[target] + keep,
                      steal(seat, card, target))
    # a build is worth at most build_cap short of a win: after a steal, none is offered
    builds = _builds(hand, seat) if wins or best_worth <= knobs.build_cap else ()
    if builds:
        size = sum(hand.values())  # Counter.total(), a call less
        full = wins or size >= knobs.hoard or size <= knobs.refill_build \
            or (_DOG in hand and hand[_DOG]) or height[seat] + pairs_held(hand) >= goal
        if full:
            for build in builds:
                offer(1000.0 if wins else
                      knobs.build + spread_after(hand, build) * knobs.build_spread, build)
        elif knobs.risk_p >= 0:
            bad, total = _unseen_stealers(game, seat, builds)
            # _held_next(_hand_sizes(...)) without their calls
            held_next = tuple([size + 1 if size < total else total
                               for size in [sum(players[other].hand.values())
                                            for other in others]])
            for i, build in enumerate(builds):
                # _chance(), without its call
                if (0.0 if total <= 0 or bad[i] <= 0 else
                        _steal_chance(total, bad[i], held_next)) <= knobs.risk_p:
                    offer(knobs.build + spread_after(hand, build) * knobs.build_spread, build)
    if best_worth >= 1000.0:
        return choice(rng, best)  # rng.choice's pick, in fewer calls (draws.py)
    if _SUPER_THIEF in hand and hand[_SUPER_THIEF]:
        offer(knobs.super_thief, _SUPER_THIEVES[seat])
    if _THIEF in hand and hand[_THIEF]:
        for target in others:
            size = sum(players[target].hand.values())
            if size:
                offer(knobs.thief + size * knobs.thief_size, thief(seat, target))
    if _DONUT_TRUCK in hand and hand[_DONUT_TRUCK]:
        offer(knobs.donut_truck, made(DonutTruck, seat))
    if _DOG in hand and hand[_DOG] and me.floors:
        mine = len(me.floors) - 1
        if mine not in me.dogs:
            offer(knobs.dog_top, made(Dog, seat, mine))
        elif mine - 1 >= 0 and mine - 1 not in me.dogs:
            offer(knobs.dog_below, made(Dog, seat, mine - 1))

    if knobs.hammer_min or knobs.milk_min:
        def attack(worth: float, action: Action) -> None:
            if isinstance(action, (Jackhammer, WreckingBall)) and \
                    height[action.target] < knobs.hammer_min:
                return
            if isinstance(action, Milkshake) and height[action.target] < knobs.milk_min:
                return
            offer(worth, action)

        _offer_attacks(game, seat, others, height, attack, knobs)
    else:
        _offer_attacks(game, seat, others, height, offer, knobs)
    if knobs.bone_any and _BONE in hand and hand[_BONE]:
        for target in others:
            if height[target] and height[target] - 1 in players[target].dogs:
                threat = height[target] - height[seat] * knobs.own_height
                offer(knobs.bone + knobs.hit_threat * threat,
                      made(Bone, seat, target, height[target] - 1))
    return choice(rng, best) if best else _ENDS[seat]


__all__ = ["GREEDY", "GREEDY_PLUS", "Knobs", "plus_play", "steal_chance", "stealers",
           "unseen_counts"]
