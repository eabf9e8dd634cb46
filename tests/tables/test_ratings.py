"""The multiplayer Elo-style rating."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fivetowers.tables.ratings import (
    INITIAL_RATING, K_FACTOR, Result, expected, rating_changes,
)


def test_equal_players_two_player_win_moves_half_k() -> None:
    change = rating_changes({}, [Result("a", 10), Result("b", 3)])
    assert change == {"a": pytest.approx(K_FACTOR / 2), "b": pytest.approx(-K_FACTOR / 2)}


def test_a_tie_between_equals_changes_nothing() -> None:
    change = rating_changes({}, [Result("a", 5), Result("b", 5), Result("c", 5)])
    assert all(v == pytest.approx(0.0) for v in change.values())


def test_a_tie_with_a_stronger_player_helps_the_weaker() -> None:
    change = rating_changes({"strong": 1700.0, "weak": 1400.0},
                            [Result("strong", 8), Result("weak", 8)])
    assert change["weak"] > 0 > change["strong"]


def test_beating_a_weaker_player_gains_less_than_beating_a_stronger() -> None:
    ratings = {"me": 1500.0, "weak": 1300.0, "strong": 1700.0}
    easy = rating_changes(ratings, [Result("me", 9), Result("weak", 1)])["me"]
    hard = rating_changes(ratings, [Result("me", 9), Result("strong", 1)])["me"]
    assert 0 < easy < hard


def test_k_is_shared_out_over_the_opponents() -> None:
    # Winning against four equals is worth K/2 in all, like one two-player win.
    results = [Result("w", 20)] + [Result(f"p{i}", i) for i in range(4)]
    change = rating_changes({}, results)
    assert change["w"] == pytest.approx(K_FACTOR / 2)
    # p1 (score 1) beat p0 only and lost to w, p2 and p3.
    assert change["p1"] == pytest.approx(K_FACTOR / 4 * (1 * 0.5 - 3 * 0.5))


def test_two_seats_of_one_bot_kind_do_not_play_each_other() -> None:
    change = rating_changes({}, [Result("bot:random", 9), Result("bot:random", 2),
                                 Result("key:x", 5)])
    # vs key:x the bot wins once and loses once (K/2 each pair): a wash.
    assert change == {"bot:random": pytest.approx(0.0), "key:x": pytest.approx(0.0)}


def test_a_lone_player_is_not_rated() -> None:
    assert rating_changes({}, [Result("a", 3)]) == {"a": 0.0}


def test_expected_is_symmetric() -> None:
    assert expected(1600, 1400) + expected(1400, 1600) == pytest.approx(1.0)
    assert expected(INITIAL_RATING, INITIAL_RATING) == pytest.approx(0.5)


@given(st.lists(st.tuples(st.sampled_from("abcde"), st.integers(-20, 60)), min_size=2,
                max_size=5),
       st.dictionaries(st.sampled_from("abcde"), st.floats(800, 2400)))
def test_changes_sum_to_zero_and_stay_within_k(seats: list[tuple[str, int]],
                                               ratings: dict[str, float]) -> None:
    results = [Result(i, s) for i, s in seats]
    change = rating_changes(ratings, results)
    assert set(change) == {i for i, _ in seats}
    assert sum(change.values()) == pytest.approx(0.0, abs=1e-9)
    # Each seat plays n - 1 pairs worth at most K / (n - 1) each.
    for identity, delta in change.items():
        seats_held = sum(1 for i, _ in seats if i == identity)
        assert abs(delta) <= K_FACTOR * seats_held + 1e-9
