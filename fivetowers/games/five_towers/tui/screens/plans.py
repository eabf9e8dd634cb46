"""The hint's plans in full (`v`): every bid's plan, wrapped, where the hint
panel beside the table has room for a line each (cut with an ellipsis at
100 columns or less)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from fivetowers.games.five_towers.rules import Action, Phase, PlayerView
from fivetowers.games.five_towers.solver.plans import Hint
from fivetowers.games.five_towers.tui.look import name_text
from fivetowers.games.five_towers.tui.widgets.hint_panel import ADVISER_BUSY, describe, explain
from fivetowers.i18n import N_, _
from fivetowers.ui.key_footer import KeyFooter


def plans_text(view: PlayerView, seat: int, names: list[str], hint: Hint | None,
               advice: Action | None, busy: bool = False) -> Text:
    """What the hint knows for ``seat`` now, a paragraph per plan (and the
    strong bot's advice, or that it was busy: see the hint panel)."""
    out = Text()
    if hint is None:
        out.append(_("The hint is still thinking: close this (escape) and try again "
                     "in a moment."), style="italic")
        return out
    if view.phase is Phase.BUILD and view.high_bid is not None:
        plan = hint.plans[min(view.high_bid, hint.max_bid)]
        out.append(_("Best build for your bid of {bid} ({gain} VP):").format(
            bid=plan.bid, gain=f"{plan.gain:+d}") + "\n", style="bold")
        out.append(explain(plan) + "\n")
        out.append("a", style="bold green")
        out.append(" " + _("lays it out for you.") + "\n")
    else:
        out.append(_("Your highest safe bid:") + " ", style="bold")
        out.append(f"{hint.max_bid}", style="bold green")
        for plan in hint.plans:
            out.append("\n" + _("bid {amount}").format(amount=plan.bid), style="bold")
            gain = _("{points} VP").format(points=f"{plan.gain:+d}")
            out.append(f" ({gain}): ", style="green" if plan.gain > 0 else "")
            out.append(explain(plan) if plan.bid else _("take nothing"))
        out.append("\n")
    if advice is not None:
        out.append("\n" + _("Strong bot would:") + " ", style="bold")
        out.append(describe(advice) + "\n", style="cyan")
    elif busy:
        out.append("\n" + _(ADVISER_BUSY) + "\n", style="italic")
    others = [i for i in range(len(view.seats)) if i != seat]
    if view.phase is Phase.BID and others:
        out.append("\n" + _("Others can bid up to:") + " ", style="bold")
        for n, i in enumerate(others):
            out.append(", " if n else "")
            out.append_text(name_text(names[i], ""))
            out.append(f" {view.max_bids[i]}")
    return out


class PlansScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "close", N_("close")),
        Binding("v", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="plans") as scroll:
            scroll.border_title = _("Hints in full (v)")
            yield Static(self.text, id="plans-text")
        yield KeyFooter(compact=True)

    def action_close(self) -> None:
        self.dismiss()
