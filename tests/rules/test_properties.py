"""Invariants over many random full games, 2–5 players, both variants."""

from __future__ import annotations

import json
import os
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fivetowers.games.five_towers.rules import (
    TYPES, Action, Bid, Game, IllegalAction, Pass, Phase, Position, Record, Variant, full_deck, replay,
    result_json,
)
from fivetowers.games.five_towers.rules.search import max_bid
from fivetowers.games.five_towers.rules.towers import tower_error

from tests.rules.randomplay import brute_max_bid, card_places, random_action

games = st.tuples(st.integers(0, 2**32 - 1), st.integers(2, 5), st.sampled_from(list(Variant)))
# FT_EXAMPLES=4000 runs a longer search for a deeper check by hand.
GENERATED_EXAMPLES = int(os.environ.get("FT_EXAMPLES", "300"))
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def check_invariants(game: Game) -> None:
    assert card_places(game) == Counter(full_deck(game.player_count))
    for p in game.players:
        for t in TYPES:
            assert tower_error(p.board.towers[t]) is None, (p.name, t, p.board.towers[t])
    for i in range(game.player_count):
        s = game.score(i)
        assert s.total == s.towers + s.main + s.pairs + s.teardown
    if game.phase is not Phase.OVER:
        assert 1 <= len(game.display) <= 5
        assert len(game.display) == 5 or game.draw == []


@SETTINGS
@given(games)
def test_random_games_keep_every_invariant(spec: tuple[int, int, Variant]) -> None:
    seed, players, variant = spec
    rng = random.Random(seed)
    game = Game([f"P{i}" for i in range(players)], variant, seed=seed)
    starters_after_bid0: list[tuple[int, int]] = []
    while not game.is_terminal():
        check_invariants(game)
        round_before, starter_before = game.round, game.starter
        action = random_action(game, rng)
        game.apply(action)
        if game.round != round_before and not any(e.kind == "build" and e.round == round_before
                                                  for e in game.log):
            starters_after_bid0.append((starter_before, game.starter))
    check_invariants(game)
    assert game.runouts == 2 or (game.reshuffle == [] and game.runouts == 1)
    assert all(a == b for a, b in starters_after_bid0)
    # Writing the record and replaying it reaches the same state.
    text = json.dumps(Record.from_game(game).to_json())
    again, error = replay(Record.from_json(json.loads(text)))
    assert error is None
    assert result_json(again) == result_json(game)
    assert again.log == game.log


@SETTINGS
@given(games)
def test_refused_actions_never_change_a_game(spec: tuple[int, int, Variant]) -> None:
    seed, players, variant = spec
    rng = random.Random(seed)
    game = Game([f"P{i}" for i in range(players)], variant, seed=seed)
    for _ in range(rng.randrange(1, 60)):
        if game.is_terminal():
            break
        game.apply(random_action(game, rng))
    if game.is_terminal():
        return
    before = json.dumps(result_json(game)), game.view(None)
    seat = rng.randrange(players)
    tries: list[Action] = [Bid(seat, rng.randrange(0, 12)), Pass(seat),
                           Bid((seat + 1) % players, 99)]
    for action in tries:
        if action in game.legal_actions():
            continue
        try:
            game.apply(action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{action} was accepted but not listed as legal")
        assert (json.dumps(result_json(game)), game.view(None)) == before


positions = st.tuples(st.integers(0, 2**32 - 1), st.integers(2, 5), st.sampled_from(list(Variant)),
                      st.integers(0, 80))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_fast_max_bid_equals_brute_force(spec: tuple[int, int, Variant, int]) -> None:
    """The engine's fast search against trying every choice and step order."""
    seed, players, variant, moves = spec
    rng = random.Random(seed)
    game = Game([f"P{i}" for i in range(players)], variant, seed=seed)
    for _ in range(moves):
        if game.is_terminal():
            break
        game.apply(random_action(game, rng))
    if game.is_terminal():
        return
    for seat in range(players):
        pos = Position.from_game(game, seat)
        board = pos.board
        fast = max_bid(board.towers_key(), board.pile_key(),
                       tuple(sorted((c.type.index, c.value) for c in pos.display)), pos.powers)
        assert fast == brute_max_bid(board, pos.display, pos.powers), pos.to_json()


def random_board_position(rng: random.Random, powers: bool) -> Position:
    """Towers grown by legal placements, a teardown pile and a display, all distinct cards."""
    from fivetowers.games.five_towers.rules import Board, Card
    from fivetowers.games.five_towers.rules.towers import can_place

    pool = full_deck(5)
    rng.shuffle(pool)
    board = Board()
    used: Counter[Card] = Counter()
    for t in TYPES:
        values = [c.value for c in pool if c.type is t]
        tower: list[int] = []
        for v in values[: rng.randrange(0, 7)]:
            if not tower or can_place(v, tower[-1]):
                tower.append(v)
        board.towers[t] = tower
        used.update(Card(t, v) for v in tower)
    rest = list((Counter(pool) - used).elements())
    rng.shuffle(rest)
    pile_size = rng.randrange(0, 6)
    board.teardown = rest[:pile_size]
    # Favour scrap and sand in the display: they are where the coupling lives.
    display = sorted(rest[pile_size:], key=lambda c: (c.type.value not in ("scrap", "sand"),
                                                      rng.random()))[: rng.randrange(1, 6)]
    return Position(Variant.GREAT_POWERS if powers else Variant.BASE, board, display)


@settings(max_examples=GENERATED_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_fast_max_bid_on_generated_boards(seed: int, powers: bool) -> None:
    pos = random_board_position(random.Random(seed), powers)
    board = pos.board
    fast = max_bid(board.towers_key(), board.pile_key(),
                   tuple(sorted((c.type.index, c.value) for c in pos.display)), pos.powers)
    assert fast == brute_max_bid(board, pos.display, pos.powers), pos.to_json()
