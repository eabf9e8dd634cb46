"""The threats against a player's tower, from what is public only: the
cards nobody can see (not in a tower, the discard pile, before a player, or
the viewer's hand) may be in the opponents' hands."""

from __future__ import annotations

from collections import Counter

from fivetowers.games.gotown.chronicle import floor_text
from fivetowers.games.gotown.rules import COUNTS, Card, PlayerView, floor_card
from fivetowers.games.gotown.tui.choices import opponents


def unseen(view: PlayerView) -> Counter[Card]:
    """How many of each card the viewer cannot see (other hands and the draw pile)."""
    seen: Counter[Card] = Counter(view.discard) + Counter(view.hand)
    for seat in view.seats:
        for floor in seat.floors:
            seen.update(floor.cards())
        seen[Card.DOG] += len(seat.dogs)
        seen[Card.MILKSHAKE] += seat.milkshakes
    if view.truck_on_table:
        seen[Card.DONUT_TRUCK] += 1
    return Counter({c: n - seen[c] for c, n in COUNTS.items() if n > seen[c]})


def threats(view: PlayerView) -> str:
    """Who could take the viewer's top floor, and with what unseen cards."""
    if view.seat is None:
        return ""
    mine = view.seats[view.seat]
    holders = [s for s in opponents(view) if view.seats[s].hand_size]
    if not mine.floors:
        return "Threats: none yet, your tower has no floor."
    if not holders:
        return "Threats: none, nobody else holds a card."
    hidden = unseen(view)
    top = mine.floors[-1]
    guarded = len(mine.floors) - 1 in mine.dogs
    if guarded:
        attacks = [(Card.WRECKING_BALL, "wrecking ball"), (Card.BONE, "a bone, then more")]
    else:
        attacks = [(floor_card(v), f"a {v} steals") for v in sorted({9 - p.value for p in top.pieces})]
        attacks += [(Card.JACKHAMMER, "jackhammer"), (Card.WRECKING_BALL, "wrecking ball")]
    named = [f"{words} ({hidden[card]} unseen)" for card, words in attacks if hidden[card]]
    head = f"Threats to your top {floor_text(top)}" + (" (dog)" if guarded else "") + ": "
    if not named:
        return head + "none, every card that could take it is seen."
    who = ", ".join(f"{view.seats[s].name} ({view.seats[s].hand_size} cards)" for s in holders)
    return head + "; ".join(named) + f". Held by {who}?"
