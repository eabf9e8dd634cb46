"""The end screen's scores: every viewer of the same game's end draws them from
the lines the first viewer's screen rendered (ui/shared_lines.py)."""

from __future__ import annotations

from collections import Counter, OrderedDict
from typing import Any

import pytest
from textual.app import App
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable

import fivetowers.ui.shared_lines as shared
from fivetowers.games.five_towers.rules import Variant
from fivetowers.games.five_towers.tui.app import create_app
from fivetowers.games.five_towers.tui.screens.end import EndScreen
from fivetowers.ui.shared_table import SharedTable
from tests.tui.helpers import finished_client


async def _end_scores(seed: int) -> tuple[App[Any], list[str]]:
    """A new App's end screen of game ``seed``: the App (held, so no later
    App can take its id), the scores' lines."""
    client = finished_client(Variant.BASE, seed)
    app = create_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.push_screen(EndScreen(client, app.table_host))
        await pilot.pause()
        table = app.screen.query_one(SharedTable)
        lines = table.render_lines(Region(0, 0, *table.outer_size))
        return app, [line.text for line in lines]


@pytest.fixture
def own_renders(monkeypatch: pytest.MonkeyPatch) -> Counter[Any]:
    """A fresh shared cache, and a count of the scores' own renders per App."""
    monkeypatch.setattr(shared, "_lines", OrderedDict())
    drawn: Counter[Any] = Counter()
    upstream = DataTable.render_lines

    def counting(self: DataTable[Any], crop: Region) -> list[Strip]:
        if isinstance(self, SharedTable):
            drawn[id(self.app)] += 1
        return upstream(self, crop)

    monkeypatch.setattr(DataTable, "render_lines", counting)
    return drawn


async def test_a_second_viewer_draws_the_scores_from_the_firsts_lines(
        own_renders: Counter[Any]) -> None:
    first_app, first = await _end_scores(3)
    assert own_renders[id(first_app)] > 0  # the first viewer rendered them
    second_app, second = await _end_scores(3)
    assert own_renders[id(second_app)] == 0  # the second only reused them
    assert second == first
    assert any("total" in line for line in first)


async def test_other_scores_are_rendered_anew(own_renders: Counter[Any]) -> None:
    _, first = await _end_scores(3)
    other_app, other = await _end_scores(5)
    assert own_renders[id(other_app)] > 0
    assert other != first
