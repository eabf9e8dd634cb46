"""The strong bot's search design (strong.Search): its variants do what they
say, and the arena that measures them builds them from the command line."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from fivetowers.games.gotown.rules import (
    Bone, Build, Card, Dog, DonutTruck, End, Game, Steal, WreckingBall,
)
from fivetowers.games.gotown.strong import HEADS_UP_SEARCH, Dealer, Search, StrongBot, finish_turn, score

from tests.conftest import script_module
from tests.gotown.arrange import table

PAIR = ([["1", "8", "2", "3", "4"], ["3", "4", "6", "6", "7"]], [[["3", "6"]], []])


def test_a_search_design_is_kept_per_table_size() -> None:
    """The heads-up design (and its fewest deals) applies at a table of two
    only: with min_deals 0 heads-up the bot searches its 3 deals."""
    hands, towers = PAIR
    view = table(hands, towers=towers, draw=["2"] * 5).view(0)
    default = StrongBot(simulations=3)
    default.choose(view, random.Random(0))
    assert default.deals == 1  # fewer than MIN_DEALS: greedy+ after one deal
    eager = StrongBot(simulations=3, heads_up=replace(HEADS_UP_SEARCH, min_deals=0))
    assert eager.choose(view, random.Random(0)) in view.legal
    assert eager.deals == 3


def test_plays_clearly_worse_are_dropped_after_drop_after_deals() -> None:
    """Over positions of real games, a search that drops the plays searched
    worse than greedy+'s after its first deal plays fewer playouts than the
    same search on the same deals without it, and only legal plays."""
    keep = replace(HEADS_UP_SEARCH, min_deals=0)
    drop = replace(keep, drop_after=1)
    fewer = 0
    game = Game(["a", "b"], 5, seed=11)
    while not game.over and game.turn < 30:
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        full, dropping = StrongBot(simulations=6, heads_up=keep), \
            StrongBot(simulations=6, heads_up=drop)
        action = full.choose(view, random.Random(game.turn))
        assert dropping.choose(view, random.Random(game.turn)) in view.legal
        assert dropping.playouts <= full.playouts
        fewer += dropping.playouts < full.playouts
        game.apply(action)
    assert fewer > 0


def test_steals_are_searched_only_when_the_design_says_so() -> None:
    steal = table([["8", "2", "5", "milkshake"], ["3", "4", "6"]],
                  towers=[[["3", "6"]], [["2", "7"], ["1", "8"]]], draw=["2"] * 3)
    at_once = StrongBot(simulations=4, heads_up=replace(HEADS_UP_SEARCH, min_deals=0))
    assert at_once.choose(steal.view(0), random.Random(0)) == Steal(0, Card.EIGHT, 1)
    assert at_once.deals == 0
    searching = StrongBot(simulations=4, heads_up=replace(HEADS_UP_SEARCH, min_deals=0,
                                                          steals=True))
    assert searching.choose(steal.view(0), random.Random(0)) in steal.view(0).legal
    assert searching.deals == 4


def test_the_score_counts_cards_in_hand_when_the_design_does() -> None:
    game = table([["1", "2", "3", "4"], ["5"]], towers=[[["3", "6"]], [["2", "7"]]])
    plain = score(game, 0, HEADS_UP_SEARCH)
    assert plain == pytest.approx(0.5)  # level towers, no pairs: even
    counting = score(game, 0, replace(HEADS_UP_SEARCH, per_card=0.1))
    assert counting == pytest.approx(0.5 + 0.4 * (0.1 * 4 - 0.1 * 1) / 5)


def _arena() -> Any:
    """scripts/gotown_search_arena.py as a module."""
    return script_module("gotown_search_arena")


def test_the_arena_builds_a_design_from_its_option() -> None:
    arena = _arena()
    design = arena.design_from("rounds=4,sure=1.0,steals=True", HEADS_UP_SEARCH)
    assert isinstance(design, Search)
    assert (design.rounds, design.sure, design.steals) == (4, 1.0, True)
    assert design.width == HEADS_UP_SEARCH.width
    with pytest.raises(SystemExit, match="unknown design field"):
        arena.design_from("depth=3", HEADS_UP_SEARCH)
    eager = replace(HEADS_UP_SEARCH, min_deals=0)
    fixed = (0.0, 0.0, 1.0, "", False)  # no model clock: the fixed deals; no peeking
    index, won, searched, deals, playouts, cpu, in_time, judged, whys, searches, _, _ = \
        arena.play((1, 0, 2, 2, eager, 100.0, 0, *fixed))
    assert index == 0
    assert isinstance(won, bool) and searched > 0 and deals == 2 * searched
    assert cpu > 0 and in_time == searched  # 100 s a move: every search in time
    # at no time a move none is; the same game, the same searches
    assert judged == []  # no departures judged unless asked
    # judging them leaves the game as it was played, and judges some
    assert whys["searched"] == searched and searches == [(2, 1.0)] * searched
    judging = arena.play((1, 0, 2, 2, eager, 100.0, 2, *fixed))
    assert judging[:5] == (index, won, searched, deals, playouts) and judging[7]
    assert all("->" in kind and -1.0 <= gained <= 1.0 and gained ** 2 <= square <= 1.0
               for kind, gained, square in judging[7])
    assert arena.play((1, 0, 2, 2, eager, 0.0, 0, *fixed))[2:7:4] == (searched, 0)


def test_the_arena_peeks_at_the_hidden_cards_only_when_asked() -> None:
    """``--peek all`` deals the game as it is; ``--peek hands`` the true
    hands with the draw pile shuffled again; ``--by-hand`` names the hand."""
    arena = _arena()
    game = Game(["a", "b"], 5, seed=7)
    truth = arena.peeking(game, "all")(random.Random(1))
    assert truth.draw == game.draw and truth is not game
    assert [p.hand for p in truth.players] == [p.hand for p in game.players]
    hands = arena.peeking(game, "hands")(random.Random(1))
    assert [p.hand for p in hands.players] == [p.hand for p in game.players]
    assert Counter(hands.draw) == Counter(game.draw) and hands.draw != game.draw
    full = table([["1", "2", "3", "4", "5", "6", "7", "8"], ["5"]])
    assert arena.hand_class(full.view(0)) == "hand8+"
    assert arena.hand_class(table([["1", "dog", "3", "4"], ["5"]]).view(0)) == "dog"
    assert arena.hand_class(table([["1", "2"], ["5"]]).view(0)) == "hand<=3"
    eager = replace(HEADS_UP_SEARCH, min_deals=0)
    peeked = arena.play((1, 0, 2, 2, eager, 100.0, 2, 0.0, 0.0, 1.0, "hands", True))
    assert peeked[7] and all(kind.rsplit(" ", 1)[1] in ("hand<=3", "hand8+", "dog", "hand4-7")
                             for kind, _, _ in peeked[7])


def test_the_score_counts_a_steal_ready_when_the_design_does() -> None:
    """A 6 in hand takes the 3 of an open top (3, 6): with ``stealer`` that
    hand counts part of a floor more; a dog on that top takes it away."""
    game = table([["6", "1"], ["5"]], towers=[[["2", "7"]], [["3", "6"]]])
    ready = replace(HEADS_UP_SEARCH, stealer=0.5)
    assert score(game, 0, HEADS_UP_SEARCH) == pytest.approx(0.5)
    assert score(game, 0, ready) == pytest.approx(0.5 + 0.4 * 0.5 / 5)
    assert score(game, 1, ready) == pytest.approx(0.5 - 0.4 * 0.5 / 5)
    game.players[1].dogs = {0}
    assert score(game, 0, ready) == pytest.approx(0.5 - 0.4 * HEADS_UP_SEARCH.protected / 5)


HOLD = ([["jackhammer", "1", "8", "4", "dog"], ["3", "4", "6"]], [[["3", "6"]], [["2", "7"]]])


def test_holding_back_plays_the_rest_of_the_turn_without_greedy_plus_cards() -> None:
    """Greedy+ builds 1+8 here; the plan held back keeps the pair for a later
    turn and starts with what greedy+ plays without it (the dog), and its
    playout does keep the pair: at the end of this turn the tower has one
    floor and the pair is still in hand."""
    hands, towers = HOLD
    view = table(hands, towers=towers, draw=["2"] * 5).view(0)
    bot = StrongBot(heads_up=replace(HEADS_UP_SEARCH, min_deals=0, hold=True))
    dealer = Dealer(view)
    greedy = bot.default(view, dealer, random.Random(0))
    assert greedy == Build(0, (Card.ONE, Card.EIGHT))
    plan = bot.held_back(greedy, dealer)
    assert plan == (Dog(0, 0), Counter({Card.ONE: 1, Card.EIGHT: 1}))
    deal = dealer.deal(random.Random(3))
    game = deal.clone()
    game.apply(Dog(0, 0))
    finish_turn(game, 0, plan[1], random.Random(4))
    assert game.to_move == 1 and len(game.players[0].floors) == 1
    assert game.players[0].hand[Card.ONE] == game.players[0].hand[Card.EIGHT] == 1
    game = deal.clone()
    game.apply(Dog(0, 0))
    finish_turn(game, 0, Counter(), random.Random(4))
    assert len(game.players[0].floors) == 2  # greedy+ alone builds it
    assert deal.players[0].hand == Counter(view.hand)  # the deal itself untouched


def test_the_held_back_plan_is_searched_in_third_place_when_the_design_says_so() -> None:
    hands, towers = HOLD
    view = table(hands, towers=towers, draw=["2"] * 5).view(0)
    plain = StrongBot(simulations=4, heads_up=replace(HEADS_UP_SEARCH, min_deals=0))
    holding = StrongBot(simulations=4, heads_up=replace(HEADS_UP_SEARCH, min_deals=0,
                                                        hold=True, width=4))
    assert holding.choose(view, random.Random(0)) in view.legal
    plain.choose(view, random.Random(0))
    assert holding.playouts == plain.playouts + 4  # one plan more on each of 4 deals


def test_the_arena_pairs_two_designs_game_by_game(tmp_path: Path) -> None:
    arena = _arena()
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("0 1\n1 1\n2 0\n3 1\n", encoding="utf-8")
    b.write_text("0 1\n1 0\n2 0\n4 1\n", encoding="utf-8")
    assert arena.read_wins(str(a)) == {0: True, 1: True, 2: False, 3: True}
    text = arena.paired(arena.read_wins(str(a)), arena.read_wins(str(b)))
    assert text == "3 games: A won 2, B 1; only A 1, only B 0; sign test p = 1.000"
    eight = {i: True for i in range(8)}
    none = {i: False for i in range(8)}
    assert arena.paired(eight, none).endswith("only A 8, only B 0; sign test p = 0.008")


# Bình is one floor from winning; greedy+ plays the donut truck first, and
# the three plays searched heads-up (it, ending the turn, building 1+8)
# leave out the wrecking ball on Bình's top.
NEAR_WIN = ([["1", "8", "wrecking-ball", "donut-truck", "2", "6"], ["3", "4", "6"]],
            [[], [["2", "7"], ["1", "8"], ["3", "6"], ["4", "5"]]])


def test_the_play_against_a_rival_near_its_win_is_searched_when_the_design_says_so() -> None:
    hands, towers = NEAR_WIN
    view = table(hands, towers=towers, draw=["2"] * 5).view(0)
    assert StrongBot.defence(view, 1) == WreckingBall(0, 1)
    assert StrongBot.defence(view, 0) is None  # one floor off is not within 0
    plain = StrongBot(simulations=4, heads_up=replace(HEADS_UP_SEARCH, min_deals=0))
    defending = StrongBot(simulations=4, heads_up=replace(HEADS_UP_SEARCH, min_deals=0,
                                                          defend=1))
    assert WreckingBall(0, 1) not in plain.candidates(view, DonutTruck(0), plain.heads_up)
    assert plain.choose(view, random.Random(0)) in view.legal
    assert defending.choose(view, random.Random(0)) in view.legal
    assert defending.playouts == plain.playouts + 4  # the wrecking ball on each of 4 deals


def test_a_rival_one_floor_from_winning_needs_only_the_critical_deals() -> None:
    """With 10 deals a decision, MIN_DEALS 30 keeps the search silent; with
    critical_deals 10 it searches where Bình is one floor from winning, and
    still not where no rival is that near."""
    hands, towers = NEAR_WIN
    near = table(hands, towers=towers, draw=["2"] * 5).view(0)
    far = table(*PAIR[:1], towers=PAIR[1], draw=["2"] * 5).view(0)
    critical = replace(HEADS_UP_SEARCH, critical_deals=10)
    for view, deals in ((near, 10), (far, 1)):
        bot = StrongBot(simulations=10, heads_up=critical)
        assert bot.choose(view, random.Random(0)) in view.legal
        assert bot.deals == deals
        silent = StrongBot(simulations=10)
        silent.choose(view, random.Random(0))
        assert silent.deals == 1


def test_the_arena_judges_a_departure_on_the_true_state() -> None:
    """Both towers are one floor from winning and each hand holds its last
    floor: building wins now, ending the turn lets Bình build and win, on
    every shuffle of the draw pile."""
    arena = _arena()
    game = table([["1", "8", "2"], ["4", "5", "3"]],
                 towers=[[["2", "7"]] * 4, [["3", "6"]] * 4], draw=["6", "7", "1", "8"])
    view = game.view(0)
    build, end = Build(0, (Card.ONE, Card.EIGHT)), End(0)
    assert arena.judge(game, view, end, build, 3) == (1.0, 1.0)
    assert arena.judge(game, view, build, end, 3) == (-1.0, 1.0)
    assert arena.judge(game, view, end, end, 3) == (0.0, 0.0)
    assert len(game.actions) == 0 and game.to_move == 0  # the game itself untouched
    text = arena.departures_table([("End->Build", 1.0, 1.0), ("End->Build", 0.0, 0.0),
                                   ("Dog->End", -0.5, 0.5)], 3)
    assert "End->Build                       2 departures, wins gained +0.500 (se 0.500)" in text
    assert "all                              3 departures, wins gained +0.167" in text


def test_the_playouts_run_to_the_end_only_near_it_when_the_design_says_so() -> None:
    """Bình is one floor from winning: with to_end 1 the playouts run
    end_rounds rounds; with to_end 0, or where nobody is that near, the
    design's rounds."""
    hands, towers = NEAR_WIN
    near = table(hands, towers=towers, draw=["2"] * 5).view(0)
    far = table(*PAIR[:1], towers=PAIR[1], draw=["2"] * 5).view(0)
    ending = replace(HEADS_UP_SEARCH, to_end=1, end_rounds=40)
    assert StrongBot.near_end(near, ending).rounds == 40
    assert StrongBot.near_end(far, ending).rounds == HEADS_UP_SEARCH.rounds
    assert StrongBot.near_end(near, HEADS_UP_SEARCH) is HEADS_UP_SEARCH
    bot = StrongBot(simulations=4, heads_up=replace(ending, min_deals=0))
    assert bot.choose(near, random.Random(0)) in near.legal


def test_ending_the_turn_is_not_searched_against_greedy_plus_bone_when_the_design_says_so() -> None:
    """Bình's top floor has a dog and An holds a bone: greedy+ bones it;
    with keep_attacks, ending the turn is not among the plays searched."""
    view = table([["bone", "1", "3"], ["2", "5"]], towers=[[], [["4", "5"], ["3", "6"]]],
                 dogs=[[], [1]], draw=["2"] * 5).view(0)
    bot = StrongBot(simulations=1)
    greedy = bot.default(view, Dealer(view), random.Random(0))
    assert isinstance(greedy, Bone)
    assert End(0) in bot.candidates(view, greedy, HEADS_UP_SEARCH)
    keeping = replace(HEADS_UP_SEARCH, keep_attacks=True)
    assert End(0) not in bot.candidates(view, greedy, keeping)
