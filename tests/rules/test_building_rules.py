"""The building rules (RULES.md A2) and the refusals' wording."""

from __future__ import annotations

import pytest

from fivetowers.games.five_towers.rules.towers import can_place, can_place_under, tower_error, why_not_onto


@pytest.mark.parametrize("value,onto,ok", [
    (7, 11, True),      # lower onto higher
    (11, 7, False),     # higher onto lower
    (7, 7, False),      # equal values refused
    (8, 8, True),       # anything onto an 8, an 8 included
    (15, 8, True),      # ... a 15 included
    (0, 8, True),
    (9, 9, True),       # a 9 onto a 9
    (9, 3, True),       # a 9 onto anything but a 0
    (9, 15, True),
    (9, 0, False),      # never onto a 0
    (0, 1, True),       # a 0 tops a tower
    (0, 0, False),
    (3, 0, False),      # nothing onto a tower top
    (8, 0, False),
])
def test_can_place(value: int, onto: int, ok: bool) -> None:
    assert can_place(value, onto) is ok


def test_nothing_at_all_goes_onto_a_zero() -> None:
    assert not any(can_place(v, 0) for v in range(16))


def test_under_is_the_mirror_of_onto() -> None:
    for low in range(16):
        for v in range(16):
            assert can_place_under(v, low) == can_place(low, v)
    assert not any(can_place_under(0, low) for low in range(16))


def test_tower_error_names_the_offending_pair() -> None:
    assert tower_error([15, 12, 8, 13, 9, 9, 0]) is None
    assert tower_error([0]) is None
    assert tower_error([5, 0, 3]) == "3 cannot stand on 0"
    assert tower_error([4, 4]) == "4 cannot stand on 4"


def test_refusal_wording() -> None:
    assert why_not_onto("candy", 9, 0) == (
        "candy-9 cannot go onto candy-0: a 0 is a tower top and ends the tower")
    assert "equal values" in why_not_onto("sand", 7, 7)
