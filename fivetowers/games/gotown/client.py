"""The one interface GoTown's screens use to play at a table.

A screen reads ``view()`` and ``log()``, asks ``refusal(action)`` before it
marks a target, ``submit``s plays and ``subscribe``s to be told when to read
again; the exact hint and the strong bot's advice are computed in the
table's workers, never on the event loop (see
:class:`~fivetowers.tables.seat_client.SeatClient`). :class:`GoTownClient`
is one person at one seat (an SSH session) or a watcher; :class:`LocalClient`
is a terminal shared by several human seats taking turns (hot-seat,
``fivetowers play --game gotown``).
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from fivetowers.games.gotown.chronicle import Chronicle, Entry
from fivetowers.games.gotown.hint import Hint, hint
from fivetowers.games.gotown.rules import Action, Game, IllegalPlay, PlayerView
from fivetowers.games.gotown.rules.position import Position
from fivetowers.games.gotown.rules.view import view_of
from fivetowers.games.protocol import Bot
from fivetowers.tables.seat_client import SeatClient, local_seats
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import ActionHook, Table

Hinter = Callable[[Position], Hint]
"""What computes a hint; blocking, run in the table's workers."""
Keeper = Callable[[Game, list[Seat]], ActionHook]
"""Keeps a new local game in the store: its table's ``on_action`` hook."""


def compute_hint(position: Position) -> Hint:
    """The exact hint of :mod:`fivetowers.games.gotown.hint` (for a worker)."""
    return hint(position)


class GoTownClient(SeatClient[Game, Position, Hint]):
    """One viewer at a GoTown table: a seat, or a spectator (``seat`` None)."""

    def __init__(self, table: Table[Game], seat: int | None, hinter: Hinter = compute_hint,
                 adviser: Bot | None = None, humans: Sequence[int] | None = None) -> None:
        super().__init__(table, seat, hinter, adviser, humans)
        self._chronicle = Chronicle(table.game)

    def view(self) -> PlayerView:
        return self.once_a_move(view_of)

    def log(self) -> tuple[str, list[Entry]]:
        """(why the player to move has this turn, or "", the log so far)."""
        self._chronicle.follow(self.table.game)
        return self._chronicle.reason, self._chronicle.entries

    def refusal(self, action: Action) -> str | None:
        """The engine's reason for refusing ``action`` now, or None if it is legal."""
        try:
            self.table.game.check(action)
        except IllegalPlay as exc:
            return str(exc)
        return None

    def _position(self) -> Position | None:
        view = self.view()
        if self.seat is None or view.over or not view.my_turn:
            return None
        return Position(view.floors_to_win, self.seat, view.hand,
                        tuple(s.floors for s in view.seats), tuple(s.dogs for s in view.seats))


class LocalClient(GoTownClient):
    """Several human seats at one terminal, taking turns (hot-seat)."""

    kept = False
    """Whether the store keeps it, so that it can be resumed."""

    def __init__(self, table: Table[Game], human_seats: Sequence[int],
                 hinter: Hinter = compute_hint, adviser: Bot | None = None) -> None:
        super().__init__(table, human_seats[0] if human_seats else None, hinter, adviser,
                         human_seats)


def new_local_game(players: int = 3, bots: int = 2, short: bool = False,
                   seed: int | None = None, names: Sequence[str] = (),
                   bot_kind: str = "strong", bot_delay: float = 0.8,
                   bots_by_seat: dict[int, Bot] | None = None,
                   hinter: Hinter = compute_hint, advice: bool = True,
                   keep: Keeper | None = None) -> LocalClient:
    """A fresh GoTown table for ``fivetowers play``: the last ``bots`` seats are
    bots; ``keep`` keeps it in the store (see :mod:`fivetowers.tables.local`)."""
    from fivetowers.games.gotown.kind import GAME  # it loads our screens lazily

    problem = GAME.players_problem(players)
    if problem is not None:
        raise ValueError(problem)
    seats = local_seats(players, bots, names, bot_kind)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    game = GAME.new_match([s.name for s in seats], {"floors": "4" if short else "5"}, seed)
    assert isinstance(game, Game)
    return local_client(game, seats, bot_delay, keep(game, seats) if keep else None,
                        bots_by_seat, hinter, advice)


def local_client(game: Game, seats: list[Seat], bot_delay: float = 0.8,
                 on_action: ActionHook | None = None, bots_by_seat: dict[int, Bot] | None = None,
                 hinter: Hinter = compute_hint, advice: bool = True) -> LocalClient:
    """A local GoTown table for ``game`` (new, or resumed from the store), its
    human seats at this terminal; ``on_action`` keeps its moves."""
    from fivetowers.games.gotown.kind import GAME  # it loads our screens lazily

    table = Table(game, seats, kind=GAME, bot_delay=bot_delay, bots=bots_by_seat,
                  on_action=on_action)
    client = LocalClient(table, [i for i, s in enumerate(seats) if s.bot is None], hinter,
                         GAME.make_bot("strong") if advice else None)
    client.kept = on_action is not None
    return client
