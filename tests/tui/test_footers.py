"""The footers: Textual's lets go of the keys it shows no more (it kept
them), and the table's one-line key bar shows and presses the keys."""

from __future__ import annotations

import gc
import weakref

from textual.widgets._footer import FooterKey

from fivetowers.compat.textual import watchers_of
from fivetowers.games.five_towers.rules import Variant
from fivetowers.ui.key_footer import KeyFooter
from tests.tui.helpers import app_for, passive_client, settle


async def test_rebuilt_footer_keys_are_freed() -> None:
    app = app_for(passive_client(Variant.BASE, seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")  # the help screen has Textual's footer
        await pilot.pause()
        footer = app.screen.query_one(KeyFooter)
        old = [weakref.ref(key) for key in footer.query(FooterKey)]
        assert old
        for _ in range(5):  # each a full rebuild of the footer's keys
            app.screen.refresh_bindings()
            await pilot.pause()
            await pilot.pause()
        live = list(footer.query(FooterKey))
        assert live and all(weakref.ref(key) not in old for key in live)
        watchers = watchers_of(footer, "compact")
        assert len(watchers) == len(live)
        del live, watchers
        gc.collect()
        assert [ref for ref in old if ref() is not None] == []


async def test_the_key_bar_shows_the_phase_keys_and_a_click_presses_one() -> None:
    from fivetowers.games.five_towers.tui.screens.table import TableScreen
    from fivetowers.ui.key_bar import KeyBar

    app = app_for(passive_client(Variant.BASE, seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        bar = screen.query_one(KeyBar)
        line = bar.line.plain
        assert "0-9 bid / pick" in line and "p pass" in line and "h hints" in line
        assert "t teardown" not in line  # build keys are hidden while bidding
        start, end, key, enabled = next(s for s in bar.spots if s[2] == "h")
        assert enabled and line[start:end] == "h hints"
        hints = screen.show_hints
        await pilot.click(KeyBar, offset=(start + 2, 0))
        await pilot.pause()
        assert screen.show_hints is not hints
        await pilot.press("2")  # the other bot passes: this seat builds
        await settle(pilot)
        assert "t teardown" in bar.line.plain and "p pass" not in bar.line.plain
