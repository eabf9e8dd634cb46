"""add_rows_at_once: the rows, cursor and messages add_row leaves, in fewer calls."""

from __future__ import annotations

from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.message import Message
from textual.widgets import DataTable
from textual.widgets._data_table import DuplicateKey

from fivetowers.compat.data_table import (UPSTREAM_SOURCE, add_rows_at_once,
                                          upstream_source_digest)
from tests.compat.calls import python_calls

ROWS = [(f"T{i:03d}", (f"T{i:03d}", Text(f"table {i}"), "base", f"{i % 4}/4", "forming"))
        for i in range(10)]


class Tables(App[None]):
    def compose(self) -> ComposeResult:
        yield DataTable(id="upstream")
        yield DataTable(id="at-once")


def test_the_data_table_replayed_is_textual_s() -> None:
    assert upstream_source_digest() == UPSTREAM_SOURCE, (
        "Textual's DataTable.add_row changed: re-read it, update compat/data_table.py "
        "and its digest")


def state(table: DataTable[Any], posted: list[Message]) -> tuple[Any, ...]:
    locations = table._row_locations
    return ([(key, locations.get(key), locations.get_key(locations.get(key) or 0))
             for key in table.rows],
            {key: [(str(table.columns[column].label), cell) for column, cell in cells.items()]
             for key, cells in table._data.items()},
            [(key, row.height, row.label, row.auto_height) for key, row in table.rows.items()],
            set(table._new_rows), table._update_count, table._require_update_dimensions,
            table.cursor_coordinate, table.row_count,
            [(type(message).__name__, getattr(message, "cursor_row", None),
              getattr(message, "row_key", None)) for message in posted])


def recorded(table: DataTable[Any]) -> list[Message]:
    posted: list[Message] = []
    post = table.post_message

    def record(message: Message) -> bool:
        posted.append(message)
        return post(message)
    table.post_message = record  # type: ignore[method-assign]
    return posted


@pytest.mark.parametrize("cursor_type", ["row", "cell", "column", "none"])
@pytest.mark.parametrize("cleared", [False, True])
@pytest.mark.parametrize("count", [0, 1, 10])
async def test_rows_go_in_as_add_row_puts_them(cursor_type: str, cleared: bool,
                                               count: int) -> None:
    app = Tables()
    async with app.run_test() as pilot:
        tables = [app.query_one("#upstream", DataTable), app.query_one("#at-once", DataTable)]
        for table in tables:
            table.cursor_type = cursor_type  # type: ignore[assignment]
            table.add_columns("code", "table", "rules", "seats", "status")
            if cleared:  # the lobby's later fills: rows, a cursor moved, cleared
                table.add_row("old", "x", key="old")
                table.add_row("older", "y", key="older")
                table.move_cursor(row=1, column=2)
                table.clear()
        await pilot.pause()
        upstream, at_once = tables
        posted = [recorded(table) for table in tables]
        for key, cells in ROWS[:count]:
            upstream.add_row(*cells, key=key)
        add_rows_at_once(at_once, ROWS[:count])
        assert state(at_once, posted[1]) == state(upstream, posted[0])
        await pilot.pause()
        assert at_once.cursor_coordinate == upstream.cursor_coordinate
        assert ([at_once.get_row_at(i) for i in range(count)]
                == [upstream.get_row_at(i) for i in range(count)])


async def test_a_table_with_rows_takes_them_through_add_row() -> None:
    app = Tables()
    async with app.run_test():
        table = app.query_one("#at-once", DataTable)
        table.add_columns("code", "table", "rules", "seats", "status")
        table.add_row("first", key="first")
        table.move_cursor(row=0, column=3)
        calls: list[str | None] = []
        add_row = table.add_row

        def counted(*cells: Any, key: str | None = None, **kwargs: Any) -> Any:
            calls.append(key)
            return add_row(*cells, key=key, **kwargs)
        table.add_row = counted  # type: ignore[method-assign]
        add_rows_at_once(table, ROWS[:3])
        assert calls == ["T000", "T001", "T002"]
        assert table.cursor_coordinate == (0, 3)


async def test_bad_rows_are_refused_as_add_row_refuses_them() -> None:
    app = Tables()
    async with app.run_test():
        table = app.query_one("#at-once", DataTable)
        table.add_columns("code", "table")
        with pytest.raises(DuplicateKey):
            add_rows_at_once(table, [("a", ("a", "1")), ("a", ("a", "2"))])
        table.clear()
        with pytest.raises(ValueError, match="More values"):
            add_rows_at_once(table, [("b", ("b", "1", "extra"))])


async def test_ten_rows_take_fewer_than_half_the_calls() -> None:
    app = Tables()
    async with app.run_test():
        upstream, at_once = app.query(DataTable)
        for table in (upstream, at_once):
            table.add_columns("code", "table", "rules", "seats", "status")

        def one_at_a_time() -> None:
            for key, cells in ROWS:
                upstream.add_row(*cells, key=key)
        before = python_calls(one_at_a_time)
        after = python_calls(lambda: add_rows_at_once(at_once, ROWS))
        assert after < before / 2, (before, after)
