"""The game log: who bid, who took what, what was torn down."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

from fivetowers.rules import LogEntry
from fivetowers.tui.look import safe

_STYLE = {"reveal": "bold", "auto-pass": "dim", "build": "green", "reshuffle": "yellow",
          "end": "bold magenta", "no-build": "dim"}


class GameLog(RichLog):
    """Appends the entries it has not shown yet (never re-renders the lot)."""

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
        for entry in entries[self.shown:]:
            self.write(Text(safe(entry.text), style=_STYLE.get(entry.kind, "")))
        self.shown = len(entries)
