"""The one interface GoTown's screens use to play at a table.

A screen reads ``view()`` and ``log()``, asks ``refusal(action)`` before it
marks a target, ``submit``s plays and ``subscribe``s to be told when to read
again; hints and the strong bot's advice are computed in the table's
workers, never on the event loop. :class:`GoTownClient` is one person at
one seat (an SSH session) or a watcher; :class:`LocalClient` is a terminal
shared by several human seats taking turns (hot-seat, ``fivetowers play``).
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from fivetowers.games.gotown.hint import Hint, hint
from fivetowers.games.gotown.rules import Action, Game, IllegalPlay, PlayerView
from fivetowers.games.gotown.rules.position import Position
from fivetowers.games.gotown.rules.view import view_of
from fivetowers.games.gotown.chronicle import Chronicle, Entry
from fivetowers.games.protocol import Bot
from fivetowers.tables.seats import BOT_NAMES, Seat, unique_name
from fivetowers.tables.table import Subscriber, Table
from fivetowers.user_text import clean_name

Hinter = Callable[[Position], Hint]
"""What computes a hint; blocking, run in the table's workers."""

PROBLEM_WIDTH = 66
"""A problem's longest text: with " (q quits) " it fits 80 columns."""


def compute_hint(position: Position) -> Hint:
    """The exact hint of :mod:`fivetowers.games.gotown.hint` (for a worker)."""
    return hint(position)


class GoTownClient:
    """One viewer at a GoTown table: a seat, or a spectator (``seat`` None)."""

    def __init__(self, table: Table[Game], seat: int | None, hinter: Hinter = compute_hint,
                 adviser: Bot | None = None) -> None:
        self.table = table
        self._seat = seat
        self._hinter = hinter
        self._adviser = adviser
        self._advice: dict[tuple[int, int], Action] = {}
        self._chronicle = Chronicle(table.game)

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
        return view_of(self.table.game, self.seat)

    def names(self) -> list[str]:
        return [s.name for s in self.table.seats]

    def log(self) -> tuple[str, list[Entry]]:
        """(why the player to move has this turn, or "", the log so far)."""
        self._chronicle.follow(self.table.game)
        return self._chronicle.reason, self._chronicle.entries

    def problem(self) -> str | None:
        """Why the table cannot go on (a bot failed, the store cannot save), or None."""
        error = self.table.bot_error
        if error is not None:
            text = " ".join(f"a bot failed: {type(error).__name__}: {error}".split())
            return text[:PROBLEM_WIDTH - 1] + "…" if len(text) > PROBLEM_WIDTH else text
        return "the server cannot save moves right now; retrying…" \
            if self.table.cannot_save else None

    def my_turn(self) -> bool:
        return self.seat is not None and self.table.game.to_move == self.seat

    def refusal(self, action: Action) -> str | None:
        """The engine's reason for refusing ``action`` now, or None if it is legal."""
        try:
            self.table.game.check(action)
        except IllegalPlay as exc:
            return str(exc)
        return None

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
        if self.seat is None or view.over or not view.my_turn:
            return None
        return Position(view.floors_to_win, self.seat, view.hand,
                        tuple(s.floors for s in view.seats), tuple(s.dogs for s in view.seats))

    async def hint(self) -> Hint | None:
        """The hint for this seat's turn, from the table's workers (None off its turn)."""
        position = self._position()
        if position is None:
            return None
        return await self.table.workers.hint(position, self._hinter)

    def known_hint(self) -> Hint | None:
        position = self._position()
        return None if position is None else \
            self.table.workers.known_hint(position, self._hinter)

    async def advice(self) -> Action | None:
        """What the strong bot would play in this seat's place now (its turn only)."""
        seat = self.seat
        if self._adviser is None or seat is None or not self.my_turn():
            return None
        key = (self.table.version, seat)
        if key not in self._advice:
            rng = random.Random(f"advice:{key}")
            action = await self.table.workers.choose(self._adviser, self.view(), rng,
                                                     late=self.table.late_bot,
                                                     quick=self.table.quick_bot, seat=seat)
            self._advice = {key: action}
        return self._advice[key]


class LocalClient(GoTownClient):
    """Several human seats at one terminal, taking turns (hot-seat): the
    acting seat is the human whose turn it is; while bots play, the last
    human to act keeps looking at the table (their hand stays theirs)."""

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


def new_local_game(players: int = 3, bots: int = 2, short: bool = False,
                   seed: int | None = None, names: Sequence[str] = (),
                   bot_kind: str = "strong", bot_delay: float = 0.8,
                   bots_by_seat: dict[int, Bot] | None = None,
                   hinter: Hinter = compute_hint, advice: bool = True) -> LocalClient:
    """A fresh GoTown table for ``fivetowers play``: the last ``bots`` seats are bots."""
    from fivetowers.games.gotown.kind import GAME  # it loads our screens lazily

    problem = GAME.players_problem(players)
    if problem is not None:
        raise ValueError(problem)
    if not 0 <= bots <= players:
        raise ValueError(f"--bots must be 0..{players}, not {bots}")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    humans = players - bots
    chosen = [clean_name(n) for n in names][:players]
    defaults = ["You"] if humans == 1 else [f"Player {i + 1}" for i in range(humans)]
    defaults += [f"{n} (bot)" for n in BOT_NAMES[:bots]]
    seat_names: list[str] = []
    for n in chosen + defaults[len(chosen):]:
        seat_names.append(unique_name(n, seat_names))
    seats = [Seat(n, bot=bot_kind if i >= humans else None, connected=i < humans)
             for i, n in enumerate(seat_names)]
    game = GAME.new_match(seat_names, {"floors": "4" if short else "5"}, seed)
    assert isinstance(game, Game)
    table = Table(game, seats, kind=GAME, bot_delay=bot_delay, bots=bots_by_seat)
    return LocalClient(table, list(range(humans)), hinter,
                       GAME.make_bot("strong") if advice else None)
