"""Textual's footer, without the keys it forgets to let go of."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer

from fivetowers.compat.textual import drop_closed_watchers, translate_footer_keys
from fivetowers.i18n import current


class KeyFooter(Footer):
    """Footer whose rebuilt keys do not keep every earlier set alive.

    In Textual 8.2 each rebuild binds the new keys' ``compact`` to the footer's,
    and the footer drops the old keys' watchers only when ``compact`` itself
    changes, which it never does here: every change of the keys shown (a
    new phase, a screen) kept the old key widgets, some 20 KiB each, for as
    long as the session lasted."""

    def compose(self) -> ComposeResult:
        # Bindings are class attributes, written in English (marked with N_):
        # each viewer reads their descriptions in their own language.
        yield from translate_footer_keys(super().compose(), current().gettext)

    async def recompose(self) -> None:
        await super().recompose()
        drop_closed_watchers(self, "compact")
