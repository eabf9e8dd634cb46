"""Playing whole games with bots, checking every action with the engine."""

from __future__ import annotations

import random
from typing import Sequence

from fivetowers.games.five_towers.bots.base import Bot
from fivetowers.games.five_towers.rules import Action, Game, Variant


def play(bots: Sequence[Bot], variant: Variant, seed: int,
         max_actions: int = 3000) -> tuple[Game, list[Action]]:
    """A whole game; ``game.apply`` raises if any bot's action is illegal."""
    game = Game([f"p{i}" for i in range(len(bots))], variant, seed=seed)
    rngs = [random.Random(seed * 10 + s) for s in range(len(bots))]
    actions: list[Action] = []
    for _ in range(max_actions):
        if game.is_terminal():
            return game, actions
        seat = game.to_move
        assert seat is not None
        action = bots[seat].choose(game.view(seat), rngs[seat])
        game.apply(action)
        actions.append(action)
    raise AssertionError(f"the game did not end in {max_actions} actions")
