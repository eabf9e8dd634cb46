"""What one player (or a spectator) may see of a game (RULES.md A5).

Every card is public except the teardown piles (face down: each owner sees
their own, others see a count) and the draw deck (only its size).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from fivetowers.games.five_towers.rules.board import Board
from fivetowers.games.five_towers.rules.cards import TYPES, Card, TowerType, full_deck
from fivetowers.games.five_towers.rules.scoring import Score
from fivetowers.games.five_towers.rules.variant import Variant

if TYPE_CHECKING:
    from fivetowers.games.five_towers.rules.game import BidEvent, Game, LogEntry, Phase


@dataclass(frozen=True)
class SeatView:
    """One seat as everybody sees it."""

    name: str
    towers: dict[TowerType, tuple[int, ...]]
    teardown_count: int
    score: Score


@dataclass(frozen=True)
class PlayerView:
    """A game as seen from ``seat`` (None: a spectator, who sees no teardown cards)."""

    seat: int | None
    variant: Variant
    seats: tuple[SeatView, ...]
    own_teardown: tuple[Card, ...]
    display: tuple[Card, ...]
    discard: tuple[Card, ...]
    draw_count: int
    round: int
    runouts: int
    pass_number: int
    phase: Phase
    to_move: int | None
    starter: int
    bids: tuple[BidEvent, ...]
    high_bid: int | None
    high_seat: int | None
    max_bids: tuple[int, ...]
    legal_bids: tuple[int, ...]
    may_pass: bool
    log: tuple[LogEntry, ...]
    winners: tuple[int, ...]

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_move

    def own_board(self) -> Board:
        """The viewer's board: public towers plus their own (face-down) teardown
        pile. A spectator has none (ValueError)."""
        if self.seat is None:
            raise ValueError("a spectator has no board")
        seat = self.seats[self.seat]
        return Board({t: list(seat.towers[t]) for t in TYPES}, list(self.own_teardown))

    def unseen(self) -> Counter[Card]:
        """Cards this viewer cannot see: the draw deck and others' teardown piles."""
        seen: Counter[Card] = Counter(self.display) + Counter(self.discard)
        seen += Counter(self.own_teardown)
        for s in self.seats:
            for t in TYPES:
                seen.update(Card(t, v) for v in s.towers[t])
        return Counter(full_deck(len(self.seats))) - seen


def view_of(game: Game, seat: int | None) -> PlayerView:
    from fivetowers.games.five_towers.rules.game import Phase

    seats = tuple(
        SeatView(p.name, {t: tuple(p.board.towers[t]) for t in TYPES},
                 len(p.board.teardown), game.score(i))
        for i, p in enumerate(game.players))
    in_bidding = game.phase is Phase.BID
    return PlayerView(
        seat=seat,
        variant=game.variant,
        seats=seats,
        own_teardown=tuple(game.players[seat].board.teardown) if seat is not None else (),
        display=tuple(game.display),
        discard=tuple(game.discard),
        draw_count=len(game.draw),
        round=game.round,
        runouts=game.runouts,
        pass_number=game.pass_number,
        phase=game.phase,
        to_move=game.to_move,
        starter=game.starter,
        bids=tuple(game.bids),
        high_bid=game.high_bid,
        high_seat=game.high_seat,
        max_bids=tuple(game.max_bid(s) for s in range(game.player_count))
        if in_bidding else tuple(0 for _ in game.players),
        legal_bids=tuple(game.legal_bids()) if seat is not None and seat == game.to_move
        else (),
        may_pass=game.may_pass() and seat is not None and seat == game.to_move,
        log=tuple(game.log),
        winners=game.outcome().winners,
    )


def seat_view_of(watched: PlayerView, game: Game, seat: int | None) -> PlayerView:
    """``view_of(game, seat)`` from ``watched``, ``view_of(game, None)`` of the
    same position: what a seat sees more than a watcher (its teardown pile,
    its bids and pass on its turn), the rest shared. Every viewer of a
    hosted table made the whole view (every seat's score, the bids every
    seat may make) on every move, the same but for these."""
    if seat is None:
        return watched
    mine = seat == game.to_move
    return replace(watched, seat=seat,
                   own_teardown=tuple(game.players[seat].board.teardown),
                   legal_bids=tuple(game.legal_bids()) if mine else (),
                   may_pass=game.may_pass() and mine)
