"""The round, bidding, run-outs and refusals (RULES.md A3, A4)."""

from __future__ import annotations

import pytest

from fivetowers.games.five_towers.rules import (
    Bid, Build, GameOver, IllegalBid, IllegalBuild, NotYourTurn, Pass, Phase, Step, TowerType,
    Variant, card, cards, result_json,
)
from fivetowers.games.five_towers.rules.game import BidEvent

from tests.rules.arrange import arranged

DISPLAY = ["candy-11", "scary-3", "tree-5", "scrap-12", "sand-1"]


def test_first_round_reveals_five() -> None:
    game = arranged(["A", "B", "C"], DISPLAY)
    assert game.round == 1 and game.display == cards(DISPLAY)
    assert game.phase is Phase.BID and game.to_move == 0 and game.legal_bids() == [0, 1, 2, 3, 4, 5]
    assert not game.may_pass()


def test_starter_cannot_pass_and_raises_must_be_strict() -> None:
    game = arranged(["A", "B", "C"], DISPLAY)
    with pytest.raises(IllegalBid, match="cannot pass"):
        game.apply(Pass(0))
    game.apply(Bid(0, 2))
    with pytest.raises(IllegalBid, match="raise"):
        game.apply(Bid(1, 2))
    with pytest.raises(NotYourTurn, match="B's turn to bid"):
        game.apply(Bid(2, 3))
    with pytest.raises(NotYourTurn, match="no seat 7"):
        game.apply(Bid(7, 3))
    assert game.legal_bids() == [3, 4, 5]


def test_refused_actions_change_nothing() -> None:
    game = arranged(["A", "B"], DISPLAY, boards={1: {"candy": [4]}})
    before = (result_json(game), game.view(0), game.view(1))
    for bad in (Pass(0), Bid(1, 1), Bid(0, 6), Build(0, (), ())):
        with pytest.raises((IllegalBid, NotYourTurn)):
            game.apply(bad)
    assert (result_json(game), game.view(0), game.view(1)) == before
    game.apply(Bid(0, 1))
    game.apply(Pass(1))
    mid = (result_json(game), game.view(0), game.view(1))
    bad_builds = [
        Build(0, (card("candy-11"), card("sand-1")), (Step(card("candy-11")), Step(card("sand-1")))),
        Build(0, (card("candy-10"),), (Step(card("candy-10")),)),
        Build(0, (card("candy-11"),), ()),
        Build(0, (card("candy-11"),), (Step(card("sand-1")),)),
        Build(0, (card("candy-11"),), (Step(card("candy-11")),), teardown=TowerType.CANDY),
        Build(0, (card("candy-11"),), (Step(card("candy-11")),), pay=1),
    ]
    for bad_build in bad_builds:
        with pytest.raises(IllegalBuild):
            game.apply(bad_build)
    assert (result_json(game), game.view(0), game.view(1)) == mid
    game.apply(Build(0, (card("candy-11"),), (Step(card("candy-11")),)))
    assert game.players[0].board.towers[TowerType.CANDY] == [11]


def test_bid_zero_round_keeps_the_starter() -> None:
    game = arranged(["A", "B", "C"], DISPLAY, starter=1)
    game.apply(Bid(1, 0))
    game.apply(Pass(2))
    game.apply(Pass(0))
    assert game.round == 2 and game.starter == 1 and game.to_move == 1
    assert game.discard == cards(DISPLAY)
    assert any(e.kind == "no-build" for e in game.log)


def test_a_raise_over_zero_builds() -> None:
    game = arranged(["A", "B"], DISPLAY)
    game.apply(Bid(0, 0))
    game.apply(Bid(1, 1))
    assert game.phase is Phase.BUILD and game.to_move == 1
    game.apply(Build(1, (card("tree-5"),), (Step(card("tree-5")),)))
    assert game.starter == 0 and game.to_move == 0  # left of the builder, wrapping
    assert card("candy-11") in game.discard and card("tree-5") not in game.discard


def test_player_with_no_legal_raise_is_passed_automatically() -> None:
    # B's candy tower is topped and the display is all candy: B can bid 0 at most.
    display = ["candy-11", "candy-9", "candy-5", "candy-3", "candy-1"]
    game = arranged(["A", "B", "C"], display, boards={1: {"candy": [2, 0]}})
    game.apply(Bid(0, 1))
    assert game.to_move == 2
    assert game.bids == [BidEvent(0, 1), BidEvent(1, None, auto=True)]
    assert any(e.kind == "auto-pass" and e.seat == 1 for e in game.log)


def test_teardown_may_empty_a_tower_rebuilt_in_the_same_step() -> None:
    game = arranged(["A", "B"], DISPLAY, boards={0: {"candy": [3]}})
    game.apply(Bid(0, 1))
    game.apply(Pass(1))
    game.apply(Build(0, (card("candy-11"),), (Step(card("candy-11")),), teardown=TowerType.CANDY))
    assert game.players[0].board.towers[TowerType.CANDY] == [11]
    assert game.players[0].board.teardown == [card("candy-3")]
    assert game.score(0).teardown == -1


def test_teardown_not_needed_is_allowed_but_never_a_zero() -> None:
    game = arranged(["A", "B"], DISPLAY, boards={0: {"scary": [9, 0], "sand": [4]}})
    game.apply(Bid(0, 1))
    game.apply(Pass(1))
    with pytest.raises(IllegalBuild, match="tower top"):
        game.apply(Build(0, (card("candy-11"),), (Step(card("candy-11")),), teardown=TowerType.SCARY))
    with pytest.raises(IllegalBuild, match="no tree tower"):
        game.apply(Build(0, (card("candy-11"),), (Step(card("candy-11")),), teardown=TowerType.TREE))
    game.apply(Build(0, (card("candy-11"),), (Step(card("candy-11")),), teardown=TowerType.SAND))
    assert game.players[0].board.towers[TowerType.SAND] == []


def test_zero_starts_a_tower_and_ends_it() -> None:
    game = arranged(["A", "B"], ["candy-0", "candy-9", "tree-1", "tree-2", "sand-3"])
    game.apply(Bid(0, 2))
    game.apply(Pass(1))
    with pytest.raises(IllegalBuild, match="tower top"):
        game.apply(Build(0, tuple(cards(["candy-0", "candy-9"])),
                         (Step(card("candy-0")), Step(card("candy-9")))))
    game.apply(Build(0, tuple(cards(["candy-0", "tree-1"])),
                     (Step(card("candy-0")), Step(card("tree-1")))))
    assert game.score(0).towers == 2 + 1


def test_first_run_out_reshuffles_the_discard_pile() -> None:
    game = arranged(["A", "B"], DISPLAY)
    rounds = 0
    while game.pass_number == 1:
        game.apply(Bid(game.starter, 0))
        for _ in range(game.player_count - 1):
            if game.phase is Phase.BID and game.round == rounds + 1:
                game.apply(Pass(game.to_move))  # type: ignore[arg-type]
        rounds += 1
    # 80 cards, nothing built: 16 rounds, then all 80 form the new deck.
    assert rounds == 16 and game.round == 17
    assert game.runouts == 1 and len(game.draw) == 75 and game.discard == []
    assert game.reshuffle is not None and sorted(game.reshuffle) == sorted(game.initial_deck)


def test_second_run_out_ends_the_game_with_a_short_final_display() -> None:
    game = arranged(["A", "B"], DISPLAY)
    game.draw = game.draw[:2]  # pretend the second deck is nearly used up
    game.runouts, game.reshuffle = 1, []
    game.apply(Bid(0, 0))
    game.apply(Pass(1))
    assert len(game.display) == 2 and game.draw == [] and game.final_round
    assert game.legal_bids() == [0, 1, 2]
    game.apply(Bid(0, 2))
    assert game.phase is Phase.BUILD  # B cannot raise past 2
    take = tuple(game.display)
    high_first = sorted(take, key=lambda c: -c.value)
    game.apply(Build(0, take, tuple(Step(c) for c in high_first)))
    assert game.is_terminal() and game.to_move is None and game.display == []
    with pytest.raises(GameOver):
        game.apply(Bid(1, 0))


def test_empty_reshuffle_ends_the_game() -> None:
    # The last round of the first pass: every discarded card was built, and
    # this round's winner takes the whole display, so nothing is left to shuffle.
    game = arranged(["A", "B"], DISPLAY)
    game.draw, game.discard = [], []
    game.runouts = 1
    game.apply(Bid(0, 5))
    take = tuple(game.display)
    game.apply(Build(0, take, tuple(Step(c) for c in take)))
    assert game.is_terminal()
    assert game.reshuffle == [] and game.round == 1


def test_outcome_ties_share_the_victory() -> None:
    game = arranged(["A", "B", "C"], DISPLAY)
    assert game.outcome().winners == (0, 1, 2)
    assert game.returns() == [1.0, 1.0, 1.0]


def test_views_hide_other_teardown_piles() -> None:
    game = arranged(["A", "B"], DISPLAY, boards={0: {"candy": [14]}, 1: {}},
                    piles={0: ["candy-9"], 1: ["sand-4", "tree-2"]})
    mine, theirs, spectator = game.view(0), game.view(1), game.view(None)
    assert mine.own_teardown == (card("candy-9"),)
    assert theirs.own_teardown == (card("sand-4"), card("tree-2"))
    assert spectator.own_teardown == ()
    assert [s.teardown_count for s in mine.seats] == [1, 2]
    # A's unseen cards include B's pile but not A's own.
    assert mine.unseen()[card("sand-4")] == 1 and mine.unseen()[card("candy-9")] == 0
    assert sum(mine.unseen().values()) == len(game.draw) + 2
    assert mine.legal_bids and not theirs.legal_bids


def test_variant_is_kept() -> None:
    game = arranged(["A", "B"], DISPLAY, variant=Variant.GREAT_POWERS)
    assert game.view(None).variant is Variant.GREAT_POWERS


def test_a_restored_seeded_game_reshuffles_as_the_original() -> None:
    from fivetowers.games.five_towers.rules import Game, Record, replay

    original = Game(["A", "B"], seed=99)
    for _ in range(16):  # nobody builds: the first pass ends after 16 rounds
        original.apply(Bid(original.starter, 0))
        original.apply(Pass(1 - original.starter))
        if original.round == 16:
            restored, error = replay(Record.from_game(original))
            assert error is None and restored.reshuffle is None
    restored.apply(Bid(restored.starter, 0))
    restored.apply(Pass(1 - restored.starter))
    assert original.reshuffle is not None and restored.reshuffle == original.reshuffle


def test_taking_a_card_not_in_the_display_names_it() -> None:
    game = arranged(["A", "B"], DISPLAY)
    game.apply(Bid(0, 2))
    game.apply(Pass(1))
    with pytest.raises(IllegalBuild, match="^candy-1 is not in the display$"):
        game.apply(Build(0, (card("candy-11"), card("candy-1")),
                         (Step(card("candy-11")), Step(card("candy-1")))))


def test_a_seats_view_from_the_watchers_is_its_own_view() -> None:
    # Hosted tables make the watcher's view once a move and each seat's from
    # it (games/five_towers/client.py): at every step of whole games, the
    # same view as the seat's own, for every seat and both variants.
    import random

    from fivetowers.games.five_towers.rules import Game
    from fivetowers.games.five_towers.rules.view import seat_view_of, view_of
    from tests.rules.randomplay import random_action

    for seed, variant in ((1, Variant.BASE), (2, Variant.GREAT_POWERS)):
        rng = random.Random(seed)
        game = Game(["A", "B", "C", "D"], variant, seed=seed)
        steps = 0
        while True:
            watched = view_of(game, None)
            for seat in (None, 0, 1, 2, 3):
                assert seat_view_of(watched, game, seat) == view_of(game, seat)
            if game.is_terminal():
                break
            game.apply(random_action(game, rng))
            steps += 1
        assert steps > 20
