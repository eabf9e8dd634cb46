"""A kept game, move by move: what a replay viewer steps through.

Position ``i`` is the game after its first ``i`` actions (0: the first
reveal, ``len(history) - 1``: the end). A screen keeps the index and renders
``history.view(i, seat)``; ``history.happened(i)`` is the plain-words log of
what action ``i`` led to (the bid, automatic passes, the build, the next
reveal, a reshuffle, the end).
"""

from __future__ import annotations

from fivetowers.games.five_towers.rules.actions import action_from_json
from fivetowers.games.five_towers.rules.errors import IllegalAction
from fivetowers.games.five_towers.rules.game import Game, LogEntry
from fivetowers.games.five_towers.rules.record import Record, ReplayError
from fivetowers.games.five_towers.rules.view import PlayerView


class GameHistory:
    """Every position of a game record, computed once."""

    def __init__(self, record: Record) -> None:
        game = record.new_game()
        self._positions: list[Game] = [game.clone()]
        self.error: ReplayError | None = None  # where an illegal record stops
        for index, raw in enumerate(record.actions):
            try:
                game.apply(action_from_json(raw))
            except IllegalAction as exc:
                self.error = ReplayError(index, str(exc))
                break
            self._positions.append(game.clone())

    def __len__(self) -> int:
        return len(self._positions)

    def game(self, position: int) -> Game:
        """The game after ``position`` actions (a copy the caller must not change)."""
        return self._positions[self._index(position)]

    def view(self, position: int, seat: int | None = None) -> PlayerView:
        return self.game(position).view(seat)

    def happened(self, position: int) -> list[LogEntry]:
        """What the action leading to ``position`` did (for 0: the first reveal)."""
        i = self._index(position)
        before = len(self._positions[i - 1].log) if i else 0
        return self._positions[i].log[before:]

    def _index(self, position: int) -> int:
        if not 0 <= position < len(self._positions):
            raise IndexError(f"position {position} is not in 0..{len(self._positions) - 1}")
        return position
