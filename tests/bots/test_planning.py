"""The bots' building blocks: finished-build options, determinisation, rollouts."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from fivetowers.games.five_towers.bots import RandomBot
from fivetowers.games.five_towers.bots.determinize import determinize
from fivetowers.games.five_towers.bots.evaluate import board_value, openness
from fivetowers.games.five_towers.bots.plans import board_options
from fivetowers.games.five_towers.bots.sim import from_game, play_out, want
from fivetowers.games.five_towers.rules import (
    TYPES, Bid, Board, Build, Card, Game, Pass, Phase, PlayerView, Step, Variant, card,
)
from fivetowers.games.five_towers.rules.scoring import total
from fivetowers.games.five_towers.rules.search import pairs_of



def _positions(variant: Variant, games: int) -> list[Game]:
    """Games paused at many build steps (random play), for checking options."""
    out = []
    for seed in range(games):
        game = Game(["a", "b", "c"], variant, seed=seed)
        rng = random.Random(seed)
        bot = RandomBot()
        while not game.is_terminal():
            if game.phase is Phase.BUILD:
                out.append(game.clone())
            seat = game.to_move
            assert seat is not None
            game.apply(bot.choose(game.view(seat), rng))
    return out


@pytest.mark.parametrize("variant", [Variant.BASE, Variant.GREAT_POWERS])
def test_every_option_is_a_legal_build_leaving_the_board_it_says(variant: Variant) -> None:
    checked = 0
    for game in _positions(variant, 3):
        seat, bid = game.high_seat, game.high_bid
        assert seat is not None and bid is not None
        board = game.players[seat].board
        options = board_options(board, game.display, game.powers, bid)
        assert options, "the winner of a bid always has a way to build it"
        for option in options:
            trial = game.clone()
            trial.apply(option.to_build(seat))
            after = trial.players[seat].board
            assert after.towers_key() == option.towers
            assert after.pile_key() == option.pile
            checked += 1
        # Every option is a different finished board.
        assert len({(o.towers, o.pile) for o in options}) == len(options)
    assert checked > 100


def test_options_keep_the_order_that_leaves_a_high_top() -> None:
    board = Board()
    board.towers[TYPES[0]] = [12]
    display = [card("candy-9"), card("candy-5")]
    tops = {o.towers[0] for o in board_options(board, display, False, 2) if o.teardown is None}
    # 9 then 5 leaves a 5 on top; 5 then 9 (a 9 goes onto anything) leaves a 9.
    assert tops == {(12, 9, 5), (12, 5, 9)}
    best = max(board_options(board, display, False, 2),
               key=lambda o: board_value(o.towers, len(o.pile), False, 1.0))
    assert best.towers[0] == (12, 5, 9)
    assert best.steps == (Step(card("candy-5")), Step(card("candy-9")))


def test_openness_and_score() -> None:
    assert openness(()) == 1.0 and openness((15, 8)) == 1.0
    assert openness((15, 0)) == 0.0
    assert openness((15, 3)) == 4 / 16  # 0, 1, 2 and a 9
    assert openness((15, 12)) == 12 / 16
    # A tower top doubles its tower; the main tower counts again; a pile of 2 costs 3.
    towers = ((15, 12, 0), (7,), (), (), ())
    assert total(towers, 2, False) == 6 + 1 + 3 - 3


def _check_view(view: PlayerView, game: Game, powers: bool) -> None:
    assert view.seat is not None
    world = determinize(view, random.Random(len(game.log)))
    again = world.view(view.seat)
    # Others' highest bids depend on their hidden piles under Great Powers (scrap).
    if powers:
        again, view = replace(again, max_bids=()), replace(view, max_bids=())
    assert replace(again, log=()) == replace(view, log=())
    # The hidden cards are dealt, not invented: the whole card set is there.
    everything: Counter[Card] = Counter(world.draw) + Counter(world.display) + \
        Counter(world.discard)
    for p in world.players:
        everything += Counter(p.board.teardown)
        everything.update(Card(t, v) for t in TYPES for v in p.board.towers[t])
    assert everything == Counter(game.draw) + Counter(game.display) + Counter(game.discard) + \
        sum((Counter(p.board.teardown) for p in game.players), Counter()) + \
        Counter(Card(t, v) for p in game.players for t in TYPES for v in p.board.towers[t])


@pytest.mark.parametrize("variant", [Variant.BASE, Variant.GREAT_POWERS])
def test_a_determinised_game_shows_the_same_view(variant: Variant) -> None:
    for seed in range(4):
        game = Game([f"p{i}" for i in range(2 + seed)], variant, seed=seed)
        rng = random.Random(seed)
        bot = RandomBot()
        while not game.is_terminal():
            seat = game.to_move
            assert seat is not None
            _check_view(game.view(seat), game, variant.powers)
            game.apply(bot.choose(game.view(seat), rng))


def test_a_determinised_game_plays_on_like_the_real_one() -> None:
    # Mid-bidding at four players: the next actions are accepted in both.
    game = Game(["a", "b", "c", "d"], Variant.BASE, seed=3)
    game.apply(Bid(0, 1))
    world = determinize(game.view(1), random.Random(0))
    for g in (game, world):
        g.apply(Pass(1))
        assert g.to_move == game.to_move
    assert world.waiting == game.waiting


class PolicyBot:
    """Plays exactly what the rollout policy would, through the real engine."""

    name = "policy"

    def choose(self, view: PlayerView, rng: random.Random) -> Build | Bid | Pass:
        assert view.seat is not None
        towers = [list(view.seats[view.seat].towers[t]) for t in TYPES]
        late = view.runouts >= 1 and view.draw_count <= 15
        wanted = want(towers, list(pairs_of(list(view.display))), late)
        if view.phase is Phase.BUILD:
            cards = tuple(Card(TYPES[ti], v) for ti, v in wanted)
            return Build(view.seat, cards, tuple(Step(c) for c in cards))
        high = -1 if view.high_bid is None else view.high_bid
        if len(wanted) > high:
            return Bid(view.seat, len(wanted))
        return Pass(view.seat)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_rollouts_follow_the_rules_of_a_whole_game(players: int) -> None:
    # The engine and the rollout agree on every round, the reshuffle and the end.
    for seed in range(3):
        names = [f"p{i}" for i in range(players)]
        played = Game(names, Variant.BASE, seed=seed)
        start = from_game(played)
        # The rollout's RNG, like the engine's, is used for the reshuffle alone:
        # seeded as the engine seeds its own (see Game), it shuffles the
        # discard pile the same way.
        reshuffler = random.Random(f"reshuffle:{seed}")
        rng = random.Random(0)
        while not played.is_terminal():
            seat = played.to_move
            assert seat is not None
            played.apply(PolicyBot().choose(played.view(seat), rng))
        assert played.runouts == 2
        scores = play_out(start, reshuffler)
        assert scores == [s.total for s in played.outcome().scores]
