"""Under your hand: who could take your top floor, and with which cards
nobody has seen yet (public information only)."""

from __future__ import annotations

from rich.text import Text

from fivetowers.ui.shared_static import SharedStatic
from fivetowers.ui.steady_text import update_steady


class ThreatLine(SharedStatic):
    shown = ""

    def show(self, text: str) -> None:
        if text != self.shown:
            self.shown = text
            head, _, rest = text.partition(": ")
            out = Text(head + ": ", style="bold #ff8787")
            out.append(rest, style="#ff8787")
            update_steady(self, out)
