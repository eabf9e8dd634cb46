"""GameHistory: stepping through a kept game, as the replay viewer does."""

from __future__ import annotations

import pytest

from fivetowers.games.five_towers.rules.game import Game, Phase
from fivetowers.games.five_towers.kind import GAME
from fivetowers.games.five_towers.rules.record import result_json
from fivetowers.games.five_towers.rules.variant import Variant
from fivetowers.tables.history import GameHistory
from tests.tables.random_play import play_to_end


def test_every_position_matches_the_game_as_it_was_played() -> None:
    game = Game(["Hedda", "Peter", "Anni"], Variant.GREAT_POWERS, seed=9)
    seen = [result_json(game)]
    while game.phase is not Phase.OVER:
        play_to_end(game, 9, limit=1)
        seen.append(result_json(game))
    history = GameHistory(GAME, game.record_json())
    assert history.error is None and len(history) == len(game.actions) + 1
    assert [result_json(history.game(i)) for i in range(len(history))] == seen
    assert history.view(len(history) - 1).phase is Phase.OVER
    assert history.view(3, seat=1).seat == 1


def test_the_log_of_each_step_adds_up_to_the_whole_log() -> None:
    game = Game(["A", "B"], seed=4)
    play_to_end(game, 4)
    history = GameHistory(GAME, game.record_json())
    steps = [entry for i in range(len(history)) for entry in history.happened(i)]
    assert steps == game.log
    assert history.happened(0)[0].kind == "reveal"
    assert history.happened(len(history) - 1)[-1].kind == "end"


def test_an_illegal_record_stops_where_it_breaks() -> None:
    game = Game(["A", "B"], seed=5)
    play_to_end(game, 5, limit=6)
    record = game.record_json()
    record["actions"][4] = {"seat": 0, "bid": 99}
    history = GameHistory(GAME, record)
    assert history.error is not None and history.error.action == 4
    assert len(history) == 5
    with pytest.raises(IndexError):
        history.view(5)
