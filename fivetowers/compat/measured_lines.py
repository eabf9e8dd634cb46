"""A DataTable that draws no line kept from before its rows were measured
(checked against Textual 8.2.8).

See :class:`LinesAfterMeasuring`; ``tests/compat/test_measured_lines.py`` pins it down.
"""

from __future__ import annotations

from typing import Any, Iterable

from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

from fivetowers.compat.checked import Workaround

TEXTUAL = "8.2.8"
"""The Textual version the DataTable's caches were read in."""


def column_widths(table: DataTable[Any]) -> tuple[int, ...]:
    """The measured content widths of ``table``'s row labels and columns."""
    return (table._label_column.content_width,
            *(column.content_width for column in table.ordered_columns))


class LinesAfterMeasuring(DataTable[Any]):
    """A DataTable whose lines drawn before its new rows were measured are
    not drawn again once they are.

    A DataTable measures new rows in its Idle handler (``_update_dimensions``),
    and keys the lines and cells it draws by ``_update_count``, which adding a
    row and a Resize change but measuring does not. A frame drawn between
    ``add_row`` and that Idle (a busy event loop, a note updated beside the
    table) cached the header and rows at the widths before, and when the
    table's size did not change with its rows (no Resize), those lines were
    drawn again: the leaderboard's header came out narrower than its rows.
    When measuring changes a column's width, the count moves on, so every
    line is drawn at the widths measured. Retire it when DataTable keys its
    caches by its column widths (or clears them when it measures): not
    reported upstream yet.
    """

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        before = column_widths(self)
        self._measure(new_rows)
        if column_widths(self) != before:
            self._update_count += 1
            self.refresh()

    def _measure(self, new_rows: Iterable[RowKey]) -> None:
        """Measure ``new_rows`` as DataTable does (a subclass may measure otherwise)."""
        super()._update_dimensions(new_rows)


WORKAROUNDS = (
    Workaround("LinesAfterMeasuring", "fivetowers/compat/measured_lines.py", "textual", TEXTUAL,
               ("DataTable._update_dimensions", "DataTable._update_count",
                "DataTable._label_column"),
               "DataTable keys its drawn lines by its column widths"),
)
