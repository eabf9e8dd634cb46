"""The piles: the draw pile's size, the discard pile's size and its top card."""

from __future__ import annotations

from rich.text import Text

from fivetowers.games.gotown.rules import PlayerView
from fivetowers.games.gotown.tui.look import chip
from fivetowers.i18n import _
from fivetowers.ui.shared_static import SharedStatic
from fivetowers.ui.steady_text import update_steady


class PilesLine(SharedStatic):
    shown: Text | None = None

    def show(self, view: PlayerView) -> None:
        out = Text()
        out.append(_("Draw "), style="bold")
        out.append(f"{view.draw_count}")
        out.append(_("  Discard "), style="bold")
        out.append(f"{len(view.discard)}")
        if view.discard:
            out.append(_(" top "))
            out.append_text(chip(view.discard[-1]))
        if view.truck_on_table:
            out.append(_("  Donut truck on the table"), style="bold #ffd75f")
        out.append(_("  {count} floors win").format(count=view.floors_to_win), style="dim")
        if out != self.shown:
            self.shown = out
            update_steady(self, out)
