"""LinesAfterMeasuring: no line drawn before a DataTable measured its new rows is drawn after."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import DataTable

from fivetowers.compat.measured_lines import LinesAfterMeasuring, column_widths
from fivetowers.compat.textual import RowsMeasuredOnce


class Tabled(App[None]):
    """A table whose size does not change with its rows (no Resize when they come)."""

    CSS = "DataTable { height: 1fr; }"

    def __init__(self, table: DataTable[Any]) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        yield self.table


def line_texts(table: DataTable[Any], lines: int) -> list[str]:
    return [table.render_line(y).text.rstrip() for y in range(lines)]


@pytest.mark.parametrize("make", [LinesAfterMeasuring, RowsMeasuredOnce])
async def test_lines_drawn_before_measuring_are_drawn_anew(make: type[DataTable[Any]]) -> None:
    table = make()
    async with Tabled(table).run_test(size=(60, 8)) as pilot:
        table.add_columns("player", "rating")
        await pilot.pause()
        table.add_row("a rather long name", "1503")
        # A frame before the table idles (a busy loop) draws the header and
        # the row at the widths the labels alone gave.
        table.render_lines(Region(0, 0, table.size.width, 2))
        for _ in range(20):
            await pilot.pause()
            if not table._require_update_dimensions:
                break
        assert column_widths(table)[1] == len("a rather long name")
        header, row = line_texts(table, 2)
        assert row == " a rather long name  1503"
        assert header.index("rating") == row.index("1503")  # the header over its column


async def test_measuring_that_changes_no_width_keeps_the_lines_drawn() -> None:
    table = LinesAfterMeasuring()
    async with Tabled(table).run_test(size=(60, 8)) as pilot:
        table.add_columns("player", "rating")
        table.add_row("ann", "1499")
        for _ in range(20):
            await pilot.pause()
            if not table._require_update_dimensions:
                break
        count = table._update_count
        table.add_row("bob", "1498")  # as wide as the widths measured
        for _ in range(20):
            await pilot.pause()
            if not table._require_update_dimensions:
                break
        assert table._update_count == count + 1  # the row's own, not one for measuring
        assert line_texts(table, 3)[2] == " bob     1498"
