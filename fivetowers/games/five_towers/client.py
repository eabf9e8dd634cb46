"""The one interface a screen uses to play at a table.

A screen never touches the engine's state: it reads ``view()``, asks for a
``build_session()`` to be guided through a build, ``submit``s actions and
``subscribe``s to be told when to read again. :class:`TableClient` is one
person at one seat (an SSH session) or a watcher; :class:`LocalClient` is a terminal
shared by several human seats taking turns (hot-seat, ``fivetowers play``).
"""

from __future__ import annotations

import random
from typing import Callable, Sequence
from weakref import WeakKeyDictionary

from fivetowers.games.five_towers.rules import (
    BuildSession, Game, Phase, PlayerView, Position, Variant,
)
from fivetowers.games.five_towers.rules.players import players_problem
from fivetowers.games.five_towers.rules.view import seat_view_of
from fivetowers.games.five_towers.solver.plans import Hint
from fivetowers.games.protocol import Bot
from fivetowers.tables.seat_client import SeatClient, local_seats
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import ActionHook, Table

Hinter = Callable[[Position], Hint]
"""What computes a hint; blocking, run in the table's workers."""
Keeper = Callable[[Game, list[Seat]], ActionHook]
"""Keeps a new local game in the store: its table's ``on_action`` hook."""


def compute_hint(position: Position) -> Hint:
    """The solver's hint (``max_bid``, ``plans[b]``); blocking, for a worker."""
    from fivetowers.games.five_towers.solver import hint  # lazily: it loads OR-Tools

    return hint(position)


_watched: WeakKeyDictionary[Table[Game], tuple[Game, tuple[int, int], PlayerView]] = \
    WeakKeyDictionary()
"""Each live table's position as a watcher sees it, as last made."""


def watched_view(table: Table[Game]) -> PlayerView:
    """``table``'s game as a watcher sees it now, made once per move."""
    game = table.game
    moved = (table.version, game.action_count())
    watched = _watched.get(table)
    if watched is None or watched[0] is not game or watched[1] != moved:
        watched = _watched[table] = (game, moved, game.view(None))
    return watched[2]


class TableClient(SeatClient[Game, Position, Hint]):
    """One viewer at a table: a seat, or a spectator (``seat`` None)."""

    kept = False
    """(A local game) whether the store keeps it, so that it can be resumed."""

    def __init__(self, table: Table[Game], seat: int | None, hinter: Hinter = compute_hint,
                 adviser: Bot | None = None, humans: Sequence[int] | None = None) -> None:
        super().__init__(table, seat, hinter, adviser, humans)

    def view(self) -> PlayerView:
        # What every viewer sees alike is made once per move for the whole table.
        return self.once_a_move(
            lambda game, seat: seat_view_of(watched_view(self.table), game, seat))

    def build_session(self) -> BuildSession | None:
        """A guide through this seat's build (None unless it is this seat's build)."""
        game = self.table.game
        if game.phase is not Phase.BUILD or not self.my_turn():
            return None
        return game.build_session()

    def _position(self) -> Position | None:
        view = self.view()
        if self.seat is None or view.phase is Phase.OVER or not view.display:
            return None
        return Position.from_view(view)


class LocalClient(TableClient):
    """Several human seats at one terminal, taking turns (hot-seat; see
    :class:`~fivetowers.tables.seat_client.SeatClient`)."""

    def __init__(self, table: Table[Game], human_seats: Sequence[int],
                 hinter: Hinter = compute_hint, adviser: Bot | None = None) -> None:
        super().__init__(table, human_seats[0] if human_seats else None, hinter, adviser,
                         human_seats)

    @property
    def hot_seat(self) -> bool:
        return len(self.human_seats) > 1


def new_local_game(players: int = 3, bots: int = 2, variant: Variant = Variant.BASE,
                   seed: int | None = None, names: Sequence[str] = (),
                   bot_kind: str = "strong", bot_delay: float = 0.8,
                   bots_by_seat: dict[int, Bot] | None = None,
                   hinter: Hinter = compute_hint, advice: bool = True,
                   keep: Keeper | None = None) -> LocalClient:
    """A fresh table for ``fivetowers play``: the last ``bots`` seats are bots;
    ``keep`` keeps it in the store (see :mod:`fivetowers.tables.local`)."""
    problem = players_problem(players)
    if problem is not None:
        raise ValueError(problem)
    seats = local_seats(players, bots, names, bot_kind)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    game = Game([s.name for s in seats], variant, seed=seed)
    return local_client(game, seats, bot_delay, keep(game, seats) if keep else None,
                        bots_by_seat, hinter, advice)


def local_client(game: Game, seats: list[Seat], bot_delay: float = 0.8,
                 on_action: ActionHook | None = None, bots_by_seat: dict[int, Bot] | None = None,
                 hinter: Hinter = compute_hint, advice: bool = True) -> LocalClient:
    """A local table for ``game`` (new, or resumed from the store), its human
    seats at this terminal; ``on_action`` keeps its moves."""
    table = Table(game, seats, bot_delay=bot_delay, bots=bots_by_seat, on_action=on_action)
    from fivetowers.games.five_towers.kind import GAME  # it loads our screens lazily

    adviser = GAME.make_bot("strong") if advice else None
    client = LocalClient(table, [i for i, s in enumerate(seats) if s.bot is None],
                         hinter, adviser)
    client.kept = on_action is not None
    return client
