"""A text widget's new content without laying the whole screen out again.

``Static.update`` asks for a layout of the screen by default: every widget
placed again, and every one whose place changed drawn again. At a hosted
table every viewer's screen redraws on every move, so a line of text that
changes on every move (the piles' counts, a panel's words) laid out every
viewer's screen on every move (issue 11: the loop's stalls). Most of the
time the text keeps its height: a repaint of the widget is all it needs.
"""

from __future__ import annotations

from functools import lru_cache

from textual.content import Content
from textual.css.styles import RulesMap
from textual.css.types import TextOverflow, TextWrap
from textual.visual import VisualType
from textual.widgets import Static

HEIGHTS_KEPT = 512
"""Text heights kept (:func:`text_height`): a table's lines of words, a few
each move, the same for every viewer at the table."""


@lru_cache(maxsize=HEIGHTS_KEPT)
def _height(plain: str, width: int, line_pad: int, overflow: TextOverflow,
            wrap: TextWrap) -> int:
    rules = RulesMap(line_pad=line_pad, text_overflow=overflow, text_wrap=wrap)
    return Content(plain, strip_control_codes=False).get_height(rules, width)


def text_height(widget: Static, width: int) -> int:
    """The height of ``widget``'s text at ``width``, as Textual measures an
    auto height (``Content.get_height``, which wraps the text without its
    styles), measured once for every viewer who shows the same words: each
    measure is a wrap of the whole text, and every viewer at a table
    measured the same words on every move."""
    visual = widget.visual
    styles = widget.styles
    if not isinstance(visual, Content):
        return visual.get_height(styles, width)  # type: ignore[arg-type]
    return _height(visual.plain, width, styles.line_pad, styles.text_overflow, styles.text_wrap)


def kept_height(widget: Static, lines: int) -> int:
    """The height ``lines`` of text get in ``widget`` once its min-height and
    max-height (in cells) have their say: a widget that keeps room for its
    longest text (min-height) does not change height when its text does."""
    styles = widget.styles
    gutter = widget.gutter.height if styles.box_sizing == "border-box" else 0
    low, high = styles.min_height, styles.max_height
    if low is not None and low.is_cells:
        lines = max(lines, int(low.value) - gutter)
    if high is not None and high.is_cells:
        lines = min(lines, int(high.value) - gutter)
    return lines


def update_steady(widget: Static, content: VisualType) -> int:
    """Show ``content`` in ``widget``; lay the screen out again only if its
    height may change: the text's height (measured as Textual measures an
    auto height, within the widget's min and max height) is neither the
    height the widget has now nor the one it had at the last update, or it
    cannot be measured (not laid out yet).
    Returns the measured height (-1: not measured)."""
    widget.update(content, layout=False)
    width = widget.content_region.width
    lines = text_height(widget, width) if width > 0 else -1
    if lines >= 0:
        lines = kept_height(widget, lines)
    shown: tuple[int, int] = widget.__dict__.get("_steady_shown", (-1, -1))
    if lines < 0 or (lines != widget.content_region.height and (lines, width) != shown):
        widget.refresh(layout=True)
    widget.__dict__["_steady_shown"] = (lines, width)
    return lines
