"""The GoTown hint (FORMATS.md "GoTown position"): the most floors the
player's tower can hold after this turn's plays, and a plan that gets there.

Only ``build``, ``steal``, ``bone``, ``jackhammer`` and ``wrecking-ball``
can raise the count this turn (a dog guards, it never adds a floor), so the
search tries those, exhaustively, over states (the player's hand, the
opponents' towers and dogs) with a memo.

Tie-break, between plans reaching the same number of floors: the one with
the fewest plays; among those, the first in this order of the next play:
steal (by seat, then the card from hand, low first), build (plain pairs
1+8, 2+7, 3+6, 4+5, then a wild with 1 … 8), bone, jackhammer, wrecking
ball (each by seat). So a plan never spends an action card it does not need.

Two restrictions lose nothing: a bone is only tried on the dog of a top
floor (a bone on a lower floor does the same later, once the floors above
are gone), and the search stops once the tower reaches ``floors_to_win``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from fivetowers.games.gotown.rules.cards import Card
from fivetowers.games.gotown.rules.position import Position

# The hand as a tuple of counts: values 1–8 at 1..8, then these.
WILD, BONE, JACKHAMMER, WRECKING_BALL = 9, 10, 11, 12
_HAND_SLOTS = {Card.WILD: WILD, Card.BONE: BONE, Card.JACKHAMMER: JACKHAMMER,
               Card.WRECKING_BALL: WRECKING_BALL}

Tower = tuple[tuple[tuple[int, int], ...], frozenset[int]]
"""An opponent's tower as the search sees it: floor values, and its dogs."""
Play = dict[str, Any]
Move = tuple[int, Play, tuple[int, ...], tuple[Tower, ...]]
"""(floors gained, the play, the hand after, the towers after)."""


@dataclass(frozen=True)
class Hint:
    floors: int
    wins: bool
    plan: tuple[Play, ...]

    def to_json(self) -> dict[str, Any]:
        return {"floors": self.floors, "wins": self.wins, "plan": list(self.plan)}


def hint(position: Position) -> Hint:
    """The best play of the turn for ``position``'s player (see the module's tie-break)."""
    hand = [0] * 13
    for card in position.hand:
        slot = card.number if card.number is not None else _HAND_SLOTS.get(card)
        if slot is not None:
            hand[slot] += 1
    others = tuple((s, (tuple((f.left.value, f.right.value) for f in position.towers[s]),
                        position.dogs[s]))
                   for s in range(len(position.towers)) if s != position.me)
    start = len(position.towers[position.me])
    search = _Search(position.floors_to_win - start, [s for s, _ in others])
    added, plan = search.best(tuple(hand), tuple(t for _, t in others))
    floors = start + added
    return Hint(floors, floors >= position.floors_to_win, plan)


class _Search:
    def __init__(self, room: int, seats: list[int]) -> None:
        self.room = room  # floors still to build before the win
        self.seats = seats
        self.memo: dict[tuple[int, tuple[int, ...], tuple[Tower, ...]],
                        tuple[int, tuple[Play, ...]]] = {}

    def best(self, hand: tuple[int, ...], towers: tuple[Tower, ...],
             room: int | None = None) -> tuple[int, tuple[Play, ...]]:
        """(floors added, the plan) — most floors, then fewest plays."""
        room = self.room if room is None else room
        if room <= 0:
            return 0, ()
        key = (room, hand, towers)
        known = self.memo.get(key)
        if known is not None:
            return known
        # every new floor takes at least one 1–8 from the hand
        ceiling = min(room, sum(hand[1:9]))
        best: tuple[int, tuple[Play, ...]] = (0, ())
        for gain, play, next_hand, next_towers in self._moves(hand, towers):
            added, rest = self.best(next_hand, next_towers, room - gain)
            total, plan = added + gain, (play, *rest)
            if total > best[0] or (total == best[0] and total and len(plan) < len(best[1])):
                best = (total, plan)
                if total == ceiling and len(plan) == total:
                    break  # as many floors as possible, one play each: nothing beats it
        self.memo[key] = best
        return best

    def _moves(self, hand: tuple[int, ...], towers: tuple[Tower, ...]) -> Iterator[Move]:
        """(floors gained, play, hand after, towers after), in tie-break order."""
        for i, (floors, dogs) in enumerate(towers):
            if not floors or len(floors) - 1 in dogs:
                continue
            top = floors[-1]
            for card in sorted({9 - top[0], 9 - top[1]}):
                if hand[card]:
                    yield (1, {"steal": {"card": str(card), "from": self.seats[i]}},
                           _minus(hand, card), _replace(towers, i, (floors[:-1], dogs)))
        for low in range(1, 5):
            if hand[low] and hand[9 - low]:
                yield (1, {"build": [str(low), str(9 - low)]},
                       _minus(_minus(hand, low), 9 - low), towers)
        if hand[WILD]:
            for value in range(1, 9):
                if hand[value]:
                    yield (1, {"build": [str(value), "?"]},
                           _minus(_minus(hand, value), WILD), towers)
        for i, (floors, dogs) in enumerate(towers):
            guarded = len(floors) - 1
            if hand[BONE] and floors and guarded in dogs:
                yield (0, {"bone": {"from": self.seats[i], "floor": guarded}},
                       _minus(hand, BONE), _replace(towers, i, (floors, dogs - {guarded})))
        for i, (floors, dogs) in enumerate(towers):
            if hand[JACKHAMMER] and floors and len(floors) - 1 not in dogs:
                yield (0, {"jackhammer": self.seats[i]}, _minus(hand, JACKHAMMER),
                       _replace(towers, i, (floors[:-1], dogs)))
        for i, (floors, dogs) in enumerate(towers):
            if hand[WRECKING_BALL] and floors:
                yield (0, {"wrecking-ball": self.seats[i]}, _minus(hand, WRECKING_BALL),
                       _replace(towers, i, (floors[:-1], dogs - {len(floors) - 1})))


def _minus(hand: tuple[int, ...], slot: int) -> tuple[int, ...]:
    return hand[:slot] + (hand[slot] - 1,) + hand[slot + 1:]


def _replace(towers: tuple[Tower, ...], i: int, tower: Tower) -> tuple[Tower, ...]:
    return towers[:i] + (tower,) + towers[i + 1:]
