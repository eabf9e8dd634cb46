"""A player's situation for a hint: ``gotown-position/1`` (FORMATS.md)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from fivetowers.games.gotown.rules.cards import COUNTS, Card, Floor
from fivetowers.games.gotown.rules.errors import CardError, FormatError, shown
from fivetowers.games.gotown.rules.game import MAX_PLAYERS, MIN_PLAYERS, Game

POSITION_FORMAT = "gotown-position/1"
MAX_HAND = 54


@dataclass(frozen=True)
class Position:
    """The hand of seat ``me`` at the moment of play, and every seat's tower."""

    floors_to_win: int
    me: int
    hand: tuple[Card, ...]
    towers: tuple[tuple[Floor, ...], ...]
    dogs: tuple[frozenset[int], ...]

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= len(self.towers) <= MAX_PLAYERS:
            raise FormatError(f"GoTown is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not "
                              f"{len(self.towers)} towers")
        if len(self.dogs) != len(self.towers):
            raise FormatError(f'"dogs" lists {len(self.dogs)} seats and "towers" '
                              f"{len(self.towers)}")
        if not 0 <= self.me < len(self.towers):
            raise FormatError(f'"me" is a seat 0 to {len(self.towers) - 1}, not {self.me}')
        for seat, (tower, dogs) in enumerate(zip(self.towers, self.dogs)):
            for floor in dogs:
                if not 0 <= floor < len(tower):
                    raise FormatError(f"seat {seat} has a dog on floor {floor}, which its "
                                      f"tower of {len(tower)} floors does not have")
            if len(tower) >= self.floors_to_win:
                raise FormatError(f"seat {seat}'s tower has {len(tower)} floors: it has "
                                  "already won")
        used = self.cards_used()
        for card, count in used.items():
            if count > COUNTS[card]:
                raise FormatError(f"the position holds {count} of the card {card}; the deck "
                                  f"has {COUNTS[card]}")

    def cards_used(self) -> Counter[Card]:
        used = Counter(self.hand)
        for tower in self.towers:
            for floor in tower:
                used.update(floor.cards())
        used[Card.DOG] += sum(len(d) for d in self.dogs)
        return used

    @classmethod
    def from_json(cls, data: object) -> Position:
        if not isinstance(data, dict):
            raise FormatError("a position must be a JSON object")
        if data.get("format") != POSITION_FORMAT:
            raise FormatError(f'unknown format {shown(data.get("format"))}: expected '
                              f'"{POSITION_FORMAT}"')
        floors = data.get("floors_to_win", 5)
        if floors not in (4, 5) or isinstance(floors, bool):
            raise FormatError(f'"floors_to_win" is 5, or 4 for the short game, not {shown(floors)}')
        me = data.get("me")
        if not isinstance(me, int) or isinstance(me, bool):
            raise FormatError(f'"me" must be a seat number, not {shown(me)}')
        hand = data.get("hand")
        if not isinstance(hand, list) or len(hand) > MAX_HAND:
            raise FormatError(f'"hand" must be a list of cards, not {shown(hand)}')
        towers, dogs = data.get("towers"), data.get("dogs")
        if not isinstance(towers, list) or not isinstance(dogs, list) \
                or len(towers) > MAX_PLAYERS or len(dogs) > MAX_PLAYERS:
            raise FormatError('"towers" and "dogs" must list every seat\'s (2 to 4)')
        try:
            cards = tuple(Card.from_str(c) for c in hand)
            built = tuple(_tower(t) for t in towers)
        except CardError as exc:
            raise FormatError(str(exc)) from None
        return cls(floors, me, cards, built, tuple(_dogs(d) for d in dogs))

    def to_json(self) -> dict[str, Any]:
        return {"format": POSITION_FORMAT, "floors_to_win": self.floors_to_win, "me": self.me,
                "hand": [str(c) for c in self.hand],
                "towers": [[f.to_json() for f in t] for t in self.towers],
                "dogs": [sorted(d) for d in self.dogs]}

    @classmethod
    def from_game(cls, game: Game, seat: int) -> Position:
        """Seat ``seat``'s situation in ``game`` (FormatError once it is over)."""
        if game.over:
            raise FormatError("the game is over: there is no turn left to hint")
        return cls(game.floors_to_win, seat, tuple(game.players[seat].hand_cards()),
                   tuple(tuple(p.floors) for p in game.players),
                   tuple(frozenset(p.dogs) for p in game.players))

    def to_game(self) -> Game:
        """A game in which ``me`` plays now from this position: the other hands
        are empty and every card not shown is in the draw pile."""
        names = [f"seat {s}" for s in range(len(self.towers))]
        game = Game(names, self.floors_to_win, seed=0)
        for seat, player in enumerate(game.players):
            player.hand = Counter(self.hand) if seat == self.me else Counter()
            player.floors = list(self.towers[seat])
            player.dogs = set(self.dogs[seat])
            player.milkshakes = 0
        rest = Counter(COUNTS) - self.cards_used()
        game.draw = sorted(rest.elements(), key=list(COUNTS).index)
        game.discard = []
        game.to_move = self.me
        return game


def _tower(value: object) -> tuple[Floor, ...]:
    if not isinstance(value, list) or len(value) > 10:
        raise CardError(f"a tower is a list of floors, not {shown(value)}")
    return tuple(Floor.from_json(f) for f in value)


def _dogs(value: object) -> frozenset[int]:
    if not isinstance(value, list) or not all(
            isinstance(f, int) and not isinstance(f, bool) for f in value) \
            or len(set(value)) != len(value):
        raise FormatError(f"a seat's dogs are a list of distinct floor numbers, not {shown(value)}")
    return frozenset(value)
