"""A DataTable whose rows every App showing the same ones shares, measures and draws once."""

from __future__ import annotations

from textual.geometry import Region
from textual.strip import Strip

from fivetowers.compat.textual import RowsMeasuredOnce, data_table_draw_state
from fivetowers.ui.shared_lines import shared_lines


class SharedTable(RowsMeasuredOnce):
    """A DataTable many viewers see with the same rows (the lobby's list of
    tables, a game's final scores): its lines are drawn once for all of them.

    A DataTable renders its rows cell by cell; every viewer of a table
    rendered them again. ``listing`` (what the rows show, set with them)
    keys the rows' measures and the shared lines; None draws this table alone."""

    def render_lines(self, crop: Region) -> list[Strip]:
        layout_pending, hover_cursor = data_table_draw_state(self)
        if self.listing is None or layout_pending:
            return super().render_lines(crop)
        # Everything else that changes how the rows look (focus and the
        # other pseudo-classes, size, theme: shared_lines adds those).
        content = (self.listing, self.cursor_type, self.cursor_coordinate, self.show_cursor,
                   hover_cursor, self.hover_coordinate, self.scroll_offset,
                   self.virtual_size, self.zebra_stripes, self.show_header,
                   tuple(column.get_render_width(self) for column in self.ordered_columns))
        return shared_lines(self, content, crop, super().render_lines)
