"""Invariants over many random whole games (2–4 players, both lengths)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from fivetowers.games.gotown.rules import (
    Bone, Build, Card, Dog, DonutTruck, End, Game, IllegalPlay, Jackhammer, Milkshake, Record,
    Steal, SuperThief, Thief, WreckingBall, full_deck, replay, result_json,
)

from tests.gotown.arrange import random_game, snapshot

GAMES = [(players, floors, seed) for players in (2, 3, 4) for floors in (4, 5)
         for seed in range(6)]


def wild_probe(game: Game, rng: random.Random) -> list[object]:
    """Plays of every kind, most of them illegal now."""
    seat = rng.randrange(game.player_count)
    other = rng.randrange(game.player_count + 1)
    card = rng.choice(list(Card))
    return [Build(seat, (card, rng.choice(list(Card)))), Steal(seat, card, other),
            Dog(seat, rng.randrange(6)), Bone(seat, other, rng.randrange(6)),
            Jackhammer(seat, other), WreckingBall(seat, other), Milkshake(seat, other),
            Thief(seat, other, card), End(seat)]


def every_play(game: Game) -> list[object]:
    """Every play by the mover with any card, target and floor (thieves unnamed)."""
    seat = game.to_move
    if seat is None:
        return []
    seats = range(game.player_count + 1)
    floors = range(7)
    out: list[object] = [Build(seat, (a, b)) for a in Card for b in Card]
    out += [Steal(seat, c, s) for c in Card for s in seats]
    out += [Dog(seat, f) for f in floors] + [Bone(seat, s, f) for s in seats for f in floors]
    for kind in (Jackhammer, WreckingBall, Milkshake, Thief):
        out += [kind(seat, s) for s in seats]
    out += [SuperThief(seat), DonutTruck(seat), End(seat)]
    return out


def same_play(action: object) -> object:
    """Builds are the same play in either order."""
    if isinstance(action, Build):
        return ("build", action.seat, frozenset(Counter(action.cards).items()))
    return action


def check_invariants(game: Game, rng: random.Random) -> None:
    # every one of the 54 cards in exactly one place
    assert game.card_places() == Counter(full_deck())
    for player in game.players:
        for floor in player.floors:
            assert floor.left.value + floor.right.value == 9
            assert not (floor.left.wild and floor.right.wild)
        assert all(0 <= f < len(player.floors) for f in player.dogs)
    assert Card.DONUT_TRUCK not in game.discard or not game.truck_on_table
    # a refused play changes nothing; an allowed one is in legal_actions
    legal = game.legal_actions()
    for action in wild_probe(game, rng):
        before = snapshot(game)
        trial = game.clone()
        try:
            trial.apply(action)  # type: ignore[arg-type]
        except IllegalPlay as exc:
            assert str(exc)
            assert snapshot(trial) == before
        else:
            assert game.is_legal(action)  # type: ignore[arg-type]
        assert snapshot(game) == before  # the clone is independent
    assert not game.over or legal == []
    if rng.random() < 0.2:  # legal_actions lists exactly the plays the validator allows
        allowed = {same_play(a) for a in every_play(game) if game.is_legal(a)}  # type: ignore[arg-type]
        assert allowed == {same_play(a) for a in legal}
        assert len(legal) == len({same_play(a) for a in legal})


@pytest.mark.parametrize("players,floors,seed", GAMES)
def test_random_games_keep_every_invariant_and_replay(players: int, floors: int,
                                                       seed: int) -> None:
    game = random_game(players, floors, seed, check=check_invariants)
    assert game.over and game.winners
    if game.turns_ended < game.turn_limit:
        assert [len(game.players[s].floors) for s in game.winners] == [floors]
    record = json.loads(json.dumps(game.record_json()))
    again, error = replay(Record.from_json(record))
    assert error is None
    assert result_json(again) == result_json(game)
    assert [p.hand for p in again.players] == [p.hand for p in game.players]


def test_random_games_reach_every_kind_of_play_and_both_endings() -> None:
    kinds: set[str] = set()
    endings = set()
    reshuffles = 0
    for players, floors, seed in GAMES:
        game = random_game(players, floors, seed)
        kinds.update(next(k for k in a.play_json()) for a in game.actions)
        endings.add("limit" if game.turns_ended >= game.turn_limit else "floors")
        reshuffles += len(game.reshuffles)
    assert kinds == {"build", "steal", "dog", "bone", "jackhammer", "wrecking-ball",
                     "milkshake", "donut-truck", "thief", "super-thief", "end"}
    assert "floors" in endings and reshuffles > 0
