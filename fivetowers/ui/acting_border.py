"""The heavy border of the board whose seat is to act."""

from __future__ import annotations

from textual.color import Color
from textual.widget import Widget

ACTING_BORDER = "#ffd75f"
"""Its colour (the other boards' border: the stylesheets)."""

_EDGE = ("heavy", Color.parse(ACTING_BORDER))
_EDGES = ("border_top", "border_right", "border_bottom", "border_left")


def mark_acting(widget: Widget, acting: bool) -> None:
    """Give ``widget`` the acting border or take it back, as an inline style.

    The same rules as ``styles.border = ("heavy", ACTING_BORDER)`` (or
    ``None``), set without the refresh that each of its four edges and the
    whole then asked for (five refreshes per board per viewer each time the
    turn passed): the caller refreshes the board once, its border is the
    same width either way, and a class would match the whole stylesheet
    against the board again."""
    styles = widget.styles
    for edge in _EDGES:
        if acting:
            styles.set_rule(edge, _EDGE)
        else:
            styles.clear_rule(edge)
