"""GoTown bots against bots (``fivetowers tournament --game gotown``).

As for 5 Towers: the line-up is the named bots, one seat each, the last one
filling the remaining seats; game ``g`` seats it rotated by ``g``, so over a
multiple of the player count every entry sits in every seat equally often.
A bot wins a game when one of its seats is among the winners (a shared win
at the turn limit counts for each). Win rates come with 95% Wilson intervals.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from fivetowers.games.gotown.bots import BOT_NAMES, make_bot
from fivetowers.games.gotown.rules import Game, IllegalPlay
from fivetowers.games.gotown.rules.game import MAX_PLAYERS, MIN_PLAYERS

MAX_ACTIONS = 20_000  # the turn limit ends every game long before; a looping bot is a bug


class TournamentError(Exception):
    """A bot made an illegal play: the message names the game, seat and reason."""


@dataclass(frozen=True)
class Settings:
    bots: tuple[str, ...]
    players: int
    games: int
    floors: int = 5
    seed: int = 0
    time_per_move: float = 0.05

    def __post_init__(self) -> None:
        if not self.bots:
            raise ValueError("--bots needs at least one bot name")
        for name in self.bots:
            if name not in BOT_NAMES:
                raise ValueError(f"unknown GoTown bot {name!r}: expected one of "
                                 f"{', '.join(BOT_NAMES)}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"--players must be {MIN_PLAYERS}..{MAX_PLAYERS} for GoTown, "
                             f"not {self.players}")
        if len(self.bots) > self.players:
            raise ValueError(f"{len(self.bots)} bots do not fit at {self.players} seats")
        if self.games < 1:
            raise ValueError(f"--games must be at least 1, not {self.games}")
        if not self.time_per_move > 0:
            raise ValueError(f"--time-per-move must be positive, not {self.time_per_move}")
        if self.floors not in (4, 5):
            raise ValueError(f"--floors must be 4 or 5, not {self.floors}")

    def lineup(self, game: int) -> list[str]:
        base = list(self.bots) + [self.bots[-1]] * (self.players - len(self.bots))
        shift = game % self.players
        return base[-shift:] + base[:-shift] if shift else base


@dataclass(frozen=True)
class GameResult:
    lineup: tuple[str, ...]
    floors: tuple[int, ...]
    winners: tuple[int, ...]
    by_limit: bool
    move_seconds: dict[str, float]
    moves: dict[str, int]


def play_one(settings: Settings, index: int) -> GameResult:
    """Game ``index`` of the tournament: deterministic for a fixed seed."""
    lineup = settings.lineup(index)
    seed = settings.seed * 1_000_003 + index
    game = Game([f"{name}-{s}" for s, name in enumerate(lineup)], settings.floors, seed=seed)
    bots = [make_bot(name, settings.time_per_move) for name in lineup]
    rngs = [random.Random(seed * 8 + s) for s in range(len(lineup))]
    spent = {name: 0.0 for name in lineup}
    moves = {name: 0 for name in lineup}
    for _ in range(MAX_ACTIONS):
        if game.over:
            break
        seat = game.to_move
        assert seat is not None
        start = time.perf_counter()
        action = bots[seat].choose(game.view(seat), rngs[seat])
        spent[lineup[seat]] += time.perf_counter() - start
        moves[lineup[seat]] += 1
        try:
            game.apply(action)
        except IllegalPlay as exc:
            raise TournamentError(f"game {index}: the {lineup[seat]} bot at seat {seat} "
                                  f"made an illegal play: {exc}") from None
    else:
        raise TournamentError(f"game {index} did not end in {MAX_ACTIONS} plays")
    return GameResult(tuple(lineup), tuple(len(p.floors) for p in game.players),
                      game.winners, game.turns_ended >= game.turn_limit, spent, moves)


def _play(job: tuple[Settings, int]) -> GameResult:
    return play_one(*job)


def play_all(settings: Settings, workers: int = 2) -> Iterator[GameResult]:
    jobs = [(settings, i) for i in range(settings.games)]
    if workers <= 1:
        yield from map(_play, jobs)
        return
    import multiprocessing

    with multiprocessing.Pool(workers, initializer=_ignore_interrupts) as pool:
        yield from pool.imap_unordered(_play, jobs)


def _ignore_interrupts() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class Tally:
    wins: int = 0
    games: int = 0
    seats: int = 0
    floor_sum: int = 0
    move_seconds: float = 0.0
    moves: int = 0

    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def mean_floors(self) -> float:
        return self.floor_sum / self.seats if self.seats else 0.0

    def mean_move_ms(self) -> float:
        return 1000 * self.move_seconds / self.moves if self.moves else 0.0


@dataclass
class Summary:
    settings: Settings
    tallies: dict[str, Tally] = field(default_factory=dict)
    by_limit: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        for name in self.settings.bots:
            self.tallies.setdefault(name, Tally())

    def add(self, result: GameResult) -> None:
        self.by_limit += result.by_limit
        for name in dict.fromkeys(result.lineup):
            tally = self.tallies[name]
            seats = [s for s, n in enumerate(result.lineup) if n == name]
            tally.games += 1
            tally.seats += len(seats)
            tally.floor_sum += sum(result.floors[s] for s in seats)
            tally.wins += any(s in result.winners for s in seats)
            tally.move_seconds += result.move_seconds[name]
            tally.moves += result.moves[name]

    def to_json(self) -> dict[str, object]:
        s = self.settings
        return {"game": "gotown", "games": s.games, "players": s.players, "floors": s.floors,
                "ended_by_turn_limit": self.by_limit,
                "results": {name: {"wins": t.wins, "win_rate": t.win_rate(),
                                   "interval95": list(wilson(t.wins, t.games)),
                                   "mean_floors": t.mean_floors(),
                                   "mean_move_ms": t.mean_move_ms()}
                            for name, t in self.tallies.items()}}

    def to_text(self) -> str:
        s = self.settings
        budget = f"{s.time_per_move:g} s per strong move, " if "strong" in s.bots else ""
        lines = [f"GoTown: {s.games} games, {s.players} players, {s.floors} floors, seed "
                 f"{s.seed}, {budget}{self.by_limit} ended by the turn limit, "
                 f"{self.seconds:.1f} s wall time",
                 f"{'bot':<8} {'seats':>5} {'wins':>6} {'win rate':>9} {'95% CI':>15} "
                 f"{'floors':>7} {'ms/move':>8}"]
        for name, t in self.tallies.items():
            lo, hi = wilson(t.wins, t.games)
            per_game = t.seats / t.games if t.games else 0
            lines.append(f"{name:<8} {per_game:>5g} {t.wins:>6} {t.win_rate():>9.1%} "
                         f"{f'{lo:.1%}–{hi:.1%}':>15} {t.mean_floors():>7.2f} "
                         f"{t.mean_move_ms():>8.2f}")
        return "\n".join(lines)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def run(settings: Settings, workers: int = 2,
        progress: Callable[[GameResult], None] | None = None) -> Summary:
    summary = Summary(settings)
    start = time.perf_counter()
    for result in play_all(settings, workers):
        summary.add(result)
        if progress is not None:
            progress(result)
    summary.seconds = time.perf_counter() - start
    return summary
