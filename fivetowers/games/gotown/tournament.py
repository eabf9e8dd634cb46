"""GoTown bots against bots (``fivetowers tournament --game gotown``).

As for 5 Towers (and with it, :mod:`fivetowers.games.tournament`): the
line-up is the named bots, one seat each, the last one
filling the remaining seats; game ``g`` seats it rotated by ``g``, so over a
multiple of the player count every entry sits in every seat equally often.
A bot wins a game when one of its seats is among the winners (a shared win
at the turn limit counts for each). Win rates come with 95% Wilson intervals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from fivetowers.games.gotown.bots import BOT_NAMES, make_bot
from fivetowers.games.gotown.rules import Game, IllegalPlay
from fivetowers.games.gotown.rules.game import MAX_PLAYERS, MIN_PLAYERS
from fivetowers.games.tournament import (
    Standings, Tally, TournamentError, check_entries, lineup, play_out, timed_run, wilson,
)
from fivetowers.games.tournament import play_all as _play_all

__all__ = ["GameResult", "Settings", "Summary", "Tally", "TournamentError", "play_all",
           "play_one", "run", "wilson"]

MAX_ACTIONS = 20_000  # the turn limit ends every game long before; a looping bot is a bug


@dataclass(frozen=True)
class Settings:
    bots: tuple[str, ...]
    players: int
    games: int
    floors: int = 5
    seed: int = 0
    time_per_move: float = 0.05

    def __post_init__(self) -> None:
        check_entries(self.bots, BOT_NAMES, "unknown GoTown bot", self.players,
                      f"--players must be {MIN_PLAYERS}..{MAX_PLAYERS} for GoTown, "
                      f"not {self.players}"
                      if not MIN_PLAYERS <= self.players <= MAX_PLAYERS else None,
                      self.games, self.time_per_move)
        if self.floors not in (4, 5):
            raise ValueError(f"--floors must be 4 or 5, not {self.floors}")

    def lineup(self, game: int) -> list[str]:
        return lineup(self.bots, self.players, game)


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
    seats = settings.lineup(index)
    seed = settings.seed * 1_000_003 + index
    game = Game([f"{name}-{s}" for s, name in enumerate(seats)], settings.floors, seed=seed)
    bots = [make_bot(name, settings.time_per_move) for name in seats]
    timing = play_out(game, lambda: game.over, seats, bots, seed, index,
                      refused=IllegalPlay, max_actions=MAX_ACTIONS, move="play",
                      actions="plays")
    return GameResult(tuple(seats), tuple(len(p.floors) for p in game.players),
                      game.winners, game.turns_ended >= game.turn_limit,
                      timing.move_seconds, timing.moves)


def _play(job: tuple[Settings, int]) -> GameResult:
    return play_one(*job)


def play_all(settings: Settings, workers: int = 2) -> Iterator[GameResult]:
    return _play_all(_play, [(settings, i) for i in range(settings.games)], workers)


@dataclass
class Summary(Standings[Settings]):
    by_limit: int = 0

    def add(self, result: GameResult) -> None:
        self.by_limit += result.by_limit
        self.count(result.lineup, result.floors, result.winners, result.move_seconds,
                   result.moves)

    def to_json(self) -> dict[str, object]:
        s = self.settings
        return {"game": "gotown", "games": s.games, "players": s.players, "floors": s.floors,
                "ended_by_turn_limit": self.by_limit,
                "results": {name: {"wins": t.wins, "win_rate": t.win_rate(),
                                   "interval95": list(wilson(t.wins, t.games)),
                                   "mean_floors": t.mean_score(),
                                   "mean_move_ms": t.mean_move_ms()}
                            for name, t in self.tallies.items()}}

    def to_text(self) -> str:
        s = self.settings
        budget = f"{s.time_per_move:g} s per strong move, " if "strong" in s.bots else ""
        lines = [f"GoTown: {s.games} games, {s.players} players, {s.floors} floors, seed "
                 f"{s.seed}, {budget}{self.by_limit} ended by the turn limit, "
                 f"{self.seconds:.1f} s wall time"]
        return "\n".join(lines + self.table("floors", 7, 2))


def run(settings: Settings, workers: int = 2,
        progress: Callable[[GameResult], None] | None = None) -> Summary:
    summary = Summary(settings)
    summary.seconds = timed_run(play_all(settings, workers), summary.add, progress)
    return summary
