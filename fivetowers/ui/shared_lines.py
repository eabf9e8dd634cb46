"""Rendered lines shared by every screen that shows the same thing.

At a hosted table every player and spectator sees the same opponents'
boards, the same bidding panel and mostly the same status line, each in its
own App. Textual would render those lines once per App; a widget that knows
what it shows gives a key for it, and the first App to draw that content at
that size renders it while the others reuse its lines (Strips are never
changed once made). Everything else that decides how the lines look is in
the key too: the App's class (its stylesheet), theme, the widget's size,
classes and the pseudo-classes its rules test, the screen's classes, and the
viewer's language (two players at one table may read two: the same content
says other words). What is shared is the whole widget's render, whichever
rows a screen asks for.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Hashable
from weakref import WeakSet

from rich.text import Text
from textual.app import App
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from fivetowers.compat.restyle_memo import until_restyled
from fivetowers.compat.textual import look_pseudo_classes, release_strip_caches
from fivetowers.i18n import current_language

KEPT = 256
"""Renders kept at the least."""
PER_APP = 16
"""Renders kept per App drawing with them: about 80 for a five-seat table,
which shows some 20 at a time. Fewer made viewers render again what another
had drawn (at 100 sessions, 6 per App cost 80% of a core against 52%); more
keeps old logs and status lines that never come back."""

_lines: OrderedDict[Hashable, list[Strip]] = OrderedDict()
_contents: OrderedDict[Hashable, list[Strip]] = OrderedDict()
"""Widgets' content lines (inside border and padding), by what they show:
:func:`shared_content_line`, within :func:`content_bound`."""
CONTENTS_KEPT = 32
"""Content renders kept at the least."""
CONTENTS_PER_APP = 2
"""Content renders kept per App drawing: a table's boards whose towers have
not changed since they were last drawn (a bidding round's), some ten a
table of five. A render is some 20 KiB with its strips' caches."""
_apps: WeakSet[App[Any]] = WeakSet()


def bound() -> int:
    """How many entries are kept now: :data:`PER_APP` for every App drawing
    them, at least :data:`KEPT`."""
    return max(KEPT, PER_APP * len(_apps))


def content_bound() -> int:
    """How many content renders are kept now (:func:`shared_content_line`)."""
    return max(CONTENTS_KEPT, CONTENTS_PER_APP * len(_apps))


def text_key(text: Text) -> Hashable:
    """What a Rich Text shows, as a key."""
    return text.plain, tuple(text.spans), str(text.style), text.end


def look_key(widget: Widget) -> Hashable:
    """Everything but its content and size that decides how ``widget`` looks."""
    app = widget.app
    return (type(app), app.theme, app.ansi_color, until_restyled(widget, _styled_look),
            current_language())


def _styled_look(widget: Widget) -> Hashable:
    """What of ``widget``'s look only changes when Textual restyles it."""
    return (type(widget), frozenset(widget.classes), look_pseudo_classes(widget),
            frozenset(widget.screen.classes))


def shared_lines(widget: Widget, content: Hashable | None, crop: Region,
                 render: Callable[[Region], list[Strip]]) -> list[Strip]:
    """``render(crop)``, or the same lines another App already rendered."""
    if content is None or widget.text_selection is not None:
        return render(crop)
    width, height = widget.outer_size  # what render_lines' crops are within
    key = (content, widget.size, widget.outer_size, look_key(widget))
    # The whole widget, whatever part this screen asked for: screens repaint
    # the rows their own changes touched (compat/dirty_lines.py), and a
    # viewer's rows are seldom another's.
    lines = _kept(_lines, key, bound, widget.app,
                  lambda: render(Region(0, 0, width, height)))
    if crop == Region(0, 0, width, height):
        return lines
    rows = lines[crop.y:crop.bottom]
    if crop.x == 0 and crop.width == width:
        return rows
    return [line.crop(crop.x, crop.right) for line in rows]


def shared_content_line(widget: Widget, content: Hashable | None, y: int,
                        render_line: Callable[[int], Strip]) -> Strip:
    """Line ``y`` of ``widget``'s content (Widget.render_line: inside its
    border and padding), or the same line another App, or this one before,
    drew for the same ``content``.

    A board whose border or title changed (the turn passed to its seat or
    left it, a seat's note) is drawn again whole (:func:`shared_lines` keys
    the whole widget), though its towers are as they were: most of a
    board's render is its content's, the towers' words and chips styled
    and cut into lines. Keyed as :func:`shared_lines` is, by everything
    that decides the content's look (not the border's: an inline border
    style, as the acting border is, is not in :func:`look_key`)."""
    if content is None or widget.text_selection is not None:
        return render_line(y)
    key = (content, widget.size, look_key(widget))
    lines = _kept(_contents, key, content_bound, widget.app,
                  lambda: [render_line(row) for row in range(widget.size.height)])
    return lines[y] if 0 <= y < len(lines) else render_line(y)


def _kept(cache: OrderedDict[Hashable, list[Strip]], key: Hashable, bound: Callable[[], int],
          app: App[Any], render: Callable[[], list[Strip]]) -> list[Strip]:
    """The lines ``cache`` keeps for ``key``, else ``render()``'s, kept there
    for the Apps to come (``app`` counts toward ``bound()``)."""
    lines = cache.get(key)
    if lines is not None:
        cache.move_to_end(key)
        return lines
    lines = cache[key] = render()
    _apps.add(app)
    while len(cache) > bound():  # the bound falls as Apps go: the cache with it
        # A Strip caches itself, so a dropped render is reference cycles that
        # only a full collection (kept rare, see collector.py) frees.
        release_strip_caches(cache.popitem(last=False)[1])
    return lines
