"""A DataTable's rows added in one step (checked against Textual 8.2.8).

See :func:`add_rows_at_once`; ``tests/compat/test_data_table.py`` pins it down.
"""

from __future__ import annotations

from itertools import zip_longest
from typing import Any, Iterable, Sequence

from textual.widgets import DataTable
from textual.widgets._data_table import CellType, DuplicateKey, Row, RowKey

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

TEXTUAL = "8.2.8"
"""The Textual version the DataTable was read in."""

UPSTREAM_SOURCE = "ef99b72846d8ce48"
"""The first 16 hex digits of the SHA-256 of the sources of Textual's
``DataTable.add_row`` and of what setting the cursor there runs
(``validate_cursor_coordinate``, ``watch_cursor_coordinate``,
``_highlight_cursor``): the steps below are the ones they take only while
they are that code."""


def upstream_source_digest() -> str:
    """The digest of ``DataTable.add_row`` and its cursor's, as UPSTREAM_SOURCE records it."""
    return source_digest(DataTable.add_row, DataTable.validate_cursor_coordinate,
                         DataTable.watch_cursor_coordinate, DataTable._highlight_cursor)


def add_rows_at_once(table: DataTable[Any],
                     rows: Iterable[tuple[str, Sequence[CellType]]]) -> None:
    """Add ``rows`` (each a key and its cells; height 1, no label) to ``table``.

    ``DataTable.add_row`` works out the ordered columns twice, sets the
    cursor to where it is (a validated, always-updated reactive: its
    watchers run) and prompts the table's idle handler for every row: some
    160 Python calls a row, about 5% of a lobby session's start for its
    ten tables. Into an empty table (a new list, or one just cleared:
    its cursor is then in row 0 and stays there) the same rows go in with
    the same state: the row maps, cells, new rows and update count as
    upstream leaves them; the cursor set, the highlight of the first row
    and the idle prompt where upstream's first row makes them (later
    rows' cursor sets leave it where it is: its class watcher does
    nothing for an unmoved cursor, and nothing else watches the lobby's
    list). Into a table with rows, or while ``add_row`` is not the code
    read (its digest is recorded), each row goes in through ``add_row``.
    Retire it when Textual's ``add_rows`` takes keys and sets the cursor
    once: not reported upstream yet.
    """
    if table.row_count or not source_unchanged(
            upstream_source_digest(), UPSTREAM_SOURCE,
            "Textual's DataTable.add_row changed: rows are added one at a time"):
        for key, cells in rows:
            table.add_row(*cells, key=key)
        return
    columns = table.ordered_columns
    for added, (key, cells) in enumerate(rows, 1):
        row_key = RowKey(key)
        if row_key in table._row_locations:
            raise DuplicateKey(f"The row key {row_key!r} already exists.")
        if len(cells) > len(columns):
            raise ValueError("More values provided than there are columns.")
        table._row_locations[row_key] = len(table.rows)
        table._data[row_key] = {column.key: cell for column, cell in zip_longest(columns, cells)}
        table.rows[row_key] = Row(row_key, 1, None, False)
        table._new_rows.add(row_key)
        table._require_update_dimensions = True
        if added == 1:
            table.cursor_coordinate = table.cursor_coordinate
            if columns and table.show_cursor and table.cursor_type != "none":
                table._highlight_cursor()
        table._update_count += 1
        if added == 1:
            table.check_idle()


WORKAROUNDS = (
    Workaround("add_rows_at_once", "fivetowers/compat/data_table.py", "textual", TEXTUAL,
               ("textual.widgets._data_table", "DataTable._row_locations", "DataTable._data",
                "DataTable._new_rows", "DataTable._require_update_dimensions",
                "DataTable._update_count", "DataTable._highlight_cursor"),
               "Textual's add_rows takes row keys and sets the cursor once"),
)
