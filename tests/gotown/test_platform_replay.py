"""A kept GoTown game replays through the platform's one replay loop
(``action_from_json`` then ``apply``, as a restart and the replay viewer do),
thieves and their catches included; a player still cannot pick a catch."""

from __future__ import annotations

import random

import pytest

from fivetowers.games.gotown.bots import make_bot
from fivetowers.games.gotown.kind import GAME
from fivetowers.games.gotown.rules import Game, IllegalPlay, SuperThief, Thief
from fivetowers.tables.history import replay


def game_with_thieves() -> Game:
    """A seeded bot game in which a thief or a super thief is played."""
    for seed in range(60):
        game = GAME.new_match(["ann", "bo", "cy"], {}, seed=seed)
        bots, rng = [make_bot("greedy"), make_bot("random"), make_bot("random")], \
            random.Random(seed)
        while not game.is_terminal():
            assert game.to_move is not None
            game.apply(bots[game.to_move].choose(game.view(game.to_move), rng))
        if any(isinstance(a, (Thief, SuperThief)) for a in game.actions):
            return game
    raise AssertionError("no thief in 60 games")


def test_the_platforms_replay_loop_replays_a_game_with_thieves() -> None:
    game = game_with_thieves()
    replayed, error = replay(GAME, game.record_json())
    assert error is None
    assert replayed.record_json() == game.record_json()


def test_a_player_naming_another_catch_than_the_draws_is_refused() -> None:
    game = game_with_thieves()
    index = next(i for i, a in enumerate(game.actions) if isinstance(a, Thief))
    thief = game.actions[index]
    assert isinstance(thief, Thief) and thief.took is not None
    before = GAME.match_from_record({**game.record_json(),
                                     "actions": game.record_json()["actions"][:index]})
    others = [c for c in before.players[thief.target].hand_cards() if c != thief.took]
    assert others  # the victim held another card the thief might have named
    with pytest.raises(IllegalPlay, match="drawn at random"):
        before.apply(Thief(thief.seat, thief.target, others[0]))
    before.apply(Thief(thief.seat, thief.target, thief.took))  # the draw's own card
    assert before.actions[-1] == thief
