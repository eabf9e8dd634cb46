"""Hints: your highest safe bid, the best plan per bid, opponents' safe bids."""

from __future__ import annotations

import re

from rich.text import Text
from textual.widgets import Static

from fivetowers.rules import Action, Bid, Build, Phase, PlayerView
from fivetowers.rules.game import describe_build
from fivetowers.solver.plans import Hint, Plan
from fivetowers.tui.look import name_text


_GAIN_SUFFIX = re.compile(r"[;,]?\s*\(?[+-]\d+\)?\s*$")


def explain(plan: Plan) -> str:
    """The plan's explanation without the gain it ends with (shown apart, in colour)."""
    return _GAIN_SUFFIX.sub("", str(plan.explanation))


def describe(action: Action) -> str:
    if isinstance(action, Bid):
        return f"bid {action.amount}"
    if isinstance(action, Build):
        return describe_build("", action).strip()
    return "pass"


class HintPanel(Static):
    def show(self, view: PlayerView, seat: int | None, names: list[str], hint: Hint | None,
             thinking: bool, advice: Action | None = None) -> None:
        # Narrow screens cut each line with an ellipsis (styles/app.tcss), so every bid shows.
        out = Text()
        if seat is None or view.phase is Phase.OVER:
            self.update("no hints now")
            return
        if view.phase is Phase.BUILD and view.high_seat != seat:
            out.append("no hints while ", style="dim italic")
            out.append_text(name_text(names[view.to_move or 0], "dim italic"))
            out.append(" builds", style="dim italic")
        elif hint is None:
            out.append("thinking…" if thinking else "no hint yet", style="dim italic")
        elif view.phase is Phase.BUILD and view.high_seat == seat and view.high_bid is not None:
            plan = hint.plans[min(view.high_bid, hint.max_bid)]
            out.append(f"Best build for bid {plan.bid} ({plan.gain:+d} VP):\n", style="bold")
            out.append(explain(plan))
            out.append("\na", style="bold green")
            out.append(" lays it out for you")
        else:
            out.append("Your highest safe bid: ", style="bold")
            out.append(str(hint.max_bid), style="bold green")
            for plan in hint.plans:
                out.append(f"\n{plan.bid}", style="bold")
                out.append(f" {plan.gain:+d}", style="green" if plan.gain > 0 else "")
                out.append(f" {explain(plan)}" if plan.bid else " take nothing",
                           style="dim" if plan.bid == 0 else "")
        if advice is not None:
            out.append("\nStrong bot would: ", style="bold")
            out.append(describe(advice), style="cyan")
        if view.phase is Phase.BID and self.size.width >= 40:  # narrow: on their boards
            others = [i for i in range(len(view.seats)) if i != seat]
            if others:
                out.append("\nOthers can bid up to: ", style="bold")
                for n, i in enumerate(others):
                    out.append(", " if n else "")
                    out.append_text(name_text(names[i], ""))
                    out.append(f" {view.max_bids[i]}")
        self.update(out)
