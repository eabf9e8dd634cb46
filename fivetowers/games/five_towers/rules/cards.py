"""Cards, tower types and the deck (RULES.md A1)."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import Iterable

from fivetowers.games.five_towers.rules.errors import CardError, FormatError, shown


class TowerType(enum.Enum):
    """The five types of card; each player builds at most one tower of each."""

    CANDY = "candy"
    SCARY = "scary"
    TREE = "tree"
    SCRAP = "scrap"
    SAND = "sand"

    @property
    def index(self) -> int:
        return _TYPE_INDEX[self]

    def __str__(self) -> str:
        return self.value


TYPES: tuple[TowerType, ...] = tuple(TowerType)
_TYPE_INDEX = {t: i for i, t in enumerate(TYPES)}
_BY_NAME = {t.value: t for t in TYPES}

MAX_VALUE = 15
TOWER_TOP = 0
EXTRA_COPY_VALUES = (0, 2, 5, 7, 10, 12)


def tower_type(name: str) -> TowerType:
    """The tower type called ``name`` (``candy``, ``scary``, ...)."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise CardError(
            f"unknown tower type {shown(name)}: expected one of {', '.join(_BY_NAME)}"
        ) from None


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a type and a value 0..15. Equal cards are interchangeable."""

    type: TowerType
    value: int

    def __str__(self) -> str:
        return f"{self.type.value}-{self.value}"

    def __repr__(self) -> str:
        return f"Card({self})"

    def __lt__(self, other: object) -> bool:  # sort by type order, then value
        if not isinstance(other, Card):
            return NotImplemented
        return (self.type.index, self.value) < (other.type.index, other.value)

    @classmethod
    def from_str(cls, text: object) -> Card:
        """Parse the written form ``TYPE-VALUE`` (``candy-11``)."""
        if not isinstance(text, str):
            raise CardError(f"a card must be written TYPE-VALUE, not {shown(text)}")
        card = _PARSED.get(text)
        if card is None:
            raise CardError(
                f"{shown(text)} is not a card: expected TYPE-VALUE with TYPE one of "
                f"{', '.join(_BY_NAME)} and VALUE 0..{MAX_VALUE}"
            )
        return card


_PARSED: dict[str, Card] = {
    f"{t.value}-{v}": Card(t, v) for t in TYPES for v in range(MAX_VALUE + 1)
}


def card(text: str) -> Card:
    """Shorthand for :meth:`Card.from_str`."""
    return Card.from_str(text)


def cards(texts: Iterable[object]) -> list[Card]:
    return [Card.from_str(t) for t in texts]


def cards_from_json(value: object, name: str) -> list[Card]:
    """A document's list of cards; :class:`FormatError` naming the field if not."""
    if not isinstance(value, list):
        raise FormatError(f'"{name}" must be a list of cards')
    try:
        return [Card.from_str(c) for c in value]
    except CardError as exc:
        raise FormatError(f'"{name}": {exc}') from None


MIN_PLAYERS, MAX_PLAYERS = 2, 5
"""How many play 5 Towers: every check of a player count asks :func:`players_problem`."""


def players_problem(count: int) -> str | None:
    """Why ``count`` players cannot play 5 Towers, or None when they can."""
    if MIN_PLAYERS <= count <= MAX_PLAYERS:
        return None
    return f"5 Towers is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}"


def full_deck(player_count: int) -> list[Card]:
    """The card set for ``player_count`` players, in canonical order."""
    problem = players_problem(player_count)
    if problem is not None:
        raise CardError(problem)
    deck = [Card(t, v) for t in TYPES for v in range(MAX_VALUE + 1)]
    if player_count >= 4:
        deck += [Card(t, v) for t in TYPES for v in EXTRA_COPY_VALUES]
    deck.sort()
    return deck


def shuffled_deck(player_count: int, rng: random.Random) -> list[Card]:
    deck = full_deck(player_count)
    rng.shuffle(deck)
    return deck
