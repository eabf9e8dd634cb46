"""The rulebook's own examples (seeds/5towers-rulebook-en.txt), as RULES.md rules them."""

from __future__ import annotations

import pytest

from fivetowers.games.five_towers.rules import (
    Bid, Build, End, IllegalBid, IllegalBuild, Pass, Phase, Source, Step, TowerType, Variant,
    card, cards,
)
from fivetowers.games.five_towers.rules.game import BidEvent

from tests.rules.arrange import arranged

ANNI_DISPLAY = ["sand-7", "candy-3", "tree-5", "scary-12", "scrap-1"]


def test_bidding_example_bid_of_five_ends_bidding() -> None:
    # Hedda bids 3, Peter passes, Anni bids 5: Lina gets no chance.
    game = arranged(["Hedda", "Peter", "Anni", "Lina"], ANNI_DISPLAY)
    game.apply(Bid(0, 3))
    game.apply(Pass(1))
    game.apply(Bid(2, 5))
    assert game.phase is Phase.BUILD and game.to_move == 2
    assert game.bids[-1] == BidEvent(3, None, auto=True)


def test_anni_tears_down_the_six_to_build_all_five() -> None:
    game = arranged(["Hedda", "Anni"], ANNI_DISPLAY, boards={1: {"sand": [6]}}, starter=1)
    assert game.max_bid(1) == 5
    game.apply(Bid(1, 5))
    take = cards(ANNI_DISPLAY)
    build = Build(1, tuple(take), tuple(Step(c) for c in take), teardown=TowerType.SAND)
    game.apply(build)
    board = game.players[1].board
    assert board.towers[TowerType.SAND] == [7]
    assert board.teardown == [card("sand-6")]
    assert game.starter == 0  # the player to the left of the builder starts next


def test_anni_cannot_bid_five_with_sand_six_four() -> None:
    game = arranged(["Hedda", "Anni"], ANNI_DISPLAY, boards={1: {"sand": [6, 4]}}, starter=1)
    assert game.max_bid(1) == 4
    with pytest.raises(IllegalBid, match="at most 4"):
        game.apply(Bid(1, 5))
    assert game.bids == [] and game.to_move == 1  # nothing changed
    game.apply(Bid(1, 4))
    assert game.to_move == 0 and game.legal_bids() == [5]


def test_tree_power_bid_six_takes_four_pays_two() -> None:
    display = ["candy-5", "scary-4", "sand-3", "scrap-2", "candy-1"]
    game = arranged(["A", "B"], display, boards={0: {"tree": [15, 14, 13]}},
                    variant=Variant.GREAT_POWERS)
    assert game.max_bid(0) == 8  # 5 cards + 3 tree cards
    game.apply(Bid(0, 6))  # B cannot raise past 5: passed automatically
    assert game.bids[-1] == BidEvent(1, None, auto=True)
    take = cards(display[:4])
    game.apply(Build(0, tuple(take), tuple(Step(c) for c in take), pay=2))
    assert game.players[0].board.towers[TowerType.TREE] == [15]
    assert game.discard[:2] == cards(["tree-13", "tree-14"])
    assert card("candy-1") in game.discard


def test_tree_payer_takes_no_tree_card() -> None:
    display = ["candy-5", "tree-4", "sand-3", "scrap-2", "candy-1"]
    game = arranged(["A", "B"], display, boards={0: {"tree": [15, 14, 13]}},
                    variant=Variant.GREAT_POWERS)
    game.apply(Bid(0, 6))
    take = cards(["candy-5", "tree-4", "sand-3", "scrap-2"])
    with pytest.raises(IllegalBuild, match="no tree card"):
        game.apply(Build(0, tuple(take), tuple(Step(c) for c in take), pay=2))


def test_tree_with_a_tower_top_cannot_pay() -> None:
    # tree-5 cannot go onto the tree's tower top, and the tree cannot pay.
    game = arranged(["A", "B"], ANNI_DISPLAY, boards={0: {"tree": [15, 0]}},
                    variant=Variant.GREAT_POWERS)
    assert game.max_bid(0) == 4


def test_scrap_power_rebuilds_the_card_just_torn_down() -> None:
    display = ["candy-11", "scrap-15", "sand-9", "tree-9", "scary-9"]
    game = arranged(["A", "B"], display, boards={0: {"candy": [14, 10]}},
                    variant=Variant.GREAT_POWERS)
    game.apply(Bid(0, 2))
    game.apply(Pass(1))
    steps = (Step(card("candy-11")), Step(card("scrap-15")),
             Step(card("candy-10"), source=Source.TEARDOWN))
    game.apply(Build(0, tuple(cards(["candy-11", "scrap-15"])), steps, teardown=TowerType.CANDY))
    board = game.players[0].board
    assert board.towers[TowerType.CANDY] == [14, 11, 10]
    assert board.teardown == []
    assert game.score(0).teardown == 0


def test_scrap_rebuild_only_right_after_a_scrap_card() -> None:
    display = ["candy-11", "scrap-15", "sand-9", "tree-9", "scary-9"]
    game = arranged(["A", "B"], display, boards={0: {"candy": [14, 10]}},
                    variant=Variant.GREAT_POWERS)
    game.apply(Bid(0, 2))
    game.apply(Pass(1))
    steps = (Step(card("scrap-15")), Step(card("candy-11")),
             Step(card("candy-10"), source=Source.TEARDOWN))
    with pytest.raises(IllegalBuild, match="right after a scrap card"):
        game.apply(Build(0, tuple(cards(["candy-11", "scrap-15"])), steps,
                         teardown=TowerType.CANDY))
    assert game.players[0].board.towers[TowerType.CANDY] == [14, 10]


def test_rebuilt_scrap_card_triggers_again() -> None:
    display = ["scrap-15", "sand-9", "tree-9", "scary-9", "candy-9"]
    game = arranged(["A", "B"], display, boards={0: {"candy": [14, 11]}},
                    piles={0: ["scrap-12", "candy-10"]}, variant=Variant.GREAT_POWERS)
    game.apply(Bid(0, 1))
    game.apply(Pass(1))
    steps = (Step(card("scrap-15")), Step(card("scrap-12"), source=Source.TEARDOWN),
             Step(card("candy-10"), source=Source.TEARDOWN))
    game.apply(Build(0, (card("scrap-15"),), steps))
    board = game.players[0].board
    assert board.towers[TowerType.SCRAP] == [15, 12]
    assert board.towers[TowerType.CANDY] == [14, 11, 10]
    assert board.teardown == []


def test_scrap_rebuild_lets_more_cards_stand() -> None:
    # candy top 3: candy-5 only fits after rebuilding candy-9 onto the 3.
    display = ["scrap-15", "candy-5", "sand-9", "tree-9", "scary-9"]
    game = arranged(["A", "B"], display, boards={0: {"candy": [14, 3]}},
                    piles={0: ["candy-9"]}, variant=Variant.GREAT_POWERS)
    game.apply(Bid(0, 2))
    game.apply(Pass(1))
    steps = (Step(card("scrap-15")), Step(card("candy-9"), source=Source.TEARDOWN),
             Step(card("candy-5")))
    game.apply(Build(0, tuple(cards(["scrap-15", "candy-5"])), steps))
    assert game.players[0].board.towers[TowerType.CANDY] == [14, 3, 9, 5]


def test_sand_example_one_end_per_round() -> None:
    display = ["sand-4", "sand-8", "sand-12", "tree-9", "scary-9"]
    game = arranged(["A", "B"], display, boards={0: {"sand": [11, 7, 6]}},
                    variant=Variant.GREAT_POWERS)
    # 12 and 8 to the bottom, or the 4 to the top; never all three.
    game.apply(Bid(0, 2))
    game.apply(Pass(1))
    bottom = (Step(card("sand-12"), End.BOTTOM), Step(card("sand-8"), End.BOTTOM))
    s = game.build_session()
    s.choose(cards(["sand-12", "sand-8"]))
    for step in bottom:
        s.place(step)
    assert s.board.towers[TowerType.SAND] == [8, 12, 11, 7, 6]
    s.undo()
    s.undo()
    s.place(Step(card("sand-8"), End.BOTTOM))  # the 8's special role: 12 goes under it too
    s.place(Step(card("sand-12"), End.BOTTOM))
    assert s.board.towers[TowerType.SAND] == [12, 8, 11, 7, 6]
    s.undo()
    with pytest.raises(IllegalBuild, match="added to the bottom"):
        s.place(Step(card("sand-12")))
    t = game.build_session()
    with pytest.raises(IllegalBuild, match="cannot all be built"):
        t.choose(cards(["sand-4", "sand-12"]))


def test_sand_cannot_take_both_ends() -> None:
    display = ["sand-4", "sand-12", "tree-9", "scary-9", "candy-9"]
    game = arranged(["A", "B"], display, boards={0: {"sand": [11, 7, 6]}},
                    variant=Variant.GREAT_POWERS)
    game.apply(Bid(0, 2))
    game.apply(Pass(1))
    s = game.build_session()
    s.choose(cards(["sand-4", "sand-12"]), check=False)
    s.place(Step(card("sand-4")))
    with pytest.raises(IllegalBuild, match="added to the top"):
        s.place(Step(card("sand-12"), End.BOTTOM))
    assert game.max_bid(0) == 4  # 12 under or 4 on top, plus three 9s


def test_sand_bottom_is_great_powers_only() -> None:
    game = arranged(["A", "B"], ["sand-12", "tree-9", "scary-9", "candy-9", "scrap-9"],
                    boards={0: {"sand": [11, 7]}})
    game.apply(Bid(0, 1))
    game.apply(Pass(1))
    with pytest.raises(IllegalBuild, match="Great Powers"):
        game.apply(Build(0, (card("sand-12"),), (Step(card("sand-12"), End.BOTTOM),)))


def test_sand_with_tower_top_takes_nothing() -> None:
    game = arranged(["A", "B"], ["sand-12", "tree-9", "scary-9", "candy-9", "scrap-9"],
                    boards={0: {"sand": [11, 7, 0]}}, variant=Variant.GREAT_POWERS)
    game.apply(Bid(0, 1))
    game.apply(Pass(1))
    with pytest.raises(IllegalBuild, match="tower top"):
        game.apply(Build(0, (card("sand-12"),), (Step(card("sand-12"), End.BOTTOM),)))
    assert game.max_bid(0) == 4


def test_guided_choice_for_a_ui() -> None:
    # Anni (sand 6, 4) wins a bid of 4: the sand-7 can never be part of it.
    game = arranged(["Anni", "B"], ANNI_DISPLAY, boards={0: {"sand": [6, 4]}})
    game.apply(Bid(0, 4))
    game.apply(Pass(1))
    s = game.build_session()
    assert s.pay_options() == [0]
    assert card("sand-7") not in s.addable([])
    assert sorted(s.addable([card("candy-3")])) == sorted(cards(["tree-5", "scary-12", "scrap-1"]))
    assert s.teardown_options(cards(["candy-3", "tree-5", "scary-12", "scrap-1"])) == [
        None, TowerType.SAND]
    # With sand 6 alone, tearing it down is the only way to take all five.
    game = arranged(["Anni", "B"], ANNI_DISPLAY, boards={0: {"sand": [6]}})
    game.apply(Bid(0, 5))
    s = game.build_session()
    assert s.teardown_options(cards(ANNI_DISPLAY)) == [TowerType.SAND]


def test_tree_pay_options() -> None:
    game = arranged(["A", "B"], ["candy-5", "scary-4", "sand-3", "scrap-2", "tree-1"],
                    boards={0: {"tree": [15, 14, 13]}}, variant=Variant.GREAT_POWERS)
    game.apply(Bid(0, 7))
    s = game.build_session()
    assert s.pay_options() == [2, 3]
    assert card("tree-1") not in s.addable([], pay=3)


def test_log_tells_the_build_in_placing_order() -> None:
    display = ["candy-11", "scrap-15", "sand-9", "tree-9", "scary-9"]
    game = arranged(["Hedda", "B"], display, boards={0: {"candy": [14, 10]}},
                    variant=Variant.GREAT_POWERS)
    game.apply(Bid(0, 2))
    game.apply(Pass(1))
    steps = (Step(card("candy-11")), Step(card("scrap-15")),
             Step(card("candy-10"), source=Source.TEARDOWN))
    game.apply(Build(0, tuple(cards(["scrap-15", "candy-11"])), steps, teardown=TowerType.CANDY))
    entry = [e for e in game.log if e.kind == "build"][-1]
    assert entry.text == ("Hedda: tear down candy-10, build candy-11, scrap-15, "
                          "candy-10 from the teardown pile")
