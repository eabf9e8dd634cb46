"""GoTown's 54 cards (RULES.md C1) and the cards of a floor."""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from typing import AbstractSet, Iterable, Mapping, Protocol, Sequence

from fivetowers.games.gotown.rules.errors import CardError, shown


class Card(enum.Enum):
    """A card in a hand, a pile or the deck; its value is how records write it."""

    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    WILD = "?"
    DOG = "dog"
    BONE = "bone"
    JACKHAMMER = "jackhammer"
    WRECKING_BALL = "wrecking-ball"
    MILKSHAKE = "milkshake"
    DONUT_TRUCK = "donut-truck"
    THIEF = "thief"
    SUPER_THIEF = "super-thief"

    # Members are singletons compared by identity, so the identity hash (in C)
    # does what Enum's hash of the name does, much faster for the bots' search.
    __hash__ = object.__hash__

    def __init__(self, value: str) -> None:
        self._number = int(value) if value.isdigit() else None

    def __str__(self) -> str:
        return self.value

    @property
    def number(self) -> int | None:
        """The value 1–8 of a floor card; None for a wild or an action card."""
        return self._number

    @property
    def builds(self) -> bool:
        """A floor card or a wild: what floors are made of."""
        return self._number is not None or self is Card.WILD

    @property
    def is_action(self) -> bool:
        return not self.builds

    @property
    def words(self) -> str:
        """The card as a sentence names it: ``a 5``, ``a wild``, ``a dog``."""
        if self is Card.WILD:
            return "a wild"
        if self.number is not None:
            return f"an {self.value}" if self.number == 8 else f"a {self.value}"
        return f"a {self.value.replace('-', ' ')}"

    @classmethod
    def from_str(cls, text: object) -> Card:
        if isinstance(text, str):
            try:
                return cls(text)
            except ValueError:
                pass
        raise CardError(f"{shown(text)} is not a GoTown card (1 to 8, ?, or an action "
                        "card such as dog or thief)")


def floor_card(number: int) -> Card:
    """The floor card of value ``number`` (1–8)."""
    return _FLOOR_CARDS[number]


_FLOOR_CARDS = {v: Card(str(v)) for v in range(1, 9)}


COUNTS: dict[Card, int] = {
    **{floor_card(v): 4 for v in range(1, 9)},
    Card.WILD: 4, Card.DOG: 4, Card.BONE: 2, Card.JACKHAMMER: 3, Card.WRECKING_BALL: 1,
    Card.MILKSHAKE: 3, Card.DONUT_TRUCK: 1, Card.THIEF: 3, Card.SUPER_THIEF: 1,
}
"""How many of each card the deck holds (54 in all)."""

FLOOR_SUM = 9


def full_deck() -> list[Card]:
    """The 54 cards in canonical order (the order of :data:`COUNTS`)."""
    return [c for c, n in COUNTS.items() for _ in range(n)]


@dataclass(frozen=True, slots=True, order=True)
class Piece:
    """One card of a floor: its value, and whether it is a wild standing for it."""

    value: int
    wild: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 8:
            raise CardError(f"a floor card's value is 1 to 8, not {self.value}")

    def __str__(self) -> str:
        return f"?{self.value}" if self.wild else str(self.value)

    @property
    def card(self) -> Card:
        """The plain card this becomes when it leaves a tower (``?6`` → ``?``)."""
        return Card.WILD if self.wild else _FLOOR_CARDS[self.value]

    @classmethod
    def from_str(cls, text: object) -> Piece:
        if isinstance(text, str) and len(text) in (1, 2) and text[-1] in "12345678" \
                and (len(text) == 1 or text[0] == "?"):
            return cls(int(text[-1]), len(text) == 2)
        raise CardError(f"{shown(text)} is not a card of a floor (1 to 8, or ?1 to ?8)")


@dataclass(frozen=True, slots=True)
class Floor:
    """Two cards side by side that sum to 9, in the order they were written."""

    left: Piece
    right: Piece

    def __post_init__(self) -> None:
        if self.left.wild and self.right.wild:
            raise CardError(f"the floor {self} holds two wilds; two wilds never pair")
        if self.left.value + self.right.value != FLOOR_SUM:
            raise CardError(f"the floor {self} sums to {self.left.value + self.right.value}, "
                            f"not {FLOOR_SUM}")

    @property
    def pieces(self) -> tuple[Piece, Piece]:
        return (self.left, self.right)

    def cards(self) -> tuple[Card, Card]:
        """The plain cards the floor becomes in the discard pile."""
        return (self.left.card, self.right.card)

    def to_json(self) -> list[str]:
        return [str(self.left), str(self.right)]

    @classmethod
    def from_json(cls, data: object) -> Floor:
        if not isinstance(data, list) or len(data) != 2:
            raise CardError(f"a floor is a list of two cards, not {shown(data)}")
        return cls(Piece.from_str(data[0]), Piece.from_str(data[1]))

    def __str__(self) -> str:
        return f"[{self.left}, {self.right}]"


class OnTable(Protocol):
    """A seat's cards that everybody sees (a Player, or a SeatView)."""

    @property
    def floors(self) -> Sequence[Floor]: ...

    @property
    def dogs(self) -> AbstractSet[int]: ...

    @property
    def milkshakes(self) -> int: ...


def cards_seen(seats: Iterable[OnTable], discard: Iterable[Card],
               truck_on_table: bool) -> Counter[Card]:
    """Every card in plain sight, as plain cards: the towers' floors, the
    dogs, the milkshakes and donut truck in play, the discard pile."""
    # Without a call a floor or a card added: greedy+ asks this (through
    # plus._unseen_stealers) at most plays of the strong bot's playouts, so
    # one list counted at once (in C), each floor's pieces read as plain
    # cards here (not floor.cards() and its pieces' properties), and the
    # table's other cards added by ``in`` (no Counter.__missing__).
    cards = [*discard]  # a list without a call (list() is one)
    dogs = milkshakes = 0
    plain, wild = _FLOOR_CARDS, _WILD
    for seat in seats:
        for floor in seat.floors:
            left, right = floor.left, floor.right
            cards += (wild if left.wild else plain[left.value],
                      wild if right.wild else plain[right.value])
        dogs += len(seat.dogs)
        milkshakes += seat.milkshakes
    seen = Counter(cards)
    if dogs:
        seen[_DOG] = seen[_DOG] + dogs if _DOG in seen else dogs
    if milkshakes:
        seen[_MILKSHAKE] = seen[_MILKSHAKE] + milkshakes if _MILKSHAKE in seen else milkshakes
    if truck_on_table:
        seen[_DONUT_TRUCK] = seen[_DONUT_TRUCK] + 1 if _DONUT_TRUCK in seen else 1
    return seen


# the cards as globals: Card.X is a metaclass lookup, several times slower
_DOG, _MILKSHAKE, _DONUT_TRUCK, _WILD = Card.DOG, Card.MILKSHAKE, Card.DONUT_TRUCK, Card.WILD


def cards_unseen(seats: Iterable[OnTable], discard: Iterable[Card], truck_on_table: bool,
                 hand: Mapping[Card, int]) -> Counter[Card]:
    """How many of each card the holder of ``hand`` cannot see: the other
    hands and the draw pile."""
    seen = cards_seen(seats, discard, truck_on_table).get
    held = hand.get
    return counter_of({card: n - gone for card, n in COUNTS.items()
                       if (gone := seen(card, 0) + held(card, 0)) < n})


def counter_of(counts: Mapping[Card, int]) -> Counter[Card]:
    """A Counter of ``counts`` filled by dict's own update,
    in C: Counter's runs Python and an ABC check, and the strong bot's
    search makes one for every hand it copies and at most plays."""
    made: Counter[Card] = Counter.__new__(Counter)  # empty: Counter's __init__ runs update
    dict.update(made, counts)
    return made
