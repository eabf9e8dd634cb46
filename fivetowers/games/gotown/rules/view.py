"""What one player (or a spectator) may see of a game (RULES.md C5).

Hands are secret: a viewer sees their own hand and every other hand's size.
Towers, dogs, milkshakes and the discard pile are public; of the draw pile,
only its size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fivetowers.games.gotown.rules.actions import Action
from fivetowers.games.gotown.rules.cards import Card, Floor

if TYPE_CHECKING:
    from fivetowers.games.gotown.rules.game import Game


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as everybody sees it."""

    name: str
    floors: tuple[Floor, ...]
    dogs: frozenset[int]
    hand_size: int
    milkshakes: int


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A game seen from ``seat`` (None: a spectator, who sees no hand).

    ``legal`` lists the viewer's legal plays when it is their turn (thieves
    without ``took``: the game draws it), so a bot or a screen needs nothing
    else."""

    seat: int | None
    floors_to_win: int
    seats: tuple[SeatView, ...]
    hand: tuple[Card, ...]
    draw_count: int
    discard: tuple[Card, ...]
    truck_on_table: bool
    turn: int
    turn_limit: int
    to_move: int | None
    over: bool
    winners: tuple[int, ...]
    legal: tuple[Action, ...]

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_move


def view_of(game: Game, seat: int | None, with_legal: bool = True) -> PlayerView:
    """``seat``'s view; ``with_legal`` False leaves ``legal`` empty (cheaper,
    for a search that judges plays itself)."""
    seats = tuple(SeatView(p.name, tuple(p.floors), frozenset(p.dogs), p.hand_size,
                           p.milkshakes) for p in game.players)
    hand = tuple(game.players[seat].hand_cards()) if seat is not None else ()
    legal = tuple(game.legal_actions()) if with_legal and seat is not None \
        and seat == game.to_move else ()
    return PlayerView(seat, game.floors_to_win, seats, hand, len(game.draw),
                      tuple(game.discard), game.truck_on_table, game.turn, game.turn_limit,
                      game.to_move, game.over, game.winners, legal)
