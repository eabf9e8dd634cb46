"""Widgets whose words are never links: no link styling at each render."""

from __future__ import annotations

from typing import Any, cast

from textual.widget import Widget


class NoLinks:
    """Mixed in first (``class Board(NoLinks, Static)``) into a widget whose
    content has no links (no ``@click`` actions).

    For a widget with ``auto_links`` on (Textual's default), every render of
    its content works out its link style from the stylesheet and copies each
    line to style the links in it, and its frame looks up its hover style:
    at a table, some 3% of a move's Python calls per viewer (issue 11) for
    boards, logs, hints and status lines that have none. Off, the lines are
    those same lines. Not a Widget itself: Textual's stylesheet inherits
    rules along a widget's first Widget base (a Static stays a Static)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(Widget, self).set_reactive(Widget.auto_links, False)
