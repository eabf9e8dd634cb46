"""Hints: your highest safe bid, the best plan per bid, opponents' safe bids."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from fivetowers.rules import Phase, PlayerView
from fivetowers.tui.look import name_text


class HintPanel(Static):
    def show(self, view: PlayerView, seat: int | None, names: list[str], hint: Any | None,
             thinking: bool) -> None:
        out = Text()
        if seat is None or view.phase is Phase.OVER:
            self.update("no hints now")
            return
        if hint is None:
            out.append("thinking…" if thinking else "no hint yet", style="dim italic")
        elif view.phase is Phase.BUILD and view.high_seat == seat and view.high_bid is not None:
            plan = hint.plans[min(view.high_bid, hint.max_bid)]
            out.append(f"Best build for bid {plan.bid} ({plan.gain:+d} VP):\n", style="bold")
            out.append(plan.explanation)
            out.append("\na", style="bold green")
            out.append(" lays it out for you")
        else:
            out.append("Your highest safe bid: ", style="bold")
            out.append(str(hint.max_bid), style="bold green")
            for plan in hint.plans:
                out.append(f"\n{plan.bid}", style="bold")
                out.append(f" {plan.gain:+d}", style="green" if plan.gain > 0 else "")
                out.append(f" {plan.explanation}" if plan.bid else " take nothing",
                           style="dim" if plan.bid == 0 else "")
        if view.phase is Phase.BID:
            others = [i for i in range(len(view.seats)) if i != seat]
            if others:
                out.append("\nOthers can bid up to: ", style="bold")
                for n, i in enumerate(others):
                    out.append(", " if n else "")
                    out.append_text(name_text(names[i], ""))
                    out.append(f" {view.max_bids[i]}")
        self.update(out)
