"""Hints: your highest safe bid, the best plan per bid, opponents' safe bids."""

from __future__ import annotations

import re

from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from fivetowers.games.five_towers.rules import Action, Bid, Build, Phase, PlayerView
from fivetowers.games.five_towers.rules.game import describe_build
from fivetowers.games.five_towers.solver.plans import Hint, Plan
from fivetowers.games.five_towers.tui.look import name_text
from fivetowers.games.five_towers.tui.words import build_word, english, plan_word
from fivetowers.i18n import N_, _
from fivetowers.ui.no_links import NoLinks
from fivetowers.ui.shared_lines import shared_lines, text_key


_GAIN_SUFFIX = re.compile(r"[;,]?\s*\(?[+-]\d+\)?\s*$")
ADVISER_BUSY = N_("Strong bot busy — retrying…")
"""In place of the strong bot's advice while the pool answers with a
fallback (a quicker bot's move), which is not shown as the strong bot's."""


def explain(plan: Plan) -> str:
    """The plan's explanation without the gain it ends with (shown apart, in
    colour), in the viewer's language."""
    return plan_word(plan, _GAIN_SUFFIX.sub("", str(plan.explanation)))


def describe(action: Action) -> str:
    if isinstance(action, Bid):
        return _("bid {amount}").format(amount=action.amount)
    if isinstance(action, Build):
        if not english():
            return build_word(action, None)
        # describe_build starts with the builder's name and a colon: none here.
        return describe_build("", action).removeprefix(": ")
    return _("pass")


class HintPanel(NoLinks, Static):
    """The hints for the position on the table now.

    A new position's hint comes a moment after the position: meanwhile the
    panel says "thinking…". The panel's height is the table screen's to set
    (styles/app.tcss: a share of the column, whatever the hint says), so a
    hint that comes or changes repaints the panel and lays nothing out (at a
    hosted table, twice a move per viewer); lines past its height are cut
    (the plans screen, v, has them all), so the least needed come last.

    Narrow screens cut each line with an ellipsis (styles/app.tcss), so
    every bid shows on a line of its own; the lines a player must read
    whole (the best build, the strong bot's advice) are wrapped to the
    panel's width instead (:meth:`_whole`), and drawn again when it changes."""

    shown: Text | None = None
    common = False
    _asked: tuple[PlayerView, int | None, list[str], Hint | None, bool, Action | None,
                  bool] | None = None
    """What the panel was last asked to show: shown again at a new width."""

    def on_resize(self) -> None:
        if self._asked is not None:
            self.show(*self._asked)

    def show(self, view: PlayerView, seat: int | None, names: list[str], hint: Hint | None,
             thinking: bool, advice: Action | None = None, busy: bool = False) -> None:
        """``busy``: the strong bot was busy (its advice, None, is on its way again)."""
        self._asked = (view, seat, names, hint, thinking, advice, busy)
        out = Text()
        # Shared with other viewers only when it says nothing of this seat: a
        # seat's own hint, kept with the others, would push out of the shared
        # renders what other screens draw again.
        self.common = seat is None or view.phase is Phase.OVER or (
            view.phase is Phase.BUILD and view.high_seat != seat)
        if seat is None or view.phase is Phase.OVER:
            self._put(Text(_("no hints now")))
            return
        if view.phase is Phase.BUILD and view.high_seat != seat:
            out.append(_("no hints while") + " ", style="dim italic")
            out.append_text(name_text(names[view.to_move or 0], "dim italic"))
            out.append(" " + _("builds"), style="dim italic")
        elif hint is None:
            out.append(_("thinking…") if thinking else _("no hint yet"), style="dim italic")
        elif view.phase is Phase.BUILD and view.high_seat == seat and view.high_bid is not None:
            plan = hint.plans[min(view.high_bid, hint.max_bid)]
            best = Text()
            best.append(_("Best build for bid {bid} ({gain} VP):").format(
                bid=plan.bid, gain=f"{plan.gain:+d}"), style="bold")
            # Where the panel cuts lines, one paragraph: wrapped, it takes
            # fewer lines than the title and the build apart.
            best.append(" " if self._cuts else "\n")
            best.append(explain(plan))
            out.append_text(self._whole(best))
            self._advise(out, advice, busy)
            # Last, the first line a short panel cuts: the key bar says it too.
            out.append("\na", style="bold green")
            out.append(" " + _("lays it out for you"))
        else:
            out.append(_("Your highest safe bid:") + " ", style="bold")
            out.append(str(hint.max_bid), style="bold green")
            self._advise(out, advice, busy)  # above the plans, which a short panel cuts
            for plan in hint.plans:
                out.append(f"\n{plan.bid}", style="bold")
                out.append(f" {plan.gain:+d}", style="green" if plan.gain > 0 else "")
                out.append(f" {explain(plan)}" if plan.bid else " " + _("take nothing"),
                           style="dim" if plan.bid == 0 else "")
        tail = Text()
        if view.phase is Phase.BID and self.size.width >= 40:  # narrow: on their boards
            others = [i for i in range(len(view.seats)) if i != seat]
            if others:
                tail.append("\n" + _("Others can bid up to:") + " ", style="bold")
                for n, i in enumerate(others):
                    tail.append(", " if n else "")
                    tail.append_text(name_text(names[i], ""))
                    tail.append(f" {view.max_bids[i]}")
        out.append_text(tail)
        self._put(out)

    def _advise(self, out: Text, advice: Action | None, busy: bool = False) -> None:
        """The strong bot's move (if asked for) on a new line of ``out``, or
        that it is busy (its fallback is not its advice)."""
        line = Text()
        if advice is not None:
            line.append(_("Strong bot would:") + " ", style="bold")
            line.append(describe(advice), style="cyan")
        elif busy:
            line.append(_(ADVISER_BUSY), style="dim italic")
        else:
            return
        out.append("\n")
        out.append_text(self._whole(line))

    @property
    def _cuts(self) -> bool:
        """Whether the panel cuts its lines (its narrow style), once it has a
        width (before, it is shown again when it gets one)."""
        return self.styles.text_wrap == "nowrap" and self.size.width >= 8

    def _whole(self, line: Text) -> Text:
        """``line`` wrapped to the panel's width where the panel would cut it;
        as it is where the panel wraps its lines itself."""
        if not self._cuts:
            return line
        parts = line.wrap(self.app.console, self.size.width)
        for part in parts:
            part.rstrip()  # the space it broke at
        return Text("\n").join(parts)

    def _put(self, out: Text) -> None:
        """Show ``out``: a repaint of the panel, never a layout."""
        if out == self.shown:
            return
        self.shown = out
        self.update(out, layout=False)

    def render_lines(self, crop: Region) -> list[Strip]:
        # Spectators, and every player but the builder while one builds, see
        # the same panel: drawn once for all of them (see ``common``).
        content = None if self.shown is None or not self.common else (
            text_key(self.shown), self.scroll_offset)
        return shared_lines(self, content, crop, super().render_lines)
