"""What a picked hand card can do: every target worth offering, each judged
by the engine (a legal one is marked, an illegal one carries its reason).

Pure logic over a view, so a test can hold the marks against the engine's
own list of legal plays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from fivetowers.games.gotown.chronicle import floor_text
from fivetowers.games.gotown.rules import (
    Action, Bone, Build, Card, Dog, DonutTruck, Jackhammer, Milkshake, PlayerView, Steal,
    SuperThief, Thief, WreckingBall,
)
from fivetowers.i18n import _, ngettext

Refusal = Callable[[Action], "str | None"]
"""The engine's reason for refusing a play now, or None if it is legal."""

AGAINST: dict[Card, Callable[[int, int], Action]] = {
    Card.JACKHAMMER: Jackhammer, Card.WRECKING_BALL: WreckingBall,
    Card.MILKSHAKE: Milkshake, Card.THIEF: Thief,
}
"""The action cards played against one opponent, seat → target."""


CARD_OF: dict[type, Card] = {
    Dog: Card.DOG, Bone: Card.BONE, Jackhammer: Card.JACKHAMMER,
    WreckingBall: Card.WRECKING_BALL, Milkshake: Card.MILKSHAKE,
    DonutTruck: Card.DONUT_TRUCK, Thief: Card.THIEF, SuperThief: Card.SUPER_THIEF,
}


def card_of(action: Action) -> Card:
    """The action card a play spends (a build's or steal's first card)."""
    if isinstance(action, (Build, Steal)):
        return action.cards[0] if isinstance(action, Build) else action.card
    return CARD_OF[type(action)]


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing the picked card can do, and what it aims at."""

    action: Action
    label: str
    seat: int | None = None
    """The tower the play aims at (None: a partner in hand, or no target)."""
    floor: int | None = None
    """The floor of that tower it aims at (None: the tower as a whole)."""
    partner: Card | None = None
    """A build's other card, from the hand."""
    refusal: str | None = None

    @property
    def legal(self) -> bool:
        return self.refusal is None


def opponents(view: PlayerView) -> list[int]:
    """The other seats in turn order after the viewer's."""
    me = view.seat or 0
    count = len(view.seats)
    return [(me + k) % count for k in range(1, count)]


def choices_for(card: Card, view: PlayerView, refusal: Refusal) -> list[Choice]:
    """Everything ``card`` (from the viewer's hand) could do now, legal first
    within each kind of play."""
    if view.seat is None:
        return []
    me = view.seat
    names = [s.name for s in view.seats]
    found: list[Choice] = []

    def offer(action: Action, label: str, seat: int | None = None, floor: int | None = None,
              partner: Card | None = None) -> None:
        found.append(Choice(action, label, seat, floor, partner, refusal(action)))

    if card.builds:
        spare = list(view.hand)
        spare.remove(card)
        for other in dict.fromkeys(c for c in spare if c.builds):
            offer(Build(me, (card, other)), _("build {first}+{second}").format(first=card, second=other), partner=other)
        if card.number is not None:
            for s in opponents(view):
                tower = view.seats[s].floors
                top = f" {floor_text(tower[-1])}" if tower else ""
                offer(Steal(me, card, s), _("steal {name}'s top{floor}").format(name=names[s], floor=top), s,
                      len(tower) - 1 if tower else None)
    elif card is Card.DOG:
        for f, floor in enumerate(view.seats[me].floors):
            offer(Dog(me, f), _("guard floor {number} {floor}").format(number=f + 1, floor=floor_text(floor)), me, f)
    elif card is Card.BONE:
        for s in opponents(view):
            seat = view.seats[s]
            for guarded in sorted(seat.dogs):
                offer(Bone(me, s, guarded), _("{name}'s dog, floor {number}").format(name=names[s], number=guarded + 1), s, guarded)
            if not seat.dogs and seat.floors:  # says why a bone needs a dog
                highest = len(seat.floors) - 1
                offer(Bone(me, s, highest), _("{name}'s floor {number}").format(name=names[s], number=highest + 1), s, highest)
    elif card in AGAINST:
        for s in opponents(view):
            seat = view.seats[s]
            aim: int | None = None  # milkshakes and thieves aim at the player
            if card in (Card.JACKHAMMER, Card.WRECKING_BALL):
                shown = f" {floor_text(seat.floors[-1])}" if seat.floors else ""
                words, aim = _("{name}'s top{floor}").format(name=names[s], floor=shown), len(seat.floors) - 1
            elif card is Card.THIEF:
                words = ngettext("{name} ({count} card)", "{name} ({count} cards)", seat.hand_size).format(
                    name=names[s], count=seat.hand_size)
            else:
                words = _("to {name}").format(name=names[s])
            offer(AGAINST[card](me, s), words, s, aim if aim is not None and aim >= 0 else None)
    elif card is Card.SUPER_THIEF:
        offer(SuperThief(me), _("a card from every hand"))
    elif card is Card.DONUT_TRUCK:
        offer(DonutTruck(me), _("play it: another turn"))
    return sorted(found, key=lambda c: (type(c.action).__name__, not c.legal))


def choice_at(choices: list[Choice], seat: int, floor: int | None) -> Choice | None:
    """The choice aimed at ``seat``'s tower where it was clicked: the floor
    itself, else any choice aimed at that tower as a whole or at its top."""
    exact = [c for c in choices if c.seat == seat and c.floor == floor]
    if exact:
        return exact[0]
    whole = [c for c in choices if c.seat == seat]
    return whole[0] if len(whole) == 1 else None
