"""The new-table form alone in a test app: drawn, its answer caught."""

from __future__ import annotations

from typing import Any

from textual.app import App

from fivetowers.lobby.new_table_screen import NewTable, NewTableScreen

from tests.server.history_helpers import settle


async def open_form(app: App[None], pilot: Any) -> tuple[NewTableScreen, list[NewTable | None]]:
    """The form once drawn, and the list its answer goes to (it dismisses
    nothing, so the test reads the form after the answer)."""
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, NewTableScreen)
    got: list[NewTable | None] = []
    screen.dismiss = got.append  # type: ignore[method-assign,assignment]
    return screen, got
