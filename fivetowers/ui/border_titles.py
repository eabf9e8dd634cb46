"""A board's border title and subtitle, set only where they changed."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

Titles = tuple[Text | str | None, Text | str | None]


def put_titles(widget: Widget, titles: Titles, last: Titles) -> Titles:
    """Give ``widget`` the border ``titles`` (title, subtitle), given those it
    was last given (``last``); returns what it now shows, for next time.

    Each set converts the text and refreshes the widget (~190 Python calls);
    a board shown again at every move mostly keeps its name and often its
    counts. Texts compare by their words and styles: a str and a Text of the
    same words are not the same (a str is read as markup)."""
    title, subtitle = titles
    if not _same(title, last[0]):
        widget.border_title = title
    if not _same(subtitle, last[1]):
        widget.border_subtitle = subtitle
    return titles


def _same(new: Text | str | None, old: Text | str | None) -> bool:
    if type(new) is not type(old):
        return False
    if isinstance(new, Text) and isinstance(old, Text):
        return (new.plain, new.spans, new.style) == (old.plain, old.spans, old.style)
    return new == old
