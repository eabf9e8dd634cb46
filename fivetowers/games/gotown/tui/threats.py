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


def threats(view: PlayerView) -> list[str]:
    """Who could take the viewer's top floor, and with what (lines for the hint panel)."""
    if view.seat is None:
        return []
    mine = view.seats[view.seat]
    holders = [s for s in opponents(view) if view.seats[s].hand_size]
    if not mine.floors:
        return ["No floor of yours to lose yet."]
    if not holders:
        return ["Nobody else holds a card: your tower is safe."]
    hidden = unseen(view)
    top = mine.floors[-1]
    guarded = len(mine.floors) - 1 in mine.dogs
    lines = [f"Your top {floor_text(top)}" + (" has a dog:" if guarded else ":")]

    def some(card: Card, words: str) -> str | None:
        return f"{words} ({hidden[card]} unseen)" if hidden[card] else None

    if guarded:
        attacks = [some(Card.WRECKING_BALL, "wrecking ball"),
                   some(Card.BONE, "bone, then a steal or jackhammer")]
    else:
        matches = sorted({9 - p.value for p in top.pieces})
        attacks = [some(floor_card(v), f"steal with a {v}") for v in matches]
        attacks += [some(Card.JACKHAMMER, "jackhammer"), some(Card.WRECKING_BALL, "wrecking ball")]
    named = [a for a in attacks if a is not None]
    lines += [f" {a}" for a in named] or [" nothing unseen can take it"]
    if named:
        lines.append(" by " + ", ".join(f"{view.seats[s].name} ({view.seats[s].hand_size})"
                                        for s in holders))
    return lines
