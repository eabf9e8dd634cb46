"""The game log: who bid, who took what, what was torn down."""

from __future__ import annotations

from rich.text import Text
from textual.events import MouseScrollDown, MouseScrollUp

from fivetowers.games.five_towers.rules import LogEntry
from fivetowers.games.five_towers.tui.look import safe
from fivetowers.games.five_towers.tui.words import entry_text
from fivetowers.i18n import _
from fivetowers.ui.entry_log import EntryLog

_STYLE = {"reveal": "bold", "auto-pass": "dim", "build": "green", "reshuffle": "yellow",
          "end": "bold magenta", "no-build": "dim", "chat": "italic #87d7ff"}


class GameLog(EntryLog[LogEntry]):
    """The newest entries that fit, newest at the bottom; the mouse wheel goes
    back through older ones.

    Every viewer at a table (they read the same log) shares one rendering of
    it. A scrolling log with a scrollbar cost each viewer a full re-render
    of the log and its scrollbar for every move."""

    def __init__(self) -> None:
        super().__init__(id="log")
        self.entries: tuple[LogEntry, ...] = ()
        self.back = 0
        """Entries hidden below the bottom line (the wheel went back)."""
        self.border_title = _("Log")

    @property
    def shown(self) -> int:
        """How many entries the log has been given."""
        return len(self.entries)

    def show(self, entries: tuple[LogEntry, ...]) -> None:
        if entries == self.entries:
            return
        if self.back and entries[:len(self.entries)] == self.entries:
            self.back += len(entries) - len(self.entries)  # reading back: stay put
        else:
            self.back = 0
        self.entries = entries
        self._update()

    def _update(self) -> None:
        self.redraw(_("↓ {count} newer (wheel)").format(count=self.back) if self.back else "")

    def window(self) -> tuple[LogEntry, ...]:
        """The entries that can be on screen: no more than the log has lines."""
        end = len(self.entries) - self.back
        return self.entries[max(0, end - max(self.content_region.height, 1)):end]

    def look(self, entry: LogEntry) -> Text:
        return Text(safe(entry_text(entry)), style=_STYLE.get(entry.kind, ""))

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        event.stop()
        if self.back < len(self.entries) - 1:
            self.back += 1
            self._update()

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        event.stop()
        if self.back:
            self.back -= 1
            self._update()
