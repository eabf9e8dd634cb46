"""The other players' boards, two a row, in columns of one width."""

from __future__ import annotations

from typing import Any

from textual.containers import Grid
from textual.geometry import Size


class OpponentGrid(Grid):
    """A grid of boards whose columns are all as wide, the odd cell left blank.

    Textual's equal columns (``1fr``) give the odd cell of an odd width to
    the first (24 and 23 at 80 columns, beside the scrollbar): a player's
    board sits in the left column on one viewer's screen and in the right
    on another's, so every viewer's board of that player was rendered at
    two widths, twice a change (ui/shared_lines.py shares renders of one
    size). Columns of the floor of an equal share draw it once.

    The columns are arranged in the width less its odd cells, in the layout
    that sizes the grid: set from a Resize, they cost every screen showing
    the grid a second layout (a joining spectator's table too)."""

    # Any: upstream's result type lives in a private module (textual._arrange).
    def arrange(self, size: Size, optimal: bool = False) -> Any:
        columns = self.styles.grid_size_columns
        if columns >= 2:
            size = Size(size.width - size.width % columns, size.height)
        return super().arrange(size, optimal)
