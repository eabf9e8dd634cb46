"""Game.clone, the copy every playout of the strong bot's search starts
from: a clone and its source share nothing a play changes, either way."""

from __future__ import annotations

import random

from fivetowers.games.gotown.plus import plus_play
from fivetowers.games.gotown.rules import Game

from tests.gotown.arrange import snapshot


def _play_out(game: Game, rng: random.Random) -> None:
    while not game.over:
        game.apply_trusted(plus_play(game, rng))


def test_a_clone_played_to_its_end_leaves_its_source_as_it_was() -> None:
    """Every seat's hand, tower and dogs, the piles, the reshuffles made and
    the actions: through draws, reshuffles, steals, thieves and dogs."""
    reshuffled = 0
    for seed in range(12):
        game = Game([f"p{i}" for i in range(2 + seed % 3)], 4 + seed % 2, seed=seed)
        rng = random.Random(seed)
        while not game.over and len(game.actions) < 40 + seed:
            game.apply_trusted(plus_play(game, rng))
        for played_first in ("clone", "source"):
            source = game.clone()
            before = snapshot(source)
            copy = source.clone()
            assert snapshot(copy) == before
            _play_out(copy if played_first == "clone" else source, random.Random(seed))
            assert snapshot(source if played_first == "clone" else copy) == before
            reshuffled += len(copy.reshuffles) > len(game.reshuffles)
    assert reshuffled  # a reshuffle after the clone is among what was changed


def test_a_clone_holds_no_mutable_part_of_its_source() -> None:
    game = Game(["a", "b", "c"], 5, seed=4)
    rng = random.Random(4)
    while len(game.reshuffles) < 1:
        game.apply_trusted(plus_play(game, rng))
    copy = game.clone()
    for mine, theirs in zip(copy.players, game.players):
        assert mine is not theirs
        assert mine.hand is not theirs.hand and mine.floors is not theirs.floors
        assert mine.dogs is not theirs.dogs
    for name in ("players", "draw", "discard", "actions", "reshuffles"):
        assert getattr(copy, name) is not getattr(game, name), name
