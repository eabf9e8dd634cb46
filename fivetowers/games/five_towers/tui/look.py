"""How cards, towers and names look: colour *and* words for every type,
so colour-blind players and 16-colour terminals read them too."""

from __future__ import annotations

from rich.text import Text

from fivetowers.games.five_towers.rules import Card, TowerType
from fivetowers.games.five_towers.tui.words import card_word
from fivetowers.ui.text import name_text, safe

__all__ = ["COLOUR", "TOP_MARK", "MAIN_MARK", "chip", "card_text", "name_text", "safe"]

# Each type: a colour, a full name and a short tag that differ in letters
# (scary, scrap and sand all start with S).
COLOUR = {
    TowerType.CANDY: "#ff6fb5",
    TowerType.SCARY: "#a77bdb",
    TowerType.TREE: "#4caf50",
    TowerType.SCRAP: "#9ea7ad",
    TowerType.SAND: "#e8c547",
}
# The names and tags, in the viewer's language: tui/words.py.
TOP_MARK = "▲"   # a tower top (a 0) ends the tower
MAIN_MARK = "★"  # the main tower: +1 per card


def chip(card_type: TowerType, value: int, padded: bool = False) -> Text:
    """A card value on its type's colour, e.g. ``11`` (tower tops get a mark);
    ``padded`` adds a space each side (your own towers, when there is room)."""
    label = f"{value:>2}" if value else f"{TOP_MARK}0"
    if padded:
        label = f" {label} "
    return Text(label, style=f"bold black on {COLOUR[card_type]}")


def card_text(card: Card) -> Text:
    """``candy-11`` in its colour and the viewer's words (for lists)."""
    return Text(card_word(card), style=f"bold {COLOUR[card.type]}")
