"""A widget's content lines styled with what its styles say worked out once a render."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from rich.segment import Segment
from rich.terminal_theme import TerminalTheme
from textual._ansi_theme import DEFAULT_TERMINAL_THEME
from textual._border import get_box
from textual._segment_tools import line_pad
from textual._styles_cache import StylesCache
from textual.color import Color
from textual.filter import LineFilter
from textual.geometry import Region, Size, Spacing
from textual.strip import Strip
from textual.style import Style

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

TEXTUAL = "8.2.8"
"""The Textual version this was checked against."""
UPSTREAM_SOURCE = "f1beeed9ca0d95ad"
"""The digest (:func:`~fivetowers.compat.checked.source_digest`) of
upstream's ``StylesCache.render`` and ``StylesCache.render_line``, whose
content rows :func:`_render` replays."""

_original: Callable[..., list[Strip]] | None = None


def upstream_source_digest() -> str:
    """The digest of the upstream code :func:`_render` replays."""
    return source_digest(StylesCache.render if _original is None else _original,
                         StylesCache.render_line)


def style_content_lines_once() -> bool:
    """Make every widget's render style its content rows with what its
    styles say worked out once a render, not once a row; True if it does.

    Textual's ``StylesCache.render_line`` reads the widget's styles (its
    border, outline, gutter, hatch, tint, text opacity: a dozen CSS rule
    look-ups) and makes the border's styles again for every row it draws,
    and applies tint and opacity through the App's context on each: at a
    table, some 12% of a move's Python calls per viewer (issue 11). For a
    widget without the effects that make a row more than its content,
    padding and side borders (outline, hatch, tint, text opacity,
    opacity), :func:`_render` works those out once a render and draws each
    content row itself, as ``render_line`` would: the same segments. The
    rows of the top and bottom borders and of the padding, and widgets with
    any of those effects, are upstream's. Only while upstream's code is the
    code this was read in (its source's digest). Retire it when Textual
    hoists the per-widget work out of ``render_line``: not reported
    upstream yet.
    """
    global _original
    if _original is not None:
        return True
    if not source_unchanged(upstream_source_digest(), UPSTREAM_SOURCE,
                            "Textual's StylesCache.render or render_line changed: "
                            "each row is styled as upstream does"):
        return False
    _original = StylesCache.render
    StylesCache.render = _render  # type: ignore[method-assign]
    return True


def _plain(styles: Any, opacity: float) -> bool:
    """Whether a row of content is its content, padding and side borders
    only (no effect of ``render_line``'s ``post``, ``line_post``, text
    opacity or outline applies)."""
    if opacity != 1.0 or styles.tint.a or styles.text_opacity != 1.0:
        return False
    if styles.has_rule("hatch") and styles.hatch != "none":
        return False
    return not any(edge for edge, _ in styles.outline)


def _render(self: StylesCache, styles: Any, size: Size, base_background: Color,
            background: Color, render_content_line: Callable[[int], Strip],
            filters: Sequence[LineFilter], border_title: Any, border_subtitle: Any,
            content_size: Size | None = None, padding: Spacing | None = None,
            crop: Region | None = None, opacity: float = 1.0,
            ansi_theme: TerminalTheme = DEFAULT_TERMINAL_THEME,
            native_ansi: bool = False) -> list[Strip]:
    # Upstream's render (its cache of rows, dirty rows, filters and crop),
    # with the content rows of a plain widget drawn by _content_row.
    assert _original is not None
    if not _plain(styles, opacity):
        return _original(self, styles, size, base_background, background, render_content_line,
                         filters, border_title, border_subtitle, content_size, padding, crop,
                         opacity, ansi_theme, native_ansi)
    if content_size is None:
        content_size = size
    if padding is None:
        padding = styles.padding
    if crop is None:
        crop = size.region
    width, height = size
    if width != self._width:
        self.clear()
        self._width = width
    content_width, content_height = content_size
    pad_top, pad_right, pad_bottom, pad_left = padding
    gutter = styles.gutter
    (border_top, _), (border_right, right_color), (border_bottom, _), (border_left, left_color) \
        = styles.border
    inner, outer = self.get_inner_outer(base_background, background)
    inner_style = inner.rich_style
    left = get_box(border_left, inner, outer,
                   Style(foreground=base_background + left_color.multiply_alpha(opacity)))[1][0]
    right = get_box(border_right, inner, outer,
                    Style(foreground=base_background + right_color.multiply_alpha(opacity)))[1][2]
    first, last = gutter.top, height - gutter.bottom  # the content rows: [first, last)

    def content_row(y: int) -> Strip:
        # render_line's branch (C), less what _plain ruled out.
        content_y = y - first
        if content_y < content_height:
            line = render_content_line(content_y).adjust_cell_length(content_width, inner_style)
        else:
            line = Strip.blank(content_width, inner_style)
        segments: Iterable[Segment] = (line_pad(line, pad_left, pad_right, inner_style)
                                       if pad_left or pad_right else line)
        if border_left and border_right:
            segments = [left, *segments, right]
        elif border_left:
            segments = [left, *segments]
        elif border_right:
            segments = [*segments, right]
        return Strip(segments, width)

    strips: list[Strip] = []
    cache = self._cache
    dirty = self._dirty_lines
    for y in crop.line_range:
        if y in dirty or y not in cache:
            if ((border_top and y == 0) or (border_bottom and y == height - 1)
                    or (pad_top and y < first) or (pad_bottom and y >= last)):
                strip = self.render_line(styles, y, size, content_size, padding, base_background,
                                         background, render_content_line, border_title,
                                         border_subtitle, opacity, ansi_theme, native_ansi)
            else:
                strip = content_row(y)
            cache[y] = strip
        else:
            strip = cache[y]
        for line_filter in filters:
            strip = strip.apply_filter(line_filter, background)
        strips.append(strip)
    dirty.difference_update(crop.line_range)
    if crop.column_span != (0, width):
        x1, x2 = crop.column_span
        strips = [strip.crop(x1, x2) for strip in strips]
    return strips


WORKAROUNDS = (
    Workaround("style_content_lines_once", "fivetowers/compat/styled_lines.py", "textual",
               TEXTUAL, ("textual._styles_cache.StylesCache", "StylesCache._cache",
                         "StylesCache._dirty_lines", "StylesCache._width",
                         "textual._border.get_box", "textual._segment_tools.line_pad"),
               "Textual works out a widget's styles once a render, not once a row"),
)
