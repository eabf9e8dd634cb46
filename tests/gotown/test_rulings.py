"""One test per rule and ruling of RULES.md Part C, each on a hand-made table."""

from __future__ import annotations

from collections import Counter

import pytest

from fivetowers.games.gotown.rules import (
    COUNTS, Bone, Build, Card, Dog, DonutTruck, End, FormatError, Game, GameOver, IllegalPlay,
    Jackhammer, Milkshake, NotYourTurn, Record, Steal, SuperThief, Thief, WreckingBall,
    full_deck, replay, result_json,
)

from tests.gotown.arrange import cards, snapshot, table


def floors(game: Game, seat: int) -> list[list[str]]:
    return [f.to_json() for f in game.players[seat].floors]


def hand(game: Game, seat: int) -> Counter[str]:
    return Counter(str(c) for c in game.players[seat].hand.elements())


def refused(game: Game, action: object, words: str) -> None:
    """The play is refused with a reason containing ``words``, and nothing changed."""
    before = snapshot(game)
    with pytest.raises(IllegalPlay) as exc:
        game.apply(action)  # type: ignore[arg-type]
    assert words in str(exc.value)
    assert snapshot(game) == before


# -- C1 cards --------------------------------------------------------------
def test_c1_the_deck_is_54_cards_with_these_counts() -> None:
    deck = Counter(full_deck())
    assert len(full_deck()) == 54
    assert all(deck[Card(str(v))] == 4 for v in range(1, 9))
    assert (deck[Card.WILD], deck[Card.DOG], deck[Card.BONE], deck[Card.JACKHAMMER],
            deck[Card.WRECKING_BALL], deck[Card.MILKSHAKE], deck[Card.DONUT_TRUCK],
            deck[Card.THIEF], deck[Card.SUPER_THIEF]) == (4, 4, 2, 3, 1, 3, 1, 3, 1)
    assert sum(COUNTS.values()) == 54


# -- C2 set-up and goal ----------------------------------------------------
def test_c2_deal_five_each_from_the_top_then_seat_0_draws_first() -> None:
    deck = full_deck()
    game = Game(["An", "Bình", "Chi"], deck=deck)
    assert hand(game, 1) == Counter(str(c) for c in deck[5:10])
    assert hand(game, 2) == Counter(str(c) for c in deck[10:15])
    assert hand(game, 0) == Counter(str(c) for c in deck[0:5] + deck[15:16])
    assert game.to_move == 0 and game.turn == 1 and len(game.draw) == 54 - 16


def test_c2_a_win_the_moment_a_tower_reaches_its_floors_even_mid_turn() -> None:
    tower = [["1", "8"], ["2", "7"], ["3", "6"], ["4", "5"]]
    game = table([["4", "5", "jackhammer"], ["3"]], [tower, [["6", "3"]]])
    game.apply(Build(0, (Card.FOUR, Card.FIVE)))
    assert game.over and game.winners == (0,) and game.to_move is None
    refused(game, Jackhammer(0, 1), "the game is over")
    refused(game, End(0), "the game is over")


def test_c2_the_short_game_is_won_at_four_floors() -> None:
    tower = [["1", "8"], ["2", "7"], ["3", "6"]]
    game = table([["6"], ["3"]], [tower, [["3", "?6"]]], floors_to_win=4)
    game.apply(Steal(0, Card.SIX, 1))
    assert game.over and game.winners == (0,)
    assert result_json(game)["winners"] == ["An"]


# -- C3 the turn -----------------------------------------------------------
def test_c3_1_a_milkshake_turn_is_only_drinking_it() -> None:
    game = table([["1"], ["2"], ["3"]], draw=["4", "5", "6", "7", "8"], milkshakes=[0, 1, 0])
    game.apply(End(0))  # An draws up to 3 (two cards), then Bình's milkshake turn
    assert hand(game, 0) == Counter(["1", "4", "5"])
    assert hand(game, 1) == Counter(["2"])  # no draw at its start or its end
    assert game.players[1].milkshakes == 0 and game.discard == [Card.MILKSHAKE]
    assert game.to_move == 2 and hand(game, 2) == Counter(["3", "6"])
    assert game.turn == 3 and game.turns_ended == 2


def test_c3_1_two_milkshakes_cost_two_turns() -> None:
    game = table([["1", "2", "3"], ["4", "5", "6"]], draw=["7", "8", "1", "2"],
                 milkshakes=[0, 2])
    game.apply(End(0))
    assert game.to_move == 0 and game.players[1].milkshakes == 1  # Bình drank one
    game.apply(End(0))
    assert game.to_move == 0 and game.players[1].milkshakes == 0
    game.apply(End(0))
    assert game.to_move == 1 and hand(game, 1) == Counter(["4", "5", "6", "1"])  # An drew 7, 8


def test_c3_2_no_draw_at_the_start_of_a_turn_holding_8_cards() -> None:
    eight = ["1", "1", "2", "2", "3", "3", "4", "4"]
    game = table([["5", "5", "5"], eight], draw=["6", "7"])
    game.apply(End(0))
    assert hand(game, 1) == Counter(eight) and game.draw == cards("6", "7")


def test_c3_2_a_draw_at_the_start_of_a_turn_holding_7_cards() -> None:
    game = table([["5", "5", "5"], ["1", "1", "2", "2", "3", "3", "4"]], draw=["6", "7"])
    game.apply(End(0))
    assert hand(game, 1)["6"] == 1 and game.players[1].hand_size == 8


def test_c3_3_plays_in_any_order_or_none() -> None:
    game = table([["dog", "3", "6"], ["1"]], draw=["8", "8", "8"])
    refused(game, Dog(0, 0), "has no floor 0")
    game.apply(Build(0, (Card.SIX, Card.THREE)))
    game.apply(Dog(0, 0))
    assert game.players[0].dogs == {0}
    game.apply(End(0))
    game.apply(End(1))  # a turn with no play
    assert game.to_move == 0


def test_c3_4_the_end_draws_up_to_3() -> None:
    game = table([["1"], ["2", "3", "4"]], draw=["5", "6", "7", "8"])
    game.apply(End(0))
    assert hand(game, 0) == Counter(["1", "5", "6"])


def test_c3_4_the_end_draws_nothing_holding_3_or_more() -> None:
    game = table([["1", "2", "3"], ["2", "3", "4"]], draw=["5", "6", "7", "8"])
    game.apply(End(0))
    assert hand(game, 0) == Counter(["1", "2", "3"]) and game.draw == cards("6", "7", "8")


def test_c3_4_the_donut_truck_gives_the_same_player_another_whole_turn() -> None:
    game = table([["donut-truck", "1"], ["2", "3", "4"]], draw=["5", "6", "7", "8"])
    game.apply(DonutTruck(0))
    assert game.truck_on_table and Card.DONUT_TRUCK not in game.discard  # in no pile
    assert game.card_places()[Card.DONUT_TRUCK] == 1
    game.apply(End(0))
    # the draw up to 3 (5, 6), the truck discarded after it, then a new turn's draw (7)
    assert game.to_move == 0 and game.turn == 2 and game.turns_ended == 1
    assert hand(game, 0) == Counter(["1", "5", "6", "7"])
    assert game.discard == [Card.DONUT_TRUCK] and not game.truck_on_table
    game.apply(End(0))
    assert game.to_move == 1


def test_c3_4_a_milkshake_stays_before_the_opponent_for_their_next_real_turn() -> None:
    game = table([["donut-truck", "milkshake", "1"], ["2", "3", "4"]],
                 draw=["5", "6", "7", "8", "1"])
    game.apply(Milkshake(0, 1))
    game.apply(DonutTruck(0))
    game.apply(End(0))  # An's extra turn: Bình's milkshake waits
    assert game.to_move == 0 and game.players[1].milkshakes == 1
    game.apply(End(0))  # Bình's real turn is the milkshake turn
    assert game.to_move == 0 and game.players[1].milkshakes == 0
    assert hand(game, 1) == Counter(["2", "3", "4"])


def test_c3_drawing_from_an_empty_pile_reshuffles_the_discard_pile_first() -> None:
    game = table([["1"], ["2", "3", "4"]], draw=["5"], discard=["6", "?", "dog"])
    game.planned_reshuffles = [cards("dog", "?", "6")]
    game.apply(End(0))  # draws 5, then the pile is empty: the reshuffle, then dog
    assert hand(game, 0) == Counter(["1", "5", "dog"])
    assert game.reshuffles == [cards("dog", "?", "6")] and game.discard == []
    assert hand(game, 1)["?"] == 1 and game.draw == cards("6")  # Bình's turn began


def test_c3_a_reshuffle_not_from_the_record_is_drawn_with_the_seed_and_recorded() -> None:
    def run() -> Game:
        game = table([["1"], ["2", "3", "4"]], draw=[], discard=["6", "7", "8", "?"], seed=9)
        game.apply(End(0))
        return game
    first, second = run(), run()
    assert Counter(first.reshuffles[0]) == Counter(cards("6", "7", "8", "?"))
    assert first.reshuffles == second.reshuffles and first.draw == second.draw
    assert hand(first, 0) - Counter(["1"]) == Counter(str(c) for c in first.reshuffles[0][:2])


def test_c3_a_reshuffle_that_is_not_the_discard_pile_is_an_invalid_record() -> None:
    game = table([["1"], ["2", "3", "4"]], draw=[], discard=["6", "7"])
    game.planned_reshuffles = [cards("6", "8")]
    with pytest.raises(FormatError, match="not a permutation of the discard pile"):
        game.apply(End(0))


def test_c3_both_piles_empty_no_more_cards_are_drawn() -> None:
    game = table([[], ["2", "3", "4"]], draw=["5"], discard=[])
    game.apply(End(0))
    assert hand(game, 0) == Counter(["5"]) and game.reshuffles == []
    game.apply(End(1))
    assert game.to_move == 0 and hand(game, 0) == Counter(["5"])


def test_c3_termination_the_tallest_tower_wins_at_the_turn_limit() -> None:
    game = table([["1", "1", "1"], ["2", "2", "2"]], [[["1", "8"]], []],
                 draw=["3"] * 0)
    game.turns_ended = game.turn_limit - 1
    game.apply(End(0))
    assert game.over and game.winners == (0,) and game.to_move is None
    assert game.result() is not None and game.result().scores == (1, 0)  # type: ignore[union-attr]


def test_c3_termination_equal_heights_share_the_win() -> None:
    game = table([["1", "1", "1"], ["2", "2", "2"], ["3", "3", "3"]],
                 [[["1", "8"]], [], [["4", "5"]]])
    game.turns_ended = game.turn_limit - 1
    game.apply(End(0))
    assert game.winners == (0, 2)


def test_c3_termination_milkshake_turns_count_toward_the_limit() -> None:
    game = table([["1", "1", "1"], ["2", "2", "2"]], [[], [["4", "5"]]], milkshakes=[0, 1])
    game.turns_ended = game.turn_limit - 2
    game.apply(End(0))  # An's turn ends, then Bình's milkshake turn: the limit
    assert game.over and game.winners == (1,) and game.players[1].milkshakes == 0


def test_c3_super_thief_with_no_opponent_holding_a_card_takes_nothing() -> None:
    game = table([["super-thief", "1"], [], []], draw=["5", "6"])
    game.apply(SuperThief(0))
    assert hand(game, 0) == Counter(["1"]) and game.actions[-1] == SuperThief(0, ())
    assert game.discard == [Card.SUPER_THIEF]


def test_c3_a_thief_needs_a_target_holding_a_card() -> None:
    game = table([["thief"], [], ["4"]])
    refused(game, Thief(0, 1), "Bình holds no card for a thief to take")
    game.apply(Thief(0, 2))
    assert hand(game, 0) == Counter(["4"])


# -- C4 plays ----------------------------------------------------------------
def test_c4_build_two_floor_cards_summing_to_9() -> None:
    game = table([["2", "7", "3", "5"], ["1"]])
    game.apply(Build(0, (Card.SEVEN, Card.TWO)))
    assert floors(game, 0) == [["7", "2"]] and hand(game, 0) == Counter(["3", "5"])
    refused(game, Build(0, (Card.THREE, Card.FIVE)), "3 and 5 make 8, not 9")
    refused(game, Build(0, (Card.FOUR, Card.FIVE)), "does not hold 4 and 5")


def test_c4_a_wild_becomes_9_minus_v_in_the_order_written() -> None:
    game = table([["?", "2", "?", "6"], ["1"]])
    game.apply(Build(0, (Card.WILD, Card.TWO)))
    game.apply(Build(0, (Card.SIX, Card.WILD)))
    assert floors(game, 0) == [["?7", "2"], ["6", "?3"]]


def test_c4_two_wilds_never_pair() -> None:
    game = table([["?", "?"], ["1"]])
    refused(game, Build(0, (Card.WILD, Card.WILD)), "two wilds never make a floor")


def test_c4_an_action_card_builds_nothing() -> None:
    game = table([["dog", "4"], ["1"]])
    refused(game, Build(0, (Card.DOG, Card.FOUR)), "not a floor card")


def test_c4_steal_takes_the_match_and_discards_the_other_card() -> None:
    game = table([["5"], ["1"]], [[], [["1", "8"], ["4", "?5"]]])
    game.apply(Steal(0, Card.FIVE, 1))
    assert floors(game, 0) == [["5", "4"]] and floors(game, 1) == [["1", "8"]]
    assert game.discard == [Card.WILD]  # the ?5 left its tower: a plain wild again


def test_c4_a_stolen_wild_keeps_its_value() -> None:
    game = table([["3"], ["1"]], [[], [["3", "?6"]]])
    game.apply(Steal(0, Card.THREE, 1))
    assert floors(game, 0) == [["3", "?6"]] and game.discard == [Card.THREE]


def test_c4_a_wild_cannot_steal() -> None:
    game = table([["?"], ["1"]], [[], [["3", "6"]]])
    refused(game, Steal(0, Card.WILD, 1), "a wild cannot steal")


def test_c4_steal_needs_the_matching_card_on_the_top_floor() -> None:
    game = table([["4", "1"], ["1"]], [[], [["1", "8"], ["3", "6"]]])
    refused(game, Steal(0, Card.FOUR, 1), "has no 5 to go with a 4")
    refused(game, Steal(0, Card.ONE, 1), "has no 8 to go with a 1")  # only the top floor
    refused(game, Steal(0, Card.FOUR, 0), "against an opponent, not yourself")


def test_c4_a_dog_guards_the_top_floor_from_a_steal() -> None:
    game = table([["6"], ["1"]], [[], [["3", "6"]]], dogs=[[], [0]])
    refused(game, Steal(0, Card.SIX, 1), "has a dog: it cannot be stolen from")


def test_c4_one_dog_per_floor_of_your_own_tower() -> None:
    game = table([["dog", "dog"], ["1"]], [[["3", "6"], ["2", "7"]], [["1", "8"]]])
    game.apply(Dog(0, 0))
    refused(game, Dog(0, 0), "already has a dog")
    refused(game, Dog(0, 2), "has no floor 2")
    assert game.dog_floors() == [1]
    game.apply(Dog(0, 1))
    assert game.players[0].dogs == {0, 1} and Card.DOG not in game.discard


def test_c4_a_bone_discards_itself_and_the_dog() -> None:
    game = table([["bone", "bone"], ["1"]], [[], [["3", "6"], ["2", "7"]]], dogs=[[], [0]])
    assert game.bone_targets() == [(1, 0)]
    refused(game, Bone(0, 1, 1), "has no dog")
    game.apply(Bone(0, 1, 0))
    assert game.players[1].dogs == set() and Counter(game.discard) == Counter(
        cards("bone", "dog"))


def test_c4_a_jackhammer_cannot_touch_a_floor_with_a_dog() -> None:
    game = table([["jackhammer"], ["1"]], [[], [["3", "6"]]], dogs=[[], [0]])
    refused(game, Jackhammer(0, 1), "the top floor of Bình's tower has a dog: a jackhammer "
                                    "cannot touch it")


def test_c4_a_jackhammer_discards_the_top_floor() -> None:
    game = table([["jackhammer"], ["1"]], [[], [["3", "6"], ["?1", "8"]]], dogs=[[], [0]])
    game.apply(Jackhammer(0, 1))
    assert floors(game, 1) == [["3", "6"]] and game.players[1].dogs == {0}
    assert Counter(game.discard) == Counter(cards("jackhammer", "?", "8"))


def test_c4_a_wrecking_ball_takes_the_top_floor_and_its_dog() -> None:
    game = table([["wrecking-ball"], ["1"]], [[], [["3", "6"], ["1", "8"]]],
                 dogs=[[], [0, 1]])
    game.apply(WreckingBall(0, 1))
    # the floor below is the top now, with its own dog
    assert floors(game, 1) == [["3", "6"]] and game.players[1].dogs == {0}
    assert Counter(game.discard) == Counter(cards("wrecking-ball", "1", "8", "dog"))


def test_c4_a_floor_needs_to_exist_to_be_hit() -> None:
    game = table([["wrecking-ball", "jackhammer"], ["1"]])
    refused(game, WreckingBall(0, 1), "no floor for a wrecking ball")
    refused(game, Jackhammer(0, 1), "no floor for a jackhammer")


def test_c4_a_thief_takes_a_random_card_and_the_record_keeps_it() -> None:
    game = table([["thief"], ["1", "2", "dog"], ["5"]])
    game.apply(Thief(0, 1))
    took = game.actions[-1]
    assert isinstance(took, Thief) and took.took is not None
    assert hand(game, 0) == Counter([str(took.took)])
    assert hand(game, 1) + Counter([str(took.took)]) == Counter(["1", "2", "dog"])
    again = table([["thief"], ["1", "2", "dog"], ["5"]])
    again.apply(Thief(0, 1))
    assert again.actions[-1] == took  # the seed and the moment decide


def test_c4_a_recorded_thief_takes_exactly_that_card() -> None:
    game = table([["thief"], ["1", "2", "dog"]])
    refused(game, Thief(0, 1, Card.DOG), "drawn at random")  # a player cannot choose it
    with pytest.raises(IllegalPlay, match="Bình holds no bone"):
        game.apply(Thief(0, 1, Card.BONE), recorded=True)
    game.apply(Thief(0, 1, Card.DOG), recorded=True)
    assert hand(game, 0) == Counter(["dog"]) and hand(game, 1) == Counter(["1", "2"])


def test_c4_a_super_thief_takes_one_card_from_each_opponent_holding_one() -> None:
    game = table([["super-thief"], ["1", "2"], [], ["dog"]])
    with pytest.raises(IllegalPlay, match="Bình, Dũng"):
        game.apply(SuperThief(0, ((1, Card.ONE),)), recorded=True)
    refused(game, SuperThief(0, ((1, Card.TWO), (3, Card.DOG))), "drawn at random")
    game.apply(SuperThief(0, ((1, Card.TWO), (3, Card.DOG))), recorded=True)
    assert hand(game, 0) == Counter(["2", "dog"]) and hand(game, 3) == Counter()


def test_c4_stolen_cards_may_be_played_at_once() -> None:
    game = table([["thief", "4"], ["5"]])
    game.apply(Thief(0, 1))
    game.apply(Build(0, (Card.FOUR, Card.FIVE)))
    assert floors(game, 0) == [["4", "5"]]


def test_c4_a_milkshake_goes_before_an_opponent() -> None:
    game = table([["milkshake"], ["1"]])
    refused(game, Milkshake(0, 0), "against an opponent")
    refused(game, Milkshake(0, 2), "no seat 2")
    game.apply(Milkshake(0, 1))
    assert game.players[1].milkshakes == 1 and game.discard == []  # until drunk


def test_c4_a_card_leaving_a_tower_is_plain_again() -> None:
    game = table([["jackhammer"], ["1"]], [[], [["?6", "3"]]])
    game.apply(Jackhammer(0, 1))
    assert Card.WILD in game.discard and "?6" not in map(str, game.discard)


def test_c4_only_the_player_to_move_plays() -> None:
    game = table([["4", "5"], ["4", "5"]])
    refused(game, Build(1, (Card.FOUR, Card.FIVE)), "it is An's turn, not Bình's")
    refused(game, End(3), "no seat 3")


def test_c4_a_play_without_the_card_is_refused() -> None:
    game = table([["4"], ["1"]], [[], [["3", "6"]]])
    refused(game, Jackhammer(0, 1), "An holds no jackhammer")
    refused(game, Steal(0, Card.SIX, 1), "An holds no 6")


# -- what a UI asks -----------------------------------------------------------
def test_legal_queries_name_every_card_and_target() -> None:
    game = table([["4", "5", "?", "jackhammer", "thief", "milkshake", "wrecking-ball"],
                  ["1"], []],
                 [[], [["3", "6"]], [["4", "5"]]], dogs=[[], [0], []])
    assert game.builds_with(Card.FOUR) == [Card.FIVE, Card.WILD]
    assert game.builds_with(Card.WILD) == [Card.FOUR, Card.FIVE]
    assert game.steal_targets(Card.FOUR) == [2] and game.steal_targets(Card.FIVE) == [2]
    assert game.targets(Card.JACKHAMMER) == [2]
    assert game.targets(Card.WRECKING_BALL) == [1, 2]
    assert game.targets(Card.THIEF) == [1]
    assert game.targets(Card.MILKSHAKE) == [1, 2]
    assert all(game.is_legal(a) for a in game.legal_actions())
    assert isinstance(game.legal_actions()[-1], End)


def test_a_view_shows_the_own_hand_and_only_sizes_of_others() -> None:
    game = table([["4", "5"], ["1", "2", "3"]])
    view = game.view(1)
    assert view.hand == tuple(cards("1", "2", "3"))
    assert [s.hand_size for s in view.seats] == [2, 3]
    assert view.legal == () and game.view(0).legal == tuple(game.legal_actions())
    assert game.view(None).hand == ()


def test_something_that_is_not_a_gotown_play_is_refused() -> None:
    refused(table([["1"], ["2"]]), "end", "is not a GoTown play")


def test_game_over_refuses_everything() -> None:
    game = table([["1"], ["2"]])
    game.turns_ended = game.turn_limit - 1
    game.apply(End(0))
    with pytest.raises(GameOver):
        game.check(End(1))
    with pytest.raises(NotYourTurn):
        table([["1"], ["2"]]).check(End(1))


def test_a_record_replays_its_thief_draws() -> None:
    game = Game(["An", "Bình"], seed=5)
    while not any(isinstance(a, Thief) for a in game.actions) and not game.over:
        legal = game.legal_actions()
        thieves = [a for a in legal if isinstance(a, Thief)]
        game.apply(thieves[0] if thieves else legal[-1])
    record = Record.from_game(game).to_json()
    again, error = replay(Record.from_json(record))
    assert error is None and result_json(again) == result_json(game)
    assert [str(c) for c in again.players[0].hand_cards()] == \
        [str(c) for c in game.players[0].hand_cards()]
