"""Rendered lines shared by every screen that shows the same thing.

At a hosted table every player and spectator sees the same opponents'
boards, the same bidding panel and mostly the same status line, each in its
own App. Textual would render those lines once per App; a widget that knows
what it shows gives a key for it, and the first App to draw that content at
that size renders it while the others reuse its lines (Strips are never
changed once made). Everything else that decides how the lines look is in
the key too: the App's class (its stylesheet), theme, the widget's size,
classes and pseudo-classes, and the screen's classes.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Hashable

from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

KEPT = 2048
"""Renders kept: a few hundred tables' worth of boards and panels."""

_lines: OrderedDict[Hashable, list[Strip]] = OrderedDict()


def text_key(text: Text) -> Hashable:
    """What a Rich Text shows, as a key."""
    return text.plain, tuple(text.spans), str(text.style), text.end


def shared_lines(widget: Widget, content: Hashable | None, crop: Region,
                 render: Callable[[Region], list[Strip]]) -> list[Strip]:
    """``render(crop)``, or the same lines another App already rendered."""
    if content is None or widget.text_selection is not None:
        return render(crop)
    app = widget.app
    key = (type(widget), content, widget.size, crop, type(app), app.theme, app.ansi_color,
           frozenset(widget.classes), frozenset(widget.get_pseudo_classes()),
           frozenset(widget.screen.classes))
    lines = _lines.get(key)
    if lines is None:
        lines = _lines[key] = render(crop)
        if len(_lines) > KEPT:
            _lines.popitem(last=False)
    else:
        _lines.move_to_end(key)
    return lines
