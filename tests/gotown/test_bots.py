"""What the greedy and strong bots do in hand-made situations, and that
they only ever play what the rules accept."""

from __future__ import annotations

import random
import time

import pytest

from fivetowers.games.gotown.bots import GreedyBot, RandomBot, pairs
from fivetowers.games.gotown.rules import (
    Bone, Build, Card, Dog, End, Game, IllegalPlay, Jackhammer, Steal, Thief,
)
from fivetowers.games.gotown.rules.view import view_of
from fivetowers.games.gotown.plus import plus_play
from fivetowers.games.gotown.strong import MIN_DEALS, StrongBot

from tests.gotown.arrange import cards, table

FOUR = [["1", "8"], ["2", "7"], ["3", "6"], ["4", "5"]]


def greedy_turn(game: Game, seat: int = 0, bot: GreedyBot | None = None) -> list[object]:
    """The plays the greedy bot makes in its turn, ending it included."""
    bot = bot or GreedyBot()
    plays: list[object] = []
    rng = random.Random(0)
    while not game.over and game.to_move == seat:
        action = bot.choose(game.view(seat), rng)
        plays.append(action)
        game.apply(action)
        if isinstance(action, End):
            break
    return plays


def test_greedy_guards_a_four_floor_tower_with_its_dog() -> None:
    game = table([["dog", "1", "2"], ["2", "5", "6"]], towers=[FOUR, [["3", "6"]]],
                 draw=["2"] * 3)
    plays = greedy_turn(game)
    assert plays == [Dog(0, 3), End(0)]
    assert game.players[0].dogs == {3}


def test_greedy_keeps_a_pair_in_hand_while_its_hand_is_not_full() -> None:
    game = table([["4", "5", "1", "thief"], ["2", "6", "7"]], towers=[[["1", "8"]], []],
                 draw=["2"] * 3)
    plays = greedy_turn(game)
    # the thief first (more cards), then no build: the pair stays safe in hand
    assert not any(isinstance(p, Build) for p in plays) and plays[-1] == End(0)
    assert len(game.players[0].floors) == 1


def test_greedy_builds_with_a_full_hand_and_when_the_pairs_win() -> None:
    full = table([["4", "5", "1", "2", "3", "3", "6", "6"], ["2"]], towers=[[], []],
                 draw=["2"] * 3)
    assert any(isinstance(p, Build) for p in greedy_turn(full))
    winning = table([["4", "5", "2", "7"], ["3"]], towers=[FOUR[:3], []], draw=["2"] * 3)
    greedy_turn(winning)
    assert winning.over and winning.winners == (0,)


def test_greedy_steals_from_the_taller_tower_and_hammers_the_leader() -> None:
    game = table([["8", "jackhammer"], ["3"], ["3"]],
                 towers=[[], [["1", "8"]], [["3", "6"], ["2", "7"], ["4", "5"], ["1", "8"]]],
                 draw=["2"] * 3)
    plays = greedy_turn(game)
    assert plays[0] == Steal(0, Card.EIGHT, 2)
    assert Jackhammer(0, 2) in plays


def test_greedy_bones_the_dog_off_a_tower_one_floor_from_winning() -> None:
    game = table([["bone", "1", "1"], ["3"]], towers=[[], FOUR], dogs=[[], [3]],
                 draw=["2"] * 3)
    plays = greedy_turn(game)
    assert plays[0] == Bone(0, 1, 3)


def test_the_greedy_ranking_for_playouts_agrees_with_its_choice() -> None:
    """The strong bot's playouts rank candidates without the legal list; the
    first legal play of that ranking is the plan-free greedy bot's choice."""
    bot = GreedyBot(plan=False)
    for seed in range(12):
        game = Game(["a", "b", "c"][:2 + seed % 2], 5, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            chosen = bot.choose(view, random.Random(7))
            ranked = bot.ranked(view_of(game, seat, with_legal=False),
                                list(game.candidates()), random.Random(7))
            legal = [a for a in ranked if game.is_legal(a)]
            worth = bot.worth(view, chosen)
            assert bot.worth(view, legal[0]) == worth and type(legal[0]) is type(chosen)
            game.apply(chosen if rng.random() < 0.8 else RandomBot().choose(view, rng))


def test_pairs_counts_the_floors_a_hand_could_build() -> None:
    assert pairs(cards("1", "8", "8", "?", "4", "4", "5")) == 3
    assert pairs(cards("?", "?", "dog")) == 0
    assert pairs(cards("?", "?", "3", "3")) == 2


def test_bots_only_play_what_the_rules_accept_over_many_games() -> None:
    """Greedy and random at 2–4 seats, both lengths: every play is accepted."""
    for seed in range(40):
        players, floors = 2 + seed % 3, 4 + seed % 2
        game = Game([f"p{i}" for i in range(players)], floors, seed=seed)
        bots = [GreedyBot() if s % 2 == 0 else RandomBot() for s in range(players)]
        rng = random.Random(seed)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            action = bots[seat].choose(view, rng)
            assert action in view.legal
            try:
                game.apply(action)
            except IllegalPlay as exc:  # pragma: no cover - the failure message
                raise AssertionError(f"seed {seed}: {action} refused: {exc}") from None


def test_strong_with_fixed_simulations_is_deterministic() -> None:
    def game_of(seed: int) -> list[object]:
        game = Game(["a", "b"], 4, seed=seed)
        bots = [StrongBot(simulations=MIN_DEALS), GreedyBot()]
        rngs = [random.Random(1), random.Random(2)]
        while not game.over:
            seat = game.to_move
            assert seat is not None
            game.apply(bots[seat].choose(game.view(seat), rngs[seat]))
        return list(game.actions)

    assert game_of(3) == game_of(3)


def test_strong_keeps_roughly_to_its_time_per_move() -> None:
    """A generous bound (the machine is shared): never 20 times its budget
    plus a quarter second, on average within twice it plus 20 ms."""
    budget = 0.01
    game = Game(["a", "b", "c"], 5, seed=4)
    bots = [StrongBot(budget), GreedyBot(), GreedyBot()]
    rng = random.Random(4)
    spent: list[float] = []
    while not game.over and len(spent) < 60:
        seat = game.to_move
        assert seat is not None
        start = time.perf_counter()
        action = bots[seat].choose(game.view(seat), rng)
        if seat == 0:
            spent.append(time.perf_counter() - start)
        game.apply(action)
    assert spent and max(spent) < 20 * budget + 0.25
    assert sum(spent) / len(spent) < 2 * budget + 0.02


def test_opponents_are_dealt_the_cards_they_would_have_played_only_seldom() -> None:
    """Our open top floor [4, 5] faced the opponent all its turn: it holds no
    4 or 5 it could have stolen with, nor a thief or a jackhammer, most likely."""
    from collections import Counter

    from fivetowers.games.gotown.strong import Dealer, played_at_once

    game = table([["1", "1", "2"], ["3", "3", "3", "6", "6"]], towers=[[["4", "5"]], []],
                 draw=["2"] * 3)
    view = game.view(0)
    unlikely = played_at_once(view)
    assert {Card.FOUR, Card.FIVE, Card.THIEF, Card.JACKHAMMER} <= unlikely
    assert Card.WRECKING_BALL not in unlikely  # one floor: a wrecking ball waits
    dealer = Dealer(view)
    rng = random.Random(5)
    held: Counter[Card] = Counter()
    for _ in range(400):
        held += dealer.deal(rng).players[1].hand
    share = {c: held[c] / (400 * 5) for c in (Card.FOUR, Card.THIEF, Card.ONE, Card.EIGHT)}
    # dealt at random, a 4 (3 unseen) would be in its hand 3/4 as often as an
    # 8 (4 unseen); the model keeps 4s and thieves out most of the time
    assert share[Card.FOUR] < share[Card.EIGHT] / 4
    assert share[Card.THIEF] < share[Card.EIGHT] / 4
    # a guarded top floor can be neither stolen nor hammered: nothing to infer
    guarded = table([["1"], ["3"]], towers=[[["4", "5"]], []], dogs=[[0], []])
    assert Card.FOUR not in played_at_once(guarded.view(0))
    assert Card.JACKHAMMER not in played_at_once(guarded.view(0))


def test_strong_takes_an_open_steal_or_thief_without_searching() -> None:
    """A steal (a floor won, one taken) and a thief are the greedy play and
    are made at once: a search of a few deals would leave them by chance."""
    steal = table([["8", "2", "5", "milkshake"], ["3", "4", "6"]],
                  towers=[[["3", "6"]], [["2", "7"], ["1", "8"]]], draw=["2"] * 3)
    bot = StrongBot(simulations=30)
    assert bot.choose(steal.view(0), random.Random(0)) == Steal(0, Card.EIGHT, 1)
    assert bot.deals == 0
    thief = table([["thief", "1", "3", "milkshake"], ["3", "4", "6", "7"]],
                  towers=[[["3", "6"]], [["2", "7"]]], draw=["2"] * 3)
    bot = StrongBot(simulations=30)
    assert bot.choose(thief.view(0), random.Random(0)) == Thief(0, 1)
    assert bot.deals == 0


def test_strong_searches_only_with_the_deals_to_trust_it() -> None:
    """A pair to build or keep, heads-up: with fewer than MIN_DEALS deals
    coming (a fixed number, or a clock too short for them) the bot stops
    after one deal and plays greedy+'s play; with MIN_DEALS it searches them
    all. At three seats it searches whatever it has."""
    game = table([["1", "8", "2", "3", "4"], ["3", "4", "6", "6", "7"]],
                  towers=[[["3", "6"]], []], draw=["2"] * 5)
    view = game.view(0)
    expected = plus_play(game, random.Random(0))
    for bot in (StrongBot(simulations=MIN_DEALS - 1), StrongBot(time_per_move=1e-6)):
        assert bot.choose(view, random.Random(0)) == expected
        assert bot.deals == 1
    searching = StrongBot(simulations=MIN_DEALS)
    assert searching.choose(view, random.Random(0)) in view.legal
    assert searching.deals == MIN_DEALS
    # at three seats the search has its say with any number of deals
    three = table([["1", "8", "2", "3", "4"], ["3", "4", "6", "6", "7"], ["5", "5"]],
                  towers=[[["3", "6"]], [], []], draw=["2"] * 5)
    few = StrongBot(simulations=3)
    assert few.choose(three.view(0), random.Random(0)) in three.view(0).legal
    assert few.deals == 3


def test_strong_makes_a_winning_steal_at_once() -> None:
    """Four floors and an 8 for the 1 of the opponent's top: the steal wins
    now, before the milkshake is thought of."""
    game = table([["8", "4", "6", "milkshake"], ["3", "6"]],
                 towers=[FOUR, [["2", "7"], ["1", "8"]]], draw=["2"] * 3)
    bot = StrongBot(simulations=30)
    action = bot.choose(game.view(0), random.Random(0))
    assert action == Steal(0, Card.EIGHT, 1) and bot.deals == 0
    game.apply(action)
    assert game.over and game.winners == (0,)


def test_strong_heads_up_plays_greedy_plus_when_its_clock_ends_before_min_deals(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The forecast after the first deal is only a forecast: on a busy
    machine the clock can run out a few deals later. Heads-up, a search that
    ends short of MIN_DEALS deals is noise, so the bot plays greedy+'s play."""
    from fivetowers.games.gotown import strong

    class Preempted:
        """Microseconds a call, then a jump past any deadline: the process
        lost the processor after the forecast, a deal past it."""

        def __init__(self) -> None:
            self.calls = 0

        def __call__(self) -> float:
            self.calls += 1
            # the deadline, the start, a loop check a deal, the forecast
            return self.calls * 1e-6 + (1.0 if self.calls > 3 + strong.FORECAST_DEALS else 0.0)

    searched = 0
    for seed in range(4):
        game = Game(["a", "b"], 5, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            if len(view.legal) > 1:
                expected = StrongBot(search=False).choose(view, random.Random(len(game.actions)))
                bot = StrongBot(0.05)
                monkeypatch.setattr(strong.time, "perf_counter", Preempted())
                chosen = bot.choose(view, random.Random(len(game.actions)))
                monkeypatch.undo()
                assert chosen == expected, (seed, len(game.actions))
                searched += bot.deals == strong.FORECAST_DEALS + 1
            game.apply_trusted(plus_play(game, rng))
    assert searched > 20
