"""The strong bot's search design (strong.Search): its variants do what they
say, and the arena that measures them builds them from the command line."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from fivetowers.games.gotown.rules import Card, Game, Steal
from fivetowers.games.gotown.strong import HEADS_UP_SEARCH, Search, StrongBot, score

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


def test_the_arena_builds_a_design_from_its_option() -> None:
    import importlib.util
    from tests.conftest import ROOT

    spec = importlib.util.spec_from_file_location(
        "gotown_search_arena", ROOT / "scripts" / "gotown_search_arena.py")
    assert spec is not None and spec.loader is not None
    arena = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(arena)
    design = arena.design_from("rounds=4,sure=1.0,steals=True", HEADS_UP_SEARCH)
    assert isinstance(design, Search)
    assert (design.rounds, design.sure, design.steals) == (4, 1.0, True)
    assert design.width == HEADS_UP_SEARCH.width
    with pytest.raises(SystemExit, match="unknown design field"):
        arena.design_from("depth=3", HEADS_UP_SEARCH)
    won, searched, deals, _ = arena.play((1, 0, 2, 2, replace(HEADS_UP_SEARCH, min_deals=0)))
    assert isinstance(won, bool) and searched > 0 and deals == 2 * searched
