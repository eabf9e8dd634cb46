"""Greedy+, the strong bot's default play and playout policy: each of its
rules in a hand-made position, against what the plain greedy rules do there."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from fivetowers.games.gotown.playout import greedy_play
from fivetowers.games.gotown.plus import (
    GREEDY, GREEDY_PLUS, plus_play, steal_chance, unseen_counts,
)
from fivetowers.games.gotown.bots import RandomBot
from fivetowers.games.gotown.rules import (
    Bone, Build, Card, Dog, End, Game, Jackhammer, Milkshake, Steal,
)
from fivetowers.games.gotown.strong import StrongBot

from tests.gotown.arrange import table


def test_builds_with_three_cards_since_the_draw_up_to_3_gives_them_back() -> None:
    game = table([["1", "8", "2"], ["3", "3", "3", "3", "3"]], towers=[[], [["4", "5"]]],
                 draw=["6"] * 5)
    assert plus_play(game, random.Random(0)) == Build(0, (Card.ONE, Card.EIGHT))
    # the greedy rules keep the pair: three cards are not a full hand
    assert greedy_play(game, random.Random(0)) == End(0)
    assert plus_play(game, random.Random(0), GREEDY) == End(0)


def test_a_fourth_card_in_hand_keeps_the_pair_unless_the_floor_is_safe() -> None:
    # every 1 and 8 the opponent could steal [1, 8] with is in sight: safe
    safe = table([["1", "8", "2", "2"], ["3", "3", "3", "3", "3"]], towers=[[], []],
                 discard=["1", "1", "1", "8", "8", "8"], draw=["6"] * 5)
    assert plus_play(safe, random.Random(0)) == Build(0, (Card.ONE, Card.EIGHT))
    # with the 1s and 8s unseen, the opponent's five cards likely hold one
    open_ = table([["1", "8", "2", "2"], ["3", "3", "3", "3", "3"]], towers=[[], []],
                  draw=["6"] * 5)
    assert plus_play(open_, random.Random(0)) == End(0)


def test_steal_chance_counts_the_unseen_stealers_and_the_opponents_hands() -> None:
    game = table([["4", "5"], ["3"]], towers=[[], [["1", "8"]]], discard=["4"],
                 draw=["6"])
    unseen = unseen_counts(game, 0)
    assert unseen[Card.FOUR] == 2 and unseen[Card.FIVE] == 3
    assert unseen[Card.DOG] == 4 and unseen.total() == 54 - 2 - 2 - 1
    chance = steal_chance(game, 0, Build(0, (Card.FOUR, Card.FIVE)), unseen)
    # the opponent's card and its next draw: 2 cards out of 49, 5 of them stealers
    assert abs(chance - (1 - (44 / 49) * (43 / 48))) < 1e-12
    gone = Counter(unseen)
    gone[Card.FOUR] = gone[Card.FIVE] = 0
    assert steal_chance(game, 0, Build(0, (Card.FOUR, Card.FIVE)), gone) == 0.0


def test_bones_any_guarded_top_floor() -> None:
    game = table([["bone", "2"], ["3"]], towers=[[], [["1", "8"]]], dogs=[[], [0]],
                 draw=["6"] * 5)
    assert plus_play(game, random.Random(0)) == Bone(0, 1, 0)
    # the greedy rules keep the bone: no card in hand then takes [1, 8]
    assert greedy_play(game, random.Random(0)) == End(0)


def test_greedy_plus_plays_legally_over_whole_games() -> None:
    for seed in range(12):
        players, floors = 2 + seed % 3, 4 + seed % 2
        game = Game([f"p{i}" for i in range(players)], floors, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            action = plus_play(game, rng) if rng.random() < 0.8 else \
                RandomBot().choose(view, rng)
            assert action in view.legal, (seed, action)
            game.apply(action)


def test_the_strong_bot_without_search_plays_greedy_plus_from_its_view_alone() -> None:
    """Whatever the unseen cards are dealt as, the default play is the one
    greedy+ makes on the true game."""
    bot = StrongBot(search=False)
    for seed in range(6):
        game = Game(["a", "b", "c"], 5, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            action = bot.choose(game.view(seat), random.Random(rng.random()))
            wins = len(game.players[seat].floors) + 1 >= game.floors_to_win
            if len(game.view(seat).legal) > 1:
                expected = plus_play(game, random.Random(0))
                if wins and isinstance(expected, (Build, Steal)):  # any winning play
                    assert isinstance(action, (Build, Steal)), seed
                else:
                    assert action == expected, seed
            game.apply(action)


def test_no_build_short_of_a_win_is_worth_a_steal() -> None:
    """Greedy+ skips its builds once a steal is offered: every build's worth
    (build + spread_after × build_spread) stays within Knobs.build_cap, below a steal's 100."""
    from fivetowers.games.gotown.bots import spread_after
    from fivetowers.games.gotown.playout import _builds
    from fivetowers.games.gotown.plus import GREEDY_PLUS
    from fivetowers.games.gotown.rules import COUNTS

    richest = Counter({card: n for card, n in COUNTS.items() if card.builds})
    knobs = GREEDY_PLUS
    worths = [knobs.build + spread_after(richest, build) * knobs.build_spread
              for build in _builds(richest, 0)]
    assert max(worths) == knobs.build_cap < knobs.steal


def test_steals_with_the_card_that_keeps_a_pair_in_hand() -> None:
    """[3, 6] on the opponent's top: a 3 or a 6 steals it. With 3, 3, 6 in
    hand greedy+ spends a 3 and keeps the pair 3 + 6; the greedy rules pick
    either card at random."""
    game = table([["3", "3", "6", "2"], ["4"]], towers=[[], [["3", "6"]]], draw=["7"] * 5)
    keeping = Steal(0, Card.THREE, 1)
    assert {plus_play(game, random.Random(seed)) for seed in range(20)} == {keeping}
    # without the rule the 6 is spent too, breaking the pair
    assert {plus_play(game, random.Random(seed), GREEDY) for seed in range(20)} \
        == {keeping, Steal(0, Card.SIX, 1)}
    # with 3, 3, 6, 6, 6 a 6 is spent: two pairs stay (a 3 would leave one)
    spare = table([["3", "3", "6", "6", "6", "2"], ["4"]], towers=[[], [["3", "6"]]],
                  draw=["7"] * 5)
    assert {plus_play(spare, random.Random(seed)) for seed in range(20)} \
        == {Steal(0, Card.SIX, 1)}


def test_the_worth_knobs_change_the_plays_they_rank() -> None:
    """Greedy+'s worths are knobs (fitted by scripts/gotown_policy_fit.py):
    by default they rank as the greedy bot does, and a changed one changes
    the play it ranks."""
    # a dog in hand, the top floor already guarded: the floor below gets it
    guarded = table([["dog", "2"], ["3"]], towers=[[["1", "8"], ["4", "5"]], []],
                    dogs=[[1], []], draw=["6"] * 5)
    assert plus_play(guarded, random.Random(0)) == Dog(0, 0)
    assert plus_play(guarded, random.Random(0), replace(GREEDY_PLUS, dog_below=-1.0)) == End(0)
    # a milkshake and a jackhammer: the milkshake first (40 + threat, 41, against
    # 30 + 10 × threat, 40; threat 1 − 0: the opponent's tower of one floor, ours empty)
    both = table([["milkshake", "jackhammer"], ["3"]], towers=[[], [["1", "8"]]],
                 draw=["6"] * 5)
    assert plus_play(both, random.Random(0)) == Milkshake(0, 1)
    assert plus_play(both, random.Random(0), replace(GREEDY_PLUS, jackhammer=35.0)) \
        == Jackhammer(0, 1)
    # 30 + 12 × 1 = 42 beats 41 (at 11 the two would tie and the RNG would choose)
    assert {plus_play(both, random.Random(seed), replace(GREEDY_PLUS, hit_threat=12.0))
            for seed in range(10)} == {Jackhammer(0, 1)}
    # a worth of 0 or less (-5 + 1, -20 + 10): the cards are kept
    assert plus_play(both, random.Random(0),
                     replace(GREEDY_PLUS, milkshake=-5.0, jackhammer=-20.0)) == End(0)
    # the plain greedy rules keep the default worths
    assert plus_play(both, random.Random(0), GREEDY) == Milkshake(0, 1)


def test_greedy_plus_counts_unseen_stealers_as_unseen_counts_does() -> None:
    """Greedy+'s short count of the unseen cards (what is in sight, for the
    cards asked about) gives unseen_counts' total and every build's
    stealers: over whole games of 2–4 players, and at a hand-made table
    with more 3s in sight and in hand than the deck holds."""
    from fivetowers.games.gotown.playout import _builds
    from fivetowers.games.gotown.plus import _unseen_stealers, stealers

    every_build = [b for b in _builds(Counter({c: 2 for c in Card}), 0)]

    def same(game: Game) -> None:
        for seat in range(game.player_count):
            counts, total = _unseen_stealers(game, seat, every_build)
            unseen = unseen_counts(game, seat)
            assert total == unseen.total()
            assert counts == [stealers(build, unseen) for build in every_build]

    for seed in range(6):
        game = Game([f"p{i}" for i in range(2 + seed % 3)], 4 + seed % 2, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            same(game)
            game.apply_trusted(plus_play(game, rng))
    same(table([["3", "3", "3", "6", "?"], ["3"]], towers=[[["3", "6"]], [["3", "?6"]]],
               discard=["3", "dog", "6"], dogs=[[0], [0]]))


def test_greedy_plus_reads_the_table_from_cards_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The unseen stealers start from cards_seen's count (one count of what
    is in sight, not a copy of it in greedy+), and cards_seen counts as
    asking every floor for its cards does: wilds as wilds, dogs,
    milkshakes and the donut truck in play, over whole games."""
    from fivetowers.games.gotown import plus
    from fivetowers.games.gotown.rules.cards import cards_seen

    def plainly(game: Game) -> Counter[Card]:
        seen = Counter(game.discard)
        for player in game.players:
            for floor in player.floors:
                seen.update(floor.cards())
            seen[Card.DOG] += len(player.dogs)
            seen[Card.MILKSHAKE] += player.milkshakes
        seen[Card.DONUT_TRUCK] += game.truck_on_table
        return +seen

    asked = 0

    def counted(*args: Any) -> Counter[Card]:
        nonlocal asked
        asked += 1
        return cards_seen(*args)

    monkeypatch.setattr(plus, "cards_seen", counted)
    kinds: Counter[Card] = Counter()
    for seed in range(6):
        game = Game([f"p{i}" for i in range(2 + seed % 3)], 4 + seed % 2, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            assert cards_seen(game.players, game.discard, game.truck_on_table) == plainly(game)
            kinds.update(plainly(game).keys())
            game.apply_trusted(plus_play(game, rng))
    assert {Card.WILD, Card.DOG, Card.MILKSHAKE, Card.DONUT_TRUCK} <= set(kinds)
    assert asked


def test_the_builds_table_gives_every_build_a_hand_allows_in_order() -> None:
    """_builds reads its table by the cards held: the same builds, in the
    same order, as asking the hand about every floor card (low value first,
    a plain pair then the wild), zero counts and all."""
    from fivetowers.games.gotown.playout import _builds
    from fivetowers.games.gotown.rules import Build

    numbers = [c for c in Card if c.number is not None]

    def asked(hand: Counter[Card], seat: int) -> list[Build]:
        found = []
        for card in sorted(numbers, key=lambda c: c.number or 0):
            if not hand[card]:
                continue
            partner = next(c for c in numbers if (c.number or 0) + (card.number or 0) == 9)
            if (card.number or 0) < (partner.number or 0) and hand[partner]:
                found.append(Build(seat, (card, partner)))
            if hand[Card.WILD] > 0:
                found.append(Build(seat, (card, Card.WILD)))
        return found

    rng = random.Random(7)
    for _ in range(3000):
        hand = Counter({card: rng.choice((0, 0, 0, 1, 2)) for card in rng.sample(list(Card), 6)})
        seat = rng.randrange(4)
        assert list(_builds(hand, seat)) == asked(hand, seat), hand
