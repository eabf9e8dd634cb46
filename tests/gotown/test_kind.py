"""GoTown behind the platform's protocol: its GameKind, a Match, its bots."""

from __future__ import annotations

import json
import random

import pytest

from fivetowers.games import game_kind, game_of_record, register, unregister
from fivetowers.games.protocol import ActionRefused, RecordError
from fivetowers.games.gotown.kind import GAME
from fivetowers.games.gotown.rules import End, Game, Record, replay, result_json


def play(bots: list[str], seed: int, floors: str = "5") -> Game:
    game = GAME.new_match([f"p{i}" for i in range(len(bots))], {"floors": floors}, seed)
    assert isinstance(game, Game)
    players = [GAME.make_bot(b) for b in bots]
    rng = random.Random(seed)
    while not game.is_terminal():
        seat = game.to_move
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat), rng))
    return game


def test_the_kind_describes_gotown() -> None:
    assert (GAME.name, GAME.title, GAME.record_format) == ("gotown", "GoTown", "gotown-record/1")
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert GAME.players_problem(3) is None and "2 to 4" in (GAME.players_problem(5) or "")
    assert [o.key for o in GAME.options] == ["floors"] and GAME.options[0].default == "5"
    assert GAME.bot_kinds == ("random", "greedy", "strong")
    with pytest.raises(ValueError):
        GAME.make_bot("clever")


def test_the_short_game_option_sets_four_floors() -> None:
    game = GAME.new_match(["a", "b"], {"floors": "4"}, 3)
    assert isinstance(game, Game) and game.floors_to_win == 4
    assert GAME.options_of(game.setup_json()) == {"floors": "4"}
    with pytest.raises(RecordError):
        GAME.new_match(["a", "b"], {"floors": "6"}, 3)


def test_setup_and_actions_replay_the_match() -> None:
    game = play(["greedy", "random", "random"], 11)
    record = {**game.setup_json(), "players": ["p0", "p1", "p2"],
              "actions": [game.action_json(i) for i in range(game.action_count())]}
    again = GAME.match_from_record(json.loads(json.dumps(record)))
    assert isinstance(again, Game) and result_json(again) == result_json(game)
    assert game.record_json() == {**record, "players": ["p0", "p1", "p2"]} | {
        "format": "gotown-record/1"}
    assert game.result() is not None and game.result() == again.result()


def test_a_bad_record_or_action_is_a_record_error_and_a_refusal_is_action_refused() -> None:
    game = GAME.new_match(["a", "b"], {}, 1)
    with pytest.raises(RecordError):
        GAME.action_from_json({"seat": 0, "end": "yes"})
    with pytest.raises(ActionRefused):
        game.apply(End(1))
    record = game.record_json()
    record["actions"] = [{"seat": 1, "end": True}]
    with pytest.raises(RecordError, match="action 0"):
        GAME.match_from_record(record)


def test_a_test_may_register_gotown_and_find_it_by_its_records() -> None:
    register(GAME)
    try:
        assert game_kind("gotown") is GAME
        assert game_of_record({"format": "gotown-record/1"}) is GAME
    finally:
        unregister("gotown")


def test_every_bot_action_is_accepted_in_whole_games() -> None:
    for players in (2, 3, 4):
        for floors in ("4", "5"):
            game = play(["greedy", "random", "greedy", "random"][:players], players * 7,
                        floors)
            again, error = replay(Record.from_json(game.record_json()))
            assert error is None and result_json(again) == result_json(game)


def test_greedy_beats_random_heads_up() -> None:
    wins = 0.0
    for seed in range(40):
        bots = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        result = play(bots, seed).result()
        assert result is not None
        greedy = bots.index("greedy")
        wins += (greedy in result.winners) / len(result.winners)
    assert wins >= 30  # about 0.89 over 200 games; the seeds are fixed


def test_the_strong_bot_plays_whole_games_from_its_view_only() -> None:
    from fivetowers.games.gotown.strong import StrongBot, determinize

    game = GAME.new_match(["a", "b", "c"], {"floors": "4"}, 5)
    assert isinstance(game, Game)
    bots = [StrongBot(0.002), GAME.make_bot("greedy"), GAME.make_bot("random")]
    rng = random.Random(5)
    while not game.is_terminal():
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        if seat == 0:  # a deal agrees with all the view shows, and holds all 54 cards
            deal = determinize(view, rng)
            assert deal.card_places() == game.card_places()
            assert [p.hand_size for p in deal.players] == [p.hand_size for p in game.players]
            assert deal.players[0].hand == game.players[0].hand
        game.apply(bots[seat].choose(view, rng))
    again, error = replay(Record.from_json(game.record_json()))
    assert error is None and result_json(again) == result_json(game)
