"""The other players' boards, two a row, in columns of one width."""

from __future__ import annotations

from textual import events
from textual.containers import Grid


class OpponentGrid(Grid):
    """A grid of boards whose columns are all as wide, the odd cell left blank.

    Textual's equal columns (``1fr``) give the odd cell of an odd width to
    the first (24 and 23 at 80 columns, beside the scrollbar): a player's
    board sits in the left column on one viewer's screen and in the right
    on another's, so every viewer's board of that player was rendered at
    two widths, twice a change (ui/shared_lines.py shares renders of one
    size). Columns of the floor of an equal share draw it once."""

    column_width: int = 0
    """The width the columns were last given (0: not yet)."""

    def on_resize(self, event: events.Resize) -> None:
        columns = self.styles.grid_size_columns
        if columns < 2:
            return
        width = event.size.width // columns
        if width == self.column_width:
            return
        self.column_width = width
        self.styles.grid_columns = " ".join([str(width)] * columns)
