"""How GoTown's cards look: every kind has its own letters *and* colour, so
colour-blind players and 16-colour terminals tell them apart too."""

from __future__ import annotations

from importlib.resources import files

from rich.text import Text

from fivetowers.games.gotown.rules import Card, Piece
from fivetowers.i18n import N_, _

GOTOWN_CSS = str(files("fivetowers.styles") / "gotown.tcss")
"""GoTown's screens' styles, by absolute path (read once per app)."""

FLOOR_COLOUR = "#5fafff"
WILD_COLOUR = "#ff87ff"
ACTION_LOOK: dict[Card, tuple[str, str]] = {
    Card.DOG: (N_("Dog"), "#d7875f"),
    Card.BONE: (N_("Bone"), "#d7d7af"),
    Card.JACKHAMMER: (N_("Jack"), "#ff5f5f"),
    Card.WRECKING_BALL: (N_("Wreck"), "#d75f87"),
    Card.MILKSHAKE: (N_("Milk"), "#ffafd7"),
    Card.DONUT_TRUCK: (N_("Donut"), "#ffd75f"),
    Card.THIEF: (N_("Thief"), "#87d787"),
    Card.SUPER_THIEF: (N_("Super"), "#00d7af"),
}
"""Action cards: a short label (the help page spells each out; at most five
letters in every language, as the hand row is laid out for) and a colour."""

DOG_MARK = N_("Dog")
"""A dog guarding a floor (translated where it is drawn)."""


def label(card: Card) -> str:
    """The card's short label: ``5``, ``?``, ``Jack``."""
    return _(ACTION_LOOK[card][0]) if card in ACTION_LOOK else card.value


def colour(card: Card) -> str:
    if card in ACTION_LOOK:
        return ACTION_LOOK[card][1]
    return WILD_COLOUR if card is Card.WILD else FLOOR_COLOUR


def chip(card: Card) -> Text:
    """A card in a hand: its label on its colour."""
    return Text(f" {label(card)} ", style=f"bold black on {colour(card)}")


def card_words(card: Card) -> Text:
    """The card's label in its colour, without a background (lists, the log)."""
    return Text(label(card), style=f"bold {colour(card)}")


def piece_chip(piece: Piece) -> Text:
    """One card of a floor: ``5``, or a wild ``?6`` standing for 6."""
    background = WILD_COLOUR if piece.wild else FLOOR_COLOUR
    return Text(f"{str(piece):^3}", style=f"bold black on {background}")
