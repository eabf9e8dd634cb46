"""A multiplayer Elo-style rating (humans by key, bots by kind).

A game of n rated players counts as every pair of them playing a two-player
game: the higher final score wins the pair, equal scores share it (0.5 each).
Each pair moves both ratings by ``K / (n - 1) * (actual - expected)``, so a
player's whole change is bounded by K however many sit at the table, and the
sum of all changes is zero. Two seats of the same identity (two bots of one
kind) do not play each other.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Mapping, Sequence

INITIAL_RATING = 1500.0
K_FACTOR = 32.0


@dataclass(frozen=True, slots=True)
class Result:
    """One seat's identity and final score."""

    identity: str
    score: int


def expected(rating: float, other: float) -> float:
    """The chance ``rating`` beats ``other`` in Elo's model."""
    power: float = 10.0 ** ((other - rating) / 400.0)
    return 1.0 / (1.0 + power)


def rating_changes(ratings: Mapping[str, float], results: Sequence[Result],
                   k: float = K_FACTOR) -> dict[str, float]:
    """How much each identity's rating moves after one game.

    ``ratings`` holds the ratings before the game; an identity missing from it
    starts at :data:`INITIAL_RATING`. Every identity in ``results`` gets an
    entry (0.0 when nobody rated played it).
    """
    change: dict[str, float] = defaultdict(float)
    for r in results:
        change[r.identity] += 0.0
    if len(results) < 2:
        return dict(change)
    scale = k / (len(results) - 1)
    for a, b in combinations(results, 2):
        if a.identity == b.identity:
            continue
        ra = ratings.get(a.identity, INITIAL_RATING)
        rb = ratings.get(b.identity, INITIAL_RATING)
        actual = 1.0 if a.score > b.score else 0.5 if a.score == b.score else 0.0
        delta = scale * (actual - expected(ra, rb))
        change[a.identity] += delta
        change[b.identity] -= delta
    return dict(change)


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game's rated seats, as a store moves ratings by them."""

    results: list[Result]
    names: dict[str, str]  # identity: the name to keep (a bot: its kind)
    won: set[str]  # identities of winning seats

    def rating_rows(self, before: Mapping[str, float]) -> list[tuple[str, str, float, int, float]]:
        """A store's rating upserts, by identity: (identity, name, the rating
        of a new one, 1 if it won else 0, the change), given the ratings
        ``before`` the game (an identity missing from it is new)."""
        changes = rating_changes(before, self.results)
        return [(identity, self.names[identity], INITIAL_RATING + delta,
                 int(identity in self.won), delta)
                for identity, delta in sorted(changes.items())]


def rated_game(seats: Iterable[tuple[int, str, str | None, str | None]],
               scores: Sequence[int], winners: Sequence[int]) -> RatedGame:
    """The rated seats of a finished game from its stored seats (seat, name,
    fingerprint, bot): a guest, with neither, is kept but not rated."""
    game = RatedGame([], {}, set())
    for seat, name, fingerprint, bot in seats:
        identity = f"bot:{bot}" if bot is not None else (
            f"key:{fingerprint}" if fingerprint is not None else None)
        if identity is None or seat >= len(scores):
            continue
        game.results.append(Result(identity, scores[seat]))
        game.names[identity] = bot if bot is not None else name
        if seat in winners:
            game.won.add(identity)
    return game
