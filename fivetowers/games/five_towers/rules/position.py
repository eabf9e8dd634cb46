"""The position ``fivetowers-position/1``: one player's situation, for hints."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from fivetowers.games.five_towers.rules.board import Board
from fivetowers.games.five_towers.rules.cards import TYPES, Card, cards_from_json, full_deck, tower_type
from fivetowers.games.five_towers.rules.errors import CardError, FormatError, shown
from fivetowers.games.five_towers.rules.game import Game
from fivetowers.games.five_towers.rules.towers import tower_error
from fivetowers.games.five_towers.rules.variant import Variant
from fivetowers.games.five_towers.rules.view import PlayerView

POSITION_FORMAT = "fivetowers-position/1"
_ALL_CARDS_LIST = full_deck(5)
_ALL_CARDS = Counter(_ALL_CARDS_LIST)
_PER_TYPE = len(_ALL_CARDS_LIST) // len(TYPES)


def _cards(value: object, name: str, most: int) -> list[Card]:
    """A list of cards of at most ``most``, refused by its length before it is read."""
    if isinstance(value, list) and len(value) > most:
        what = "a display holds" if name == "display" else f'"{name}" may hold'
        raise FormatError(f"{what} at most {most} cards, not {len(value)}")
    return cards_from_json(value, name)


@dataclass
class Position:
    """A player's towers and teardown pile, and the display they bid on."""

    variant: Variant
    board: Board = field(default_factory=Board)
    display: list[Card] = field(default_factory=list)

    @property
    def powers(self) -> bool:
        return self.variant.powers

    @classmethod
    def from_json(cls, data: object) -> Position:
        if not isinstance(data, dict):
            raise FormatError("a position must be a JSON object")
        if data.get("format") != POSITION_FORMAT:
            raise FormatError(f'unknown format {shown(data.get("format"))}: expected '
                              f'"{POSITION_FORMAT}"')
        variant = Variant.from_str(data.get("variant"))
        towers_in = data.get("towers", {})
        if not isinstance(towers_in, dict):
            raise FormatError('"towers" must be an object of type → list of values')
        board = Board()
        for name, values in towers_in.items():
            try:
                t = tower_type(name)
            except CardError as exc:
                raise FormatError(f'"towers": {exc}') from None
            if isinstance(values, list) and len(values) > _PER_TYPE:
                raise FormatError(f"the {name} tower holds {len(values)} cards; the game has "
                                  f"{_PER_TYPE} of each type")
            if not isinstance(values, list) or not all(
                    isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 15
                    for v in values):
                raise FormatError(f'the {name} tower must be a list of values 0..15')
            problem = tower_error(values)
            if problem:
                raise FormatError(f"the {name} tower breaks the building rules: {problem}")
            board.towers[t] = list(values)
        board.teardown = _cards(data.get("teardown", []), "teardown", len(_ALL_CARDS_LIST))
        display = _cards(data.get("display", []), "display", 5)
        used = Counter(display) + Counter(board.teardown) + Counter(
            Card(t, v) for t in TYPES for v in board.towers[t])
        extra = used - _ALL_CARDS
        if extra:
            raise FormatError("more copies than the game has of "
                              + ", ".join(map(str, sorted(extra.elements()))))
        return cls(variant, board, display)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": POSITION_FORMAT,
            "variant": self.variant.value,
            "towers": {t.value: list(v) for t, v in self.board.towers.items() if v},
            "teardown": [str(c) for c in self.board.teardown],
            "display": [str(c) for c in self.display],
        }

    @classmethod
    def from_view(cls, view: PlayerView) -> Position:
        """The viewer's own position; a spectator has none."""
        if view.seat is None:
            raise ValueError("a spectator has no position of their own")
        return cls(view.variant, view.own_board(), list(view.display))

    @classmethod
    def from_game(cls, game: Game, seat: int) -> Position:
        """``seat``'s position in ``game`` now (their own teardown cards are theirs to see)."""
        return cls(game.variant, game.players[seat].board.clone(), list(game.display))
