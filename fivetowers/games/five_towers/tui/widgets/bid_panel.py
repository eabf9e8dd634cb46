"""Bidding: the bids so far (automatic passes labelled) and your legal bids."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from fivetowers.games.five_towers.rules import PlayerView
from fivetowers.games.five_towers.tui.look import name_text
from fivetowers.i18n import _
from fivetowers.ui.no_links import NoLinks
from fivetowers.ui.shared_lines import shared_lines, text_key


def bid_text(view: PlayerView, names: list[str], acting: int | None,
             notice: str, hot_seat: bool = False) -> Text:
    """The round's bids so far, whose turn it is and, for the seat to act
    (``acting``), its legal bids; ``notice``: why a bid was refused."""
    out = Text()
    heading = _("Display {count} cards; bids 0..{count}").format(count=len(view.display))
    out.append(heading + "\n",
               style="dim")
    for event in view.bids:
        # "You bid 2", "Hedda bids 2": the viewer's own seat in the second person.
        you = event.seat == acting and not hot_seat
        if you:
            out.append(_("You"), style="bold")
        else:
            out.append_text(name_text(names[event.seat], "bold"))
        if event.amount is not None:
            said = _("{who} bid {amount}") if you else _("{who} bids {amount}")
            out.append(said.format(who="", amount=event.amount) + "\n")
        elif event.auto:
            out.append(" " + (_("pass (auto: cannot raise)") if you
                              else _("passes (auto: cannot raise)")) + "\n",
                       style="dim")
        else:
            out.append(" " + (_("pass") if you else _("passes")) + "\n")
    if view.to_move is not None:
        out.append_text(name_text(names[view.to_move], "bold reverse"))
        out.append(" " + _("to bid…") + "\n", style="italic")
    if acting is not None and view.to_move == acting:
        bids = view.legal_bids
        if bids:
            if hot_seat:  # several humans share the screen: name the one to act
                out.append_text(name_text(names[acting], "bold"))
                out.append(" " + _("may bid") + " ", style="bold")
            else:
                out.append(_("You may bid") + " ", style="bold")
            out.append(" ".join(map(str, bids)), style="bold green")
        if view.may_pass:
            out.append("  p", style="bold green")
            out.append(" " + _("pass"))
        if view.high_bid is None:
            out.append("  " + _("(you start: no pass)"), style="dim")
    if notice:
        out.append(f"\n✗ {notice}", style="bold red")
    return out


class BidPanel(NoLinks, Static):
    """The bids of a round on their own (the replay screen's; the table's
    bids are in its :class:`PhasePanel`)."""

    shown: Text | None = None
    shown_lines = 0

    def show(self, view: PlayerView, names: list[str], acting: int | None,
             notice: str, hot_seat: bool = False) -> None:
        out = bid_text(view, names, acting, notice, hot_seat)
        if out != self.shown:
            # Lay out again only when the panel must grow or shrink (a long
            # name wraps, a refusal is added): otherwise it is a repaint.
            width = self.content_region.width
            lines = len(out.wrap(self.app.console, width)) if width else -1
            self.shown, relayout, self.shown_lines = out, lines != self.shown_lines, lines
            self.update(out, layout=relayout)

    def render_lines(self, crop: Region) -> list[Strip]:
        # The same for most viewers at a table: drawn once for all of them.
        content = None if self.shown is None else text_key(self.shown)
        return shared_lines(self, content, crop, super().render_lines)
