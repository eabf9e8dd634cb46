"""What both games' logs share: the newest entries that fit, newest at the
bottom, each entry's lines drawn once (ui/log_lines.py) and the whole log's
render shared by every viewer who shows the same entries (ui/shared_lines.py)."""

from __future__ import annotations

from typing import Generic, Sequence

from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from fivetowers.ui.log_lines import Entry, log_lines
from fivetowers.ui.no_links import NoLinks
from fivetowers.ui.shared_lines import shared_lines


class EntryLog(NoLinks, Widget, Generic[Entry]):
    """A log of entries, each shown as ``look(entry)`` wrapped to the width.

    One plain widget, not a scrolling one: a new entry repaints the log's own
    lines only. A subclass says which entries can show (``window``)."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self._drawn: list[Strip] = []
        """The content's lines, drawn for the render under way."""
        self._mark: str | None = None
        """The border's subtitle as last set (:meth:`redraw`)."""

    def redraw(self, mark: str) -> None:
        """Draw the log again, with ``mark`` ("↓ N newer", or nothing) under it.

        The subtitle is set only when it changes: each set refreshes the log,
        and mostly it stays empty (a second refresh a move per viewer, with
        its idle and update messages)."""
        if mark != self._mark:
            self._mark = mark
            self.border_subtitle = mark
        self.refresh()

    def look(self, entry: Entry) -> Text:
        """What ``entry`` says, styled."""
        raise NotImplementedError

    def window(self) -> Sequence[Entry]:
        """The entries that can be on screen, oldest first."""
        raise NotImplementedError

    def render(self) -> Text:
        width, height = self.content_region.width, self.content_region.height
        if width <= 0 or height <= 0:
            return Text("")
        lines: list[Text] = []
        for entry in reversed(self.window()):
            lines[:0] = list(self.look(entry).wrap(self.app.console, width))
            if len(lines) >= height:
                break
        return Text("\n").join(lines[-height:])

    def render_line(self, y: int) -> Strip:
        # What render() shows, from each entry's lines drawn once (a new
        # entry draws only itself); a selection is drawn the usual way.
        if self.text_selection is not None:
            return super().render_line(y)
        if y < len(self._drawn):
            return self._drawn[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    def render_lines(self, crop: Region) -> list[Strip]:
        # The viewers at a table mostly read the same entries: rendered once
        # for all who show them (shared_lines keys by the viewer's language
        # too). The border's "↓ N newer" is drawn with the lines: a viewer
        # scrolled back to what all showed a move ago must not be given
        # their lines without it.
        return shared_lines(self, (tuple(self.window()), self.border_subtitle), crop,
                            self._render_lines)

    def _render_lines(self, crop: Region) -> list[Strip]:
        self._drawn = log_lines(self, self.window(), self.look, *self.size)
        return super().render_lines(crop)
