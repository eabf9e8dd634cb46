"""The one interface a screen uses to play at a table.

A screen never touches the engine's state: it reads ``view()``, asks for a
``build_session()`` to be guided through a build, ``submit``s actions and
``subscribe``s to be told when to read again. :class:`TableClient` is one
person at one seat (an SSH session) or a watcher; :class:`LocalClient` is a terminal
shared by several human seats taking turns (hot-seat, ``fivetowers play``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence

from fivetowers.games.five_towers.rules import (
    Action, BuildSession, Game, Phase, PlayerView, Position, Variant,
)
from fivetowers.games.five_towers.rules.players import players_problem
from fivetowers.games.five_towers.solver.plans import Hint
from fivetowers.games.protocol import Bot
from fivetowers.tables.seats import BOT_NAMES, Seat, unique_name
from fivetowers.user_text import clean_name
from fivetowers.tables.table import ActionHook, Subscriber, Table

Hinter = Callable[[Position], Hint]
"""What computes a hint; blocking, run in the table's workers."""
Keeper = Callable[[Game, list[Seat]], ActionHook]
"""Keeps a new local game in the store: its table's ``on_action`` hook."""


def compute_hint(position: Position) -> Hint:
    """The solver's hint (``max_bid``, ``plans[b]``); blocking, for a worker."""
    from fivetowers.games.five_towers.solver import hint  # lazily: it loads OR-Tools

    return hint(position)

PROBLEM_WIDTH = 66
"""A problem's longest text: with the screen's " (q quits) " it fits 80 columns."""

@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What a screen needs to know about a seat besides the view."""

    name: str
    bot: str | None
    connected: bool
    is_you: bool
    stand_in: bool = False
    """A bot plays this seat now, for its player who is away."""
    stand_in_at: float | None = None
    """When (the event loop's clock) a stand-in will start, while one is due."""

    @property
    def away(self) -> bool:
        """A human seat whose player is not here."""
        return not self.connected


class TableClient:
    """One viewer at a table: a seat, or a spectator (``seat`` None)."""

    kept = False
    """(A local game) whether the store keeps it, so that it can be resumed."""

    def __init__(self, table: Table[Game], seat: int | None, hinter: Hinter = compute_hint,
                 adviser: Bot | None = None) -> None:
        self.table = table
        self._seat = seat
        self._hinter = hinter
        self._adviser = adviser
        self._advice: dict[tuple[int, int], Action] = {}

    @property
    def seat(self) -> int | None:
        return self._seat

    @property
    def human_seats(self) -> tuple[int, ...]:
        return () if self._seat is None else (self._seat,)

    @property
    def version(self) -> int:
        return self.table.version

    def view(self) -> PlayerView:
        return self.table.game.view(self.seat)

    def seats(self) -> list[SeatInfo]:
        mine = set(self.human_seats)
        return [SeatInfo(s.name, s.bot, s.connected or s.bot is not None, i in mine,
                         self.table.standing_in(i), s.stand_in_at)
                for i, s in enumerate(self.table.seats)]

    def stand_in_moves(self) -> dict[int, int]:
        """Action number -> seat, for the moves stand-in bots made here."""
        return self.table.stand_in_moves

    def problem(self) -> str | None:
        """Why the table cannot go on (a bot failed, the store cannot save), in
        words that fit an 80-column screen's top line, or None."""
        error = self.table.bot_error
        if error is not None:
            text = " ".join(f"a bot failed: {type(error).__name__}: {error}".split())
            return text if len(text) <= PROBLEM_WIDTH else text[:PROBLEM_WIDTH - 1] + "…"
        if self.table.cannot_save:
            return "the server cannot save moves right now; retrying…"
        return None

    def my_turn(self) -> bool:
        return self.seat is not None and self.table.game.to_move == self.seat

    def build_session(self) -> BuildSession | None:
        """A guide through this seat's build (None unless it is this seat's build)."""
        game = self.table.game
        if game.phase is not Phase.BUILD or not self.my_turn():
            return None
        return game.build_session()

    async def submit(self, action: Action) -> None:
        if self.seat is None:
            raise ValueError("spectators cannot act")
        await self.table.submit(self.seat, action)

    def start(self) -> None:
        """Let the bots move if it is their turn (safe to call from every screen)."""
        self.table.start()

    def subscribe(self, callback: Subscriber) -> None:
        self.table.subscribe(callback)

    def unsubscribe(self, callback: Subscriber) -> None:
        self.table.unsubscribe(callback)

    def _position(self) -> Position | None:
        view = self.view()
        if self.seat is None or view.phase is Phase.OVER or not view.display:
            return None
        return Position.from_view(view)

    async def hint(self) -> Hint | None:
        """The solver's hint for this seat now, from the table's workers (None
        for spectators and when there is no display). Computed once per
        position for every viewer who needs it (see Workers.hint)."""
        position = self._position()
        if position is None:
            return None
        return await self.table.workers.hint(position, self._hinter)

    def known_hint(self) -> Hint | None:
        """This seat's hint now if it is already known, without waiting for one."""
        position = self._position()
        return None if position is None else \
            self.table.workers.known_hint(position, self._hinter)

    async def advice(self) -> Action | None:
        """What the adviser bot (the strong bot) would do in this seat's place now;
        only on this seat's turn, in the table's workers, once per table version."""
        seat = self.seat
        if self._adviser is None or seat is None or not self.my_turn():
            return None
        key = (self.table.version, seat)
        if key not in self._advice:
            view = self.view()
            rng = random.Random(f"advice:{key}")
            action = await self.table.workers.choose(self._adviser, view, rng,
                                                     late=self.table.late_bot,
                                                     quick=self.table.quick_bot, seat=seat)
            self._advice = {key: action}
        return self._advice[key]


class LocalClient(TableClient):
    """Several human seats at one terminal, taking turns (hot-seat).

    The acting seat is the human whose turn it is; while bots move, the last
    human to act keeps looking at the table (their own teardown cards stay
    theirs)."""

    def __init__(self, table: Table[Game], human_seats: Sequence[int],
                 hinter: Hinter = compute_hint, adviser: Bot | None = None) -> None:
        super().__init__(table, human_seats[0] if human_seats else None, hinter, adviser)
        self._humans = tuple(human_seats)

    @property
    def human_seats(self) -> tuple[int, ...]:
        return self._humans

    @property
    def seat(self) -> int | None:
        to_move = self.table.game.to_move
        if to_move in self._humans:
            self._seat = to_move
        return self._seat

    @property
    def hot_seat(self) -> bool:
        return len(self._humans) > 1


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
    if not 0 <= bots <= players:
        raise ValueError(f"--bots must be 0..{players}, not {bots}")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    humans = players - bots
    chosen = [clean_name(n) for n in names][:players]
    defaults = (["You"] if humans == 1 else [f"Player {i + 1}" for i in range(humans)])
    defaults += [f"{n} (bot)" for n in BOT_NAMES[:bots]]
    seat_names: list[str] = []
    for n in chosen + defaults[len(chosen):]:
        seat_names.append(unique_name(n, seat_names))
    seats = [Seat(n, bot=bot_kind if i >= humans else None, connected=i < humans)
             for i, n in enumerate(seat_names)]
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
