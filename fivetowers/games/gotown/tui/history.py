"""Every position of a kept GoTown game, for its replay viewer.

Not the platform's generic :class:`~fivetowers.tables.history.GameHistory`:
that one applies each action as a player's play, and the engine refuses a
thief's ``took`` from a player (the card is drawn by the game), so a kept
game stopped at its first thief. Here the actions are applied as recorded,
as ``fivetowers replay`` does."""

from __future__ import annotations

from typing import Any, Mapping

from fivetowers.games.gotown.rules import Game, IllegalPlay, PlayerView, Record
from fivetowers.games.gotown.rules.actions import action_from_json
from fivetowers.games.gotown.rules.view import view_of
from fivetowers.tables.history import ReplayError


class GoTownHistory:
    def __init__(self, record: Mapping[str, Any]) -> None:
        """A RecordError (a ValueError) if the record does not even start."""
        kept = Record.from_json(dict(record))
        game = kept.new_game()
        self._positions = [game.clone()]
        self.error: ReplayError | None = None
        """Where an illegal record stops, or None."""
        self.refused: IllegalPlay | None = None
        """The engine's refusal there, for the viewer's language (its
        :attr:`error` message is the English text)."""
        for index, raw in enumerate(kept.actions):
            try:
                game.apply(action_from_json(raw), recorded=True)
            except IllegalPlay as exc:
                self.error = ReplayError(index, str(exc))
                self.refused = exc
                break
            self._positions.append(game.clone())

    def __len__(self) -> int:
        return len(self._positions)

    def game(self, position: int) -> Game:
        """The game after ``position`` actions (a copy the caller must not change)."""
        return self._positions[position]

    def view(self, position: int, seat: int | None = None) -> PlayerView:
        return view_of(self._positions[position], seat)
