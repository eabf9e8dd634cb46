"""A layout that sizes widgets does not ask for another (checked against Textual 8.2.8).

See :class:`SizedOnceScreen`; ``tests/compat/test_sized_once.py`` pins it down.
"""

from __future__ import annotations

from typing import Any

from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

TEXTUAL = "8.2.8"
"""The Textual version the layout was read in."""
UPSTREAM_SOURCE = "e444b6d056165c54"
"""``source_digest(Screen._refresh_layout, Widget._size_updated)`` of that
version: the sizing this drops the requests of happens there, before the
layout's frame is drawn."""

Bars = tuple[bool, bool]


class SizedOnceScreen(Screen[Any]):
    """A screen whose layout does not ask for a second one by sizing widgets.

    Textual's ``Screen._refresh_layout`` places every widget, then tells each
    its new size (``Widget._size_updated``), which sets its ``virtual_size``,
    a reactive declared with ``layout=True``: every widget whose size
    changed asks for one more layout of the whole screen, which finds the
    places the first one found and draws nothing new. At a GoTown table a
    card picked shows its choices (the play panel grows, the log shrinks)
    and a card played hides them: each was two layouts of the player's
    screen, 60% of the serving process's layouts under load (issue 11).

    Here a layout's own sizing asks for nothing more, unless a widget's
    scrollbars came or went with it (a scrollbar takes room: that layout is
    needed). What is asked for before the layout, or while its frame is
    drawn (a widget's render may ask for a layout), stays asked for. The
    widgets are those of the DOM walk: a scrollbar widget's own asks are
    kept (a missed saving, never a wrong place). Upstream's one use of the
    layout before is a container's ``anchor``, which no screen here sets.
    Retire it when Textual's layout does not re-request itself for the
    sizes it just set: not reported upstream yet.
    """

    _sizing: tuple[set[Widget], dict[Widget, Bars]] | None = None
    """During a layout, until its frame is drawn: the widgets that had asked
    for a layout before it, and every widget's scrollbars before it."""

    def _refresh_layout(self, size: Size | None = None, scroll: bool = False) -> None:
        if (scroll and not self._layout_widgets) or not upstream_unchanged():
            super()._refresh_layout(size, scroll)  # a scroll's reflow sizes no widget
            return
        widgets = list(self.walk_children(Widget, with_self=True))
        self._sizing = ({widget for widget in widgets if widget._layout_required},
                        {widget: _bars(widget) for widget in widgets})
        try:
            super()._refresh_layout(size, scroll)
        finally:
            self._settle()  # when no frame was drawn (inside a batch)

    def _compositor_refresh(self) -> None:
        self._settle()  # the sizing is done: a render's own asks are kept
        super()._compositor_refresh()

    def _settle(self) -> None:
        """Drop the layouts the last layout's sizing asked for."""
        if self._sizing is None:
            return
        asked_before, bars = self._sizing
        self._sizing = None
        for widget in self.walk_children(Widget, with_self=True):
            if (widget._layout_required and widget not in asked_before
                    and bars.get(widget) == _bars(widget)):
                widget._layout_required = False


def _bars(widget: Widget) -> Bars:
    return widget.show_vertical_scrollbar, widget.show_horizontal_scrollbar


def upstream_unchanged() -> bool:
    """Whether Textual's layout and sizing are the code this was read in."""
    return source_unchanged(source_digest(Screen._refresh_layout, Widget._size_updated),
                            UPSTREAM_SOURCE,
                            "Textual's Screen._refresh_layout or Widget._size_updated is not "
                            "the code SizedOnceScreen was read in: layouts are made as "
                            "upstream does")


WORKAROUNDS = (
    Workaround("SizedOnceScreen", "fivetowers/compat/sized_once.py", "textual", TEXTUAL,
               ("Screen._refresh_layout", "Screen._compositor_refresh", "Screen._layout_widgets",
                "Widget._size_updated", "Widget._layout_required"),
               "Textual's layout does not ask for another for the sizes it just set"),
)
