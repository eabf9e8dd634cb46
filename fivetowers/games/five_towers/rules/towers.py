"""The building rules (RULES.md A2) on tower values.

A tower is a sequence of values, bottom to top, of one type. These functions
work on plain ints so the build searches stay fast.
"""

from __future__ import annotations

from typing import Sequence

from fivetowers.games.five_towers.rules.cards import TOWER_TOP
from fivetowers.games.five_towers.rules.errors import IllegalBuild

Tower = tuple[int, ...]


def can_place(value: int, onto: int) -> bool:
    """May a card of ``value`` go onto a tower whose uppermost card is ``onto``?"""
    return value < onto or onto == 8 or (value == 9 and onto != TOWER_TOP)


def can_place_under(value: int, lowest: int) -> bool:
    """May ``value`` slide under a sand tower's ``lowest`` card (Great Powers)?"""
    return can_place(lowest, value)


def onto_refusal(type_name: str, value: int, onto: int) -> IllegalBuild:
    """Why ``value`` cannot go onto ``onto``, as a refusal (not raised)."""
    card, below = f"{type_name}-{value}", f"{type_name}-{onto}"
    if onto == TOWER_TOP:
        return IllegalBuild("{card} cannot go onto {onto}: a 0 is a tower top and ends the "
                            "tower", card=card, onto=below)
    if value == onto:
        return IllegalBuild("{card} cannot go onto {onto}: equal values only stack onto an 8 "
                            "or as a 9 onto a 9", card=card, onto=below)
    return IllegalBuild("{card} cannot go onto {onto}: only a lower value, a 9, or anything "
                        "onto an 8 may be placed", card=card, onto=below)


def why_not_onto(type_name: str, value: int, onto: int) -> str:
    """A player's explanation of why ``value`` cannot go onto ``onto`` (English)."""
    return str(onto_refusal(type_name, value, onto))


def under_refusal(type_name: str, value: int, lowest: int) -> IllegalBuild:
    """Why ``value`` cannot go under ``lowest``, as a refusal (not raised)."""
    card, above = f"{type_name}-{value}", f"{type_name}-{lowest}"
    if value == TOWER_TOP:
        return IllegalBuild("{card} cannot go under {under}: nothing may go onto a 0, so a 0 "
                            "never goes under", card=card, under=above)
    return IllegalBuild("{card} cannot go under {under}: {under} could not be placed onto it",
                        card=card, under=above)


def why_not_under(type_name: str, value: int, lowest: int) -> str:
    return str(under_refusal(type_name, value, lowest))


def has_tower_top(tower: Sequence[int]) -> bool:
    return bool(tower) and tower[-1] == TOWER_TOP


def tower_error(tower: Sequence[int]) -> str | None:
    """Why ``tower`` breaks the building rules, or None if it obeys them."""
    for i in range(1, len(tower)):
        if not can_place(tower[i], tower[i - 1]):
            return f"{tower[i]} cannot stand on {tower[i - 1]}"
    return None
