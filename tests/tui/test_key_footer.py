"""The footer lets go of the keys it shows no more (Textual's own kept them)."""

from __future__ import annotations

import gc
import weakref

from textual.widgets._footer import FooterKey

from fivetowers.rules import Variant
from fivetowers.tui.widgets.key_footer import KeyFooter
from tests.tui.helpers import app_for, passive_client, settle


async def test_rebuilt_footer_keys_are_freed() -> None:
    app = app_for(passive_client(Variant.BASE, seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeyFooter)
        old = [weakref.ref(key) for key in footer.query(FooterKey)]
        assert old
        for _ in range(5):  # each a full rebuild of the footer's keys
            app.screen.refresh_bindings()
            await pilot.pause()
            await pilot.pause()
        live = list(footer.query(FooterKey))
        assert live and all(weakref.ref(key) not in old for key in live)
        watchers = getattr(footer, "__watchers")["compact"]
        assert len(watchers) == len(live)
        del live, watchers
        gc.collect()
        assert [ref for ref in old if ref() is not None] == []
