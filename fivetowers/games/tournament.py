"""What every game's bot tournament (``fivetowers tournament``) does alike.

The line-up is the named bots, one seat each, the last one filling the
remaining seats; game ``g`` seats it rotated by ``g``, so over a multiple of
the player count every entry sits in every seat equally often. Each game is
played out bot against bot from its own seed, the games spread over worker
processes, and each bot's results tallied with a 95% Wilson interval on its
win rate. A game's tournament module says how to deal its game, what its
settings check and how its summary reads (5 Towers: ``bots/tournament.py``,
GoTown: ``tournament.py``). Standard library only, like the games' bots.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Iterable, Iterator, Protocol, Sequence, TypeVar


class TournamentError(Exception):
    """A bot made an illegal move: the message names the game, seat and reason."""


def check_entries(bots: Sequence[str], known: Sequence[str], unknown: str,
                  players: int, players_problem: str | None, games: int,
                  time_per_move: float) -> None:
    """ValueError for settings no tournament can play: ``unknown`` starts the
    message for a bot not in ``known``, ``players_problem`` is the game's own
    message for a player count it cannot seat (None: it can)."""
    if not bots:
        raise ValueError("--bots needs at least one bot name")
    for name in bots:
        if name not in known:
            raise ValueError(f"{unknown} {name!r}: expected one of {', '.join(known)}")
    if players_problem is not None:
        raise ValueError(players_problem)
    if len(bots) > players:
        raise ValueError(f"{len(bots)} bots do not fit at {players} seats")
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    if not time_per_move > 0:
        raise ValueError(f"--time-per-move must be positive, not {time_per_move}")


def lineup(bots: Sequence[str], players: int, game: int) -> list[str]:
    """The bot at each seat in game number ``game``."""
    base = list(bots) + [bots[-1]] * (players - len(bots))
    shift = game % players
    return base[-shift:] + base[:-shift] if shift else base


class Playing(Protocol):
    """What playing a game out asks of it (either game's ``Game``)."""

    @property
    def to_move(self) -> int | None: ...

    def view(self, seat: int) -> Any: ...

    def apply(self, action: Any) -> None: ...


class Chooser(Protocol):
    def choose(self, view: Any, rng: random.Random) -> Any: ...


@dataclass(frozen=True)
class Timing:
    """How long each bot of a game's line-up thought, over how many moves."""

    move_seconds: dict[str, float]
    moves: dict[str, int]


def play_out(game: Playing, over: Callable[[], bool], lineup: Sequence[str],
             bots: Sequence[Chooser], seed: int, index: int, *, refused: type[Exception],
             max_actions: int, move: str = "move", actions: str = "actions") -> Timing:
    """Let ``bots`` (one a seat) play game ``index`` until ``over()``; a
    :class:`TournamentError` for a move the game refuses (``refused``) or a
    game still going after ``max_actions`` (a bot that loops is a bug)."""
    rngs = [random.Random(seed * 8 + s) for s in range(len(lineup))]
    spent = {name: 0.0 for name in lineup}
    moves = {name: 0 for name in lineup}
    for _ in range(max_actions):
        if over():
            break
        seat = game.to_move
        assert seat is not None
        start = time.perf_counter()
        action = bots[seat].choose(game.view(seat), rngs[seat])
        spent[lineup[seat]] += time.perf_counter() - start
        moves[lineup[seat]] += 1
        try:
            game.apply(action)
        except refused as exc:
            raise TournamentError(f"game {index}: the {lineup[seat]} bot at seat {seat} "
                                  f"made an illegal {move}: {exc}") from None
    else:
        raise TournamentError(f"game {index} did not end in {max_actions} {actions}")
    return Timing(spent, moves)


J = TypeVar("J")
R = TypeVar("R")


def play_all(play: Callable[[J], R], jobs: Sequence[J], workers: int) -> Iterator[R]:
    """Every job's result as it finishes (in any order with several workers);
    ``play`` is a module's function, so that worker processes can run it."""
    if workers <= 1:
        for job in jobs:
            yield play(job)
        return
    import multiprocessing

    # Workers ignore Ctrl-C: the parent stops them, with one message, not one each.
    with multiprocessing.Pool(workers, initializer=_ignore_interrupts) as pool:
        yield from pool.imap_unordered(play, jobs)


def _ignore_interrupts() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (sound near 0% and 100% too)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    """One bot's results over the tournament (its score: the game's, e.g.
    5 Towers' points or GoTown's floors)."""

    wins: int = 0
    seats: int = 0
    score_sum: int = 0
    move_seconds: float = 0.0
    moves: int = 0
    games: int = 0

    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def mean_score(self) -> float:
        return self.score_sum / self.seats if self.seats else 0.0

    def mean_move_ms(self) -> float:
        return 1000 * self.move_seconds / self.moves if self.moves else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


class Entries(Protocol):
    """What the shared summary reads of a game's settings."""

    @property
    def bots(self) -> tuple[str, ...]: ...

    @property
    def games(self) -> int: ...


S = TypeVar("S", bound=Entries)


@dataclass
class Standings(Generic[S]):
    """Every bot's tally so far (a game's ``Summary`` adds how it reads)."""

    settings: S
    tallies: dict[str, Tally] = field(default_factory=dict)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        for name in self.settings.bots:  # results in the order the bots were named
            self.tallies.setdefault(name, Tally())

    def table(self, score: str, width: int, digits: int) -> list[str]:
        """The standings as text: a header, then a line a bot; the score
        column headed ``score``, ``width`` wide, with ``digits`` decimals (as
        the move times)."""
        lines = [f"{'bot':<8} {'seats':>5} {'wins':>6} {'win rate':>9} {'95% CI':>15} "
                 f"{score:>{width}} {'ms/move':>8}"]
        for name, t in self.tallies.items():
            lo, hi = t.interval()
            per_game = t.seats / t.games if t.games else 0
            lines.append(f"{name:<8} {per_game:>5g} {t.wins:>6} {t.win_rate():>9.1%} "
                         f"{f'{lo:.1%}–{hi:.1%}':>15} {t.mean_score():>{width}.{digits}f} "
                         f"{t.mean_move_ms():>8.{digits}f}")
        return lines

    def count(self, lineup: Sequence[str], scores: Sequence[int], winners: Sequence[int],
              move_seconds: dict[str, float], moves: dict[str, int]) -> None:
        """One game's result into its bots' tallies (a shared win counts for each)."""
        for name in dict.fromkeys(lineup):
            tally = self.tallies.setdefault(name, Tally())
            tally.games += 1
            seats = [s for s, n in enumerate(lineup) if n == name]
            tally.seats += len(seats)
            tally.score_sum += sum(scores[s] for s in seats)
            tally.wins += any(s in winners for s in seats)
            tally.move_seconds += move_seconds[name]
            tally.moves += moves[name]


def timed_run(results: Iterable[R], add: Callable[[R], None],
              progress: Callable[[R], None] | None) -> float:
    """Take every result in as it comes (``add``, then ``progress``); the
    wall time it took, in seconds."""
    start = time.perf_counter()
    for result in results:
        add(result)
        if progress is not None:
            progress(result)
    return time.perf_counter() - start
