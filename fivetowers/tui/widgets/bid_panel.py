"""Bidding: the bids so far (automatic passes labelled) and your legal bids."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from fivetowers.rules import PlayerView
from fivetowers.tui.look import name_text


class BidPanel(Static):
    shown: Text | None = None

    def show(self, view: PlayerView, names: list[str], acting: int | None,
             notice: str, hot_seat: bool = False) -> None:
        out = Text()
        out.append(f"Display {len(view.display)} cards; bids 0..{len(view.display)}\n",
                   style="dim")
        for event in view.bids:
            out.append_text(name_text(names[event.seat], "bold"))
            if event.amount is not None:
                out.append(f"  bids {event.amount}\n")
            elif event.auto:
                out.append("  passes (auto: cannot raise)\n", style="dim")
            else:
                out.append("  passes\n")
        if view.to_move is not None:
            out.append_text(name_text(names[view.to_move], "bold reverse"))
            out.append("  to bid…\n", style="italic")
        if acting is not None and view.to_move == acting:
            bids = view.legal_bids
            if bids:
                if hot_seat:  # several humans share the screen: name the one to act
                    out.append_text(name_text(names[acting], "bold"))
                    out.append(" may bid ", style="bold")
                else:
                    out.append("You may bid ", style="bold")
                out.append(" ".join(map(str, bids)), style="bold green")
            if view.may_pass:
                out.append("  p", style="bold green")
                out.append(" pass")
            if view.high_bid is None:
                out.append("  (you start: no pass)", style="dim")
        if notice:
            out.append(f"\n✗ {notice}", style="bold red")
        if out != self.shown:
            self.shown = out
            self.update(out)
