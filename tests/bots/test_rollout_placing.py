"""The rollout's wanted cards follow the placement rule: its inline copy of
``towers.can_place`` (kept inline for speed) agrees with it on every pair."""

from __future__ import annotations

from fivetowers.games.five_towers.bots.sim import by_type, want_grouped
from fivetowers.games.five_towers.rules.cards import MAX_VALUE
from fivetowers.games.five_towers.rules.towers import can_place


def test_the_rollout_wants_a_card_onto_a_top_exactly_when_it_may_go_there() -> None:
    for top in range(MAX_VALUE + 1):
        for value in range(MAX_VALUE + 1):
            # Late in the game every placeable card is wanted: only the rule decides.
            wanted = want_grouped([[top], [], [], [], []], by_type([(0, value)]), late=True)
            assert bool(wanted) == can_place(value, top), (value, top)
