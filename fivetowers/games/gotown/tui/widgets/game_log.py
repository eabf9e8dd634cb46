"""The log: every play in words, as this viewer may read it (a thief's
catch named only for the thief and the robbed player), newest at the bottom."""

from __future__ import annotations

from rich.text import Text
from textual.events import MouseScrollDown, MouseScrollUp

from fivetowers.i18n import _
from fivetowers.ui.entry_log import EntryLog
from fivetowers.ui.text import safe

STYLE = {"play": "green", "attack": "#ff8787", "tempo": "#ffafd7", "turn": "dim",
         "end": "bold magenta", "chat": "#87d7ff"}


class GameLog(EntryLog[tuple[str, str]]):
    """The newest lines that fit; the mouse wheel reads back through older ones."""

    def __init__(self) -> None:
        super().__init__(id="log")
        self.lines: tuple[tuple[str, str], ...] = ()
        self.back = 0
        self.border_title = _("Log")

    def show(self, lines: tuple[tuple[str, str], ...]) -> None:
        """(kind, text) lines, oldest first (see log_lines)."""
        if lines == self.lines:
            return
        if lines[:len(self.lines)] != self.lines:  # another game, or a mark: start again
            self.back = 0
        elif self.back:
            self.back += len(lines) - len(self.lines)  # reading back: stay put
        self.lines = lines
        self._redraw()

    def _redraw(self) -> None:
        self.redraw(_("↓ {count} newer").format(count=self.back) if self.back else "")

    def look(self, entry: tuple[str, str]) -> Text:
        kind, text = entry
        return Text(safe(text), style=STYLE.get(kind, ""))

    def window(self) -> tuple[tuple[str, str], ...]:
        """The lines that can show: no more than rows (each takes one at least)."""
        end = len(self.lines) - self.back
        return self.lines[max(0, end - max(self.content_region.height, 1)):end]

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        event.stop()
        if self.back < len(self.lines) - 1:
            self.back += 1
            self._redraw()

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        event.stop()
        if self.back:
            self.back -= 1
            self._redraw()
