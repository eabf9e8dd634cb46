"""The piles: the draw pile's size, the discard pile's size and its top card."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from fivetowers.games.gotown.rules import PlayerView
from fivetowers.games.gotown.tui.look import chip


class PilesLine(Static):
    shown: Text | None = None

    def show(self, view: PlayerView) -> None:
        out = Text()
        out.append("Draw ", style="bold")
        out.append(f"{view.draw_count}")
        out.append("  Discard ", style="bold")
        out.append(f"{len(view.discard)}")
        if view.discard:
            out.append(" top ")
            out.append_text(chip(view.discard[-1]))
        if view.truck_on_table:
            out.append("  Donut truck on the table", style="bold #ffd75f")
        out.append(f"  {view.floors_to_win} floors win", style="dim")
        if out != self.shown:
            self.shown = out
            self.update(out)
