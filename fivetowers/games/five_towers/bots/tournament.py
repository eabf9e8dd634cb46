"""Bots against bots: many seeded games, seats rotated, results with confidence.

The line-up is the named bots, one seat each, with the last one filling the
remaining seats (``strong,greedy`` at 4 players is one strong bot against
three greedy ones). Game ``g`` seats the line-up rotated by ``g``, so over a
multiple of the player count every entry sits in every seat equally often.
A bot wins a game when one of its seats is among the winners (a shared
victory counts for each winner). What both games' tournaments share is in
:mod:`fivetowers.games.tournament`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from fivetowers.games.five_towers.rules import Game, IllegalAction, Variant
from fivetowers.games.five_towers.rules.players import MAX_PLAYERS, MIN_PLAYERS, players_problem
from fivetowers.games.tournament import (
    Standings, Tally, TournamentError, check_entries, lineup, play_out, timed_run, wilson,
)
from fivetowers.games.tournament import play_all as _play_all

from fivetowers.games.five_towers.bots import BOT_NAMES, make_bot

__all__ = ["GameResult", "Settings", "Summary", "Tally", "TournamentError", "parse_bots",
           "play_all", "play_one", "run", "wilson"]

MAX_ACTIONS = 5000  # far above any real game; a bot that loops is a bug


@dataclass(frozen=True)
class Settings:
    bots: tuple[str, ...]
    players: int
    games: int
    variant: Variant = Variant.BASE
    seed: int = 0
    time_per_move: float = 1.0

    def __post_init__(self) -> None:
        check_entries(self.bots, BOT_NAMES, "unknown bot", self.players,
                      f"--players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {self.players}"
                      if players_problem(self.players) is not None else None,
                      self.games, self.time_per_move)

    def lineup(self, game: int) -> list[str]:
        """The bot at each seat in game number ``game``."""
        return lineup(self.bots, self.players, game)


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
    seats = settings.lineup(index)
    seed = settings.seed * 1_000_003 + index
    game = Game([f"{name}-{s}" for s, name in enumerate(seats)], settings.variant, seed=seed)
    bots = [make_bot(name, settings.time_per_move) for name in seats]
    timing = play_out(game, game.is_terminal, seats, bots, seed, index,
                      refused=IllegalAction, max_actions=MAX_ACTIONS)
    outcome = game.outcome()
    return GameResult(index, tuple(seats), tuple(s.total for s in outcome.scores),
                      outcome.winners, timing.move_seconds, timing.moves)


def _play(job: tuple[Settings, int]) -> GameResult:
    return play_one(*job)


def play_all(settings: Settings, workers: int = 2) -> Iterator[GameResult]:
    """Every game's result as it finishes (in any order with several workers)."""
    return _play_all(_play, [(settings, i) for i in range(settings.games)], workers)


@dataclass
class Summary(Standings[Settings]):
    def add(self, result: GameResult) -> None:
        self.count(result.lineup, result.scores, result.winners, result.move_seconds,
                   result.moves)

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
                 f"{budget}{self.seconds:.1f} s wall time"]
        return "\n".join(lines + self.table("mean score", 11, 1))


def run(settings: Settings, workers: int = 2,
        progress: Callable[[GameResult], None] | None = None) -> Summary:
    summary = Summary(settings)
    summary.seconds = timed_run(play_all(settings, workers), summary.add, progress)
    return summary


def parse_bots(text: str) -> tuple[str, ...]:
    return tuple(name.strip() for name in text.split(",") if name.strip())
