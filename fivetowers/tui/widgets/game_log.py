"""The game log: who bid, who took what, what was torn down."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import RichLog

from fivetowers.rules import LogEntry
from fivetowers.tui.look import safe

_STYLE = {"reveal": "bold", "auto-pass": "dim", "build": "green", "reshuffle": "yellow",
          "end": "bold magenta", "no-build": "dim"}


class GameLog(RichLog):
    """Appends the entries it has not shown yet (never re-renders the lot).

    A new line repaints and scrolls the log only: RichLog would lay out the
    whole screen again for every line (its virtual size is a layout
    reactive), once per viewer of every move."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def __init__(self) -> None:
        super().__init__(id="log", wrap=True, markup=False, highlight=False, auto_scroll=True,
                         min_width=20)
        self.shown = 0
        self.border_title = "Log"
        self.can_focus = False

    def show(self, entries: tuple[LogEntry, ...]) -> None:
        if len(entries) < self.shown:  # a new game at the same widget
            self.clear()
            self.shown = 0
        new = entries[self.shown:]
        self.shown = len(entries)
        if not new:
            return
        if not self._size_known:  # written once the log has a size
            for entry in new:
                self.write(Text(safe(entry.text), style=_STYLE.get(entry.kind, "")))
            return
        for entry in new:
            self.write(Text(safe(entry.text), style=_STYLE.get(entry.kind, "")),
                       scroll_end=False)
        scrollbar = self.show_vertical_scrollbar
        self._scroll_update(self.virtual_size)  # the scrollbar's thumb
        if self.show_vertical_scrollbar != scrollbar:  # it appeared: the text narrows
            self.refresh(layout=True)
        self.scroll_end(animate=False, immediate=True, x_axis=False)
        # Should a layout change the log's size after all, scroll again after
        # it (when the log already ends at the bottom this repaints nothing).
        self.scroll_end(animate=False, immediate=False, x_axis=False)
