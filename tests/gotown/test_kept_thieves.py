"""A kept game replays play by play through the platform's protocol (a
restart restoring its tables, the generic history) even with thieves in
it: the card a thief took is the one the game draws, and a player still
cannot name another."""

from __future__ import annotations

import random

import pytest

from fivetowers.games.gotown.bots import make_bot
from fivetowers.games.gotown.kind import GAME
from fivetowers.games.gotown.rules import Card, Game, IllegalPlay, SuperThief, Thief
from fivetowers.tables.history import replay


def games_with_thieves() -> list[Game]:
    found = []
    for seed in range(40):
        game = Game(["Ann", "Bo", "Cy"], seed=seed)
        bot, rng = make_bot("greedy"), random.Random(seed)
        while not game.over:
            game.apply(bot.choose(game.view(game.to_move), rng))
        if any(isinstance(a, (Thief, SuperThief)) for a in game.actions):
            found.append(game)
    assert len(found) >= 5
    return found


def test_a_kept_game_with_thieves_replays_to_its_end() -> None:
    for game in games_with_thieves():
        again, error = replay(GAME, game.record_json())
        assert error is None
        assert again.record_json() == game.record_json()


def test_a_player_still_cannot_name_the_card_a_thief_takes() -> None:
    game = Game(["Ann", "Bo"], seed=1)
    game.players[0].hand[Card.THIEF] += 1
    drawn = game.clone()
    drawn.apply(Thief(0, 1))
    took = drawn.actions[-1].took  # type: ignore[union-attr]
    other = next(c for c in game.players[1].hand if c is not took)
    with pytest.raises(IllegalPlay, match="drawn at random"):
        game.apply(Thief(0, 1, other))
    game.apply(Thief(0, 1, took))  # the very card the game draws: as if unnamed
    assert game.players[0].hand[took] >= 1 and game.actions[-1] == drawn.actions[-1]
