"""Bots against bots: many seeded games, seats rotated, results with confidence.

The line-up is the named bots, one seat each, with the last one filling the
remaining seats (``strong,greedy`` at 4 players is one strong bot against
three greedy ones). Game ``g`` seats the line-up rotated by ``g``, so over a
multiple of the player count every entry sits in every seat equally often.
A bot wins a game when one of its seats is among the winners (a shared
victory counts for each winner).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from fivetowers.games.five_towers.rules import Game, IllegalAction, Variant
from fivetowers.games.five_towers.rules.cards import MAX_PLAYERS, MIN_PLAYERS, players_problem

from fivetowers.games.five_towers.bots import BOT_NAMES, make_bot

MAX_ACTIONS = 5000  # far above any real game; a bot that loops is a bug


class TournamentError(Exception):
    """A bot made an illegal move: the message names the game, seat and reason."""


@dataclass(frozen=True)
class Settings:
    bots: tuple[str, ...]
    players: int
    games: int
    variant: Variant = Variant.BASE
    seed: int = 0
    time_per_move: float = 1.0

    def __post_init__(self) -> None:
        if not self.bots:
            raise ValueError("--bots needs at least one bot name")
        for name in self.bots:
            if name not in BOT_NAMES:
                raise ValueError(f"unknown bot {name!r}: expected one of "
                                 f"{', '.join(BOT_NAMES)}")
        if players_problem(self.players) is not None:
            raise ValueError(f"--players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {self.players}")
        if len(self.bots) > self.players:
            raise ValueError(f"{len(self.bots)} bots do not fit at {self.players} seats")
        if self.games < 1:
            raise ValueError(f"--games must be at least 1, not {self.games}")
        if not self.time_per_move > 0:
            raise ValueError(f"--time-per-move must be positive, not {self.time_per_move}")

    def lineup(self, game: int) -> list[str]:
        """The bot at each seat in game number ``game``."""
        base = list(self.bots) + [self.bots[-1]] * (self.players - len(self.bots))
        shift = game % self.players
        return base[-shift:] + base[:-shift] if shift else base


@dataclass(frozen=True)
class GameResult:
    index: int
    lineup: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    move_seconds: dict[str, float]
    moves: dict[str, int]


def play_one(settings: Settings, index: int) -> GameResult:
    """Play game ``index`` of the tournament; deterministic for a fixed seed
    (the strong bot's time budget aside: how far it searches depends on speed)."""
    lineup = settings.lineup(index)
    seed = settings.seed * 1_000_003 + index
    game = Game([f"{name}-{s}" for s, name in enumerate(lineup)], settings.variant, seed=seed)
    bots = [make_bot(name, settings.time_per_move) for name in lineup]
    rngs = [random.Random(seed * 8 + s) for s in range(len(lineup))]
    spent = {name: 0.0 for name in lineup}
    moves = {name: 0 for name in lineup}
    for _ in range(MAX_ACTIONS):
        if game.is_terminal():
            break
        seat = game.to_move
        assert seat is not None
        start = time.perf_counter()
        action = bots[seat].choose(game.view(seat), rngs[seat])
        spent[lineup[seat]] += time.perf_counter() - start
        moves[lineup[seat]] += 1
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise TournamentError(f"game {index}: the {lineup[seat]} bot at seat {seat} "
                                  f"made an illegal move: {exc}") from None
    else:
        raise TournamentError(f"game {index} did not end in {MAX_ACTIONS} actions")
    outcome = game.outcome()
    return GameResult(index, tuple(lineup), tuple(s.total for s in outcome.scores),
                      outcome.winners, spent, moves)


def _play(job: tuple[Settings, int]) -> GameResult:
    return play_one(*job)


def play_all(settings: Settings, workers: int = 2) -> Iterator[GameResult]:
    """Every game's result as it finishes (in any order with several workers)."""
    jobs = [(settings, i) for i in range(settings.games)]
    if workers <= 1:
        for job in jobs:
            yield _play(job)
        return
    import multiprocessing

    # Workers ignore Ctrl-C: the parent stops them, with one message, not one each.
    with multiprocessing.Pool(workers, initializer=_ignore_interrupts) as pool:
        yield from pool.imap_unordered(_play, jobs)


def _ignore_interrupts() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class Tally:
    """One bot's results over the tournament."""

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


@dataclass
class Summary:
    settings: Settings
    tallies: dict[str, Tally] = field(default_factory=dict)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        for name in self.settings.bots:  # results in the order the bots were named
            self.tallies.setdefault(name, Tally())

    def add(self, result: GameResult) -> None:
        for name in dict.fromkeys(result.lineup):
            tally = self.tallies.setdefault(name, Tally())
            tally.games += 1
            seats = [s for s, n in enumerate(result.lineup) if n == name]
            tally.seats += len(seats)
            tally.score_sum += sum(result.scores[s] for s in seats)
            tally.wins += any(s in result.winners for s in seats)
            tally.move_seconds += result.move_seconds[name]
            tally.moves += result.moves[name]

    def to_json(self) -> dict[str, object]:
        s = self.settings
        return {
            "games": s.games, "players": s.players, "variant": s.variant.value,
            "results": {name: {"wins": t.wins, "win_rate": t.win_rate(),
                               "mean_score": t.mean_score(), "mean_move_ms": t.mean_move_ms()}
                        for name, t in self.tallies.items()},
        }

    def to_text(self) -> str:
        s = self.settings
        budget = f"{s.time_per_move:g} s per strong move, " if "strong" in s.bots else ""
        lines = [f"{s.games} games, {s.players} players, {s.variant.value}, seed {s.seed}, "
                 f"{budget}{self.seconds:.1f} s wall time",
                 f"{'bot':<8} {'seats':>5} {'wins':>6} {'win rate':>9} {'95% CI':>15} "
                 f"{'mean score':>11} {'ms/move':>8}"]
        for name, t in self.tallies.items():
            lo, hi = t.interval()
            per_game = t.seats / t.games if t.games else 0
            lines.append(f"{name:<8} {per_game:>5g} {t.wins:>6} {t.win_rate():>9.1%} "
                         f"{f'{lo:.1%}–{hi:.1%}':>15} {t.mean_score():>11.1f} "
                         f"{t.mean_move_ms():>8.1f}")
        return "\n".join(lines)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (sound near 0% and 100% too)."""
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


def parse_bots(text: str) -> tuple[str, ...]:
    return tuple(name.strip() for name in text.split(",") if name.strip())

