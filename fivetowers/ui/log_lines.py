"""A log's drawn lines, kept per entry.

A log shows its newest entries, and a move adds one or two: rendering the
whole log again (every entry wrapped, styled and cut into lines, 3-7 ms a
change) redid what the last render had done. Each entry's lines are drawn
once per look and width, by the pipeline Textual draws a widget's content
with (so they are the lines it would draw: an entry's lines never depend
on its neighbours'), and a log's content is its newest entries' lines,
newest at the bottom. The entries are kept for every App (viewers at a
table read the same log), ``PER_APP`` for each App drawing logs; the whole
log's render is still shared between viewers by ui/shared_lines.py.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache
from typing import Any, Callable, Hashable, Sequence, TypeVar
from weakref import WeakSet

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget

from fivetowers.compat.textual import release_strip_caches
from fivetowers.ui.shared_lines import look_key

Entry = TypeVar("Entry", bound=Hashable)

KEPT = 128
"""Entries' lines kept at the least."""
PER_APP = 16
"""Entries' lines kept per App drawing logs. A viewer's log shows about 10
entries, and a table's viewers share theirs (16, not 8: a lone player's
App at a table of bots shares them with nobody); the entries of games over are
never shown again. 20 sessions at 4 tables played game after game
(scripts/bench_cache_bounds.py) hit 80.0% with 2,048 kept (about 1.9 KiB
each: 3.8 MiB, some 19 minutes to fill in the load test) and 80.1% with
256 and with 96."""

_entries: OrderedDict[Hashable, list[Strip]] = OrderedDict()
_apps: WeakSet[App[Any]] = WeakSet()


def bound() -> int:
    """How many entries are kept now: :data:`PER_APP` for every App drawing
    them, at least :data:`KEPT`."""
    return max(KEPT, PER_APP * len(_apps))


def entry_lines(widget: Widget, entry: Entry, text: Callable[[Entry], Text],
                width: int, look: Hashable) -> list[Strip]:
    """``text(entry)`` drawn in ``widget`` at ``width``, once per look."""
    key = (look, width, entry)
    lines = _entries.get(key)
    if lines is not None:
        _entries.move_to_end(key)
        return lines
    wrapped = Text("\n").join(text(entry).wrap(widget.app.console, width))
    lines = _entries[key] = Visual.to_strips(
        widget, visualize(widget, wrapped, markup=False), width, None, widget.visual_style)
    while len(_entries) > bound():  # the bound falls as Apps go: the cache with it
        release_strip_caches(_entries.popitem(last=False)[1])
    return lines


def log_lines(widget: Widget, entries: Sequence[Entry], text: Callable[[Entry], Text],
              width: int, height: int) -> list[Strip]:
    """The last ``height`` lines of ``entries`` (oldest first) drawn one after
    another: the content of a log whose newest entry is at the bottom."""
    if width <= 0 or height <= 0:
        return []
    look = (look_key(widget), widget.visual_style)
    _apps.add(widget.app)
    drawn: list[list[Strip]] = []
    count = 0
    for entry in reversed(entries):
        lines = entry_lines(widget, entry, text, width, look)
        drawn.append(lines)
        count += len(lines)
        if count >= height:
            break
    rows = [(y, line) for lines in reversed(drawn) for y, line in enumerate(lines)][-height:]
    return [line if y == row else on_row(line, row) for row, (y, line) in enumerate(rows)]


def on_row(line: Strip, row: int) -> Strip:
    """``line`` drawn at ``row`` of the content: Textual marks each piece of
    text with where it is (``meta["offset"]``, for selecting text with the
    mouse), and an entry's lines were drawn as if at the top."""
    return Strip([Segment(text, None if style is None else _style_on_row(style, row), control)
                  for text, style, control in line], line.cell_length)


@lru_cache(maxsize=4096)
def _style_on_row(style: Style, row: int) -> Style:
    offset = style.meta.get("offset")
    if offset is None:
        return style
    return style + Style.from_meta({"offset": (offset[0], row)})
