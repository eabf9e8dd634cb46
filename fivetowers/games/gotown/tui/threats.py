"""The threats against a player's tower, from what is public only: the
cards nobody can see (not in a tower, the discard pile, before a player, or
the viewer's hand) may be in the opponents' hands."""

from __future__ import annotations

from collections import Counter

from fivetowers.games.gotown.chronicle import floor_text
from fivetowers.games.gotown.rules import Card, PlayerView, floor_card
from fivetowers.games.gotown.rules.cards import cards_unseen
from fivetowers.games.gotown.tui.choices import opponents
from fivetowers.i18n import _, ngettext


def unseen(view: PlayerView) -> Counter[Card]:
    """How many of each card the viewer cannot see (other hands and the draw pile)."""
    return cards_unseen(view.seats, view.discard, view.truck_on_table, Counter(view.hand))


def threats(view: PlayerView) -> str:
    """Who could take the viewer's top floor, and with what unseen cards
    (the line's head, up to its first ``": "``, is drawn bold)."""
    if view.seat is None:
        return ""
    mine = view.seats[view.seat]
    holders = [s for s in opponents(view) if view.seats[s].hand_size]
    if not mine.floors:
        return _("Threats: none yet, your tower has no floor.")
    if not holders:
        return _("Threats: none, nobody else holds a card.")
    hidden = unseen(view)
    top = mine.floors[-1]
    guarded = len(mine.floors) - 1 in mine.dogs
    if guarded:
        attacks = [(Card.WRECKING_BALL, _("wrecking ball")),
                   (Card.BONE, _("a bone, then more"))]
    else:
        attacks = [(floor_card(v), _("a {number} steals").format(number=v))
                   for v in sorted({9 - p.value for p in top.pieces})]
        attacks += [(Card.JACKHAMMER, _("jackhammer")), (Card.WRECKING_BALL, _("wrecking ball"))]
    named = [_("{attack} ({count} unseen)").format(attack=words, count=hidden[card])
             for card, words in attacks if hidden[card]]
    head = (_("Threats to your top {floor} (dog)") if guarded
            else _("Threats to your top {floor}")).format(floor=floor_text(top)) + ": "
    if not named:
        return head + _("none, every card that could take it is seen.")
    who = ", ".join(ngettext("{name} ({count} card)", "{name} ({count} cards)",
                             view.seats[s].hand_size).format(
                                 name=view.seats[s].name, count=view.seats[s].hand_size)
                    for s in holders)
    return head + "; ".join(named) + ". " + _("Held by {who}?").format(who=who)
