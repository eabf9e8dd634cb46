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
from fivetowers.i18n import _
from fivetowers.ui.shared_lines import shared_lines, text_key


_GAIN_SUFFIX = re.compile(r"[;,]?\s*\(?[+-]\d+\)?\s*$")


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


class HintPanel(Static):
    """The hints for the position on the table now.

    A new position's hint comes a moment after the position: meanwhile the
    panel says "thinking…" and keeps the height it had, so that the log
    below stays put and the coming hint repaints the panel instead of laying
    out the whole screen again (at a hosted table, twice a move per viewer).
    The panel is laid out again only when its height must change."""

    shown: Text | None = None
    shown_lines = -1
    shown_width = -1
    shown_phase: Phase | None = None
    common = False
    hint_lines: dict[Phase, int] = {}
    """How tall the last hint of each phase was: room kept for the next one."""

    def show(self, view: PlayerView, seat: int | None, names: list[str], hint: Hint | None,
             thinking: bool, advice: Action | None = None) -> None:
        # Narrow screens cut each line with an ellipsis (styles/app.tcss), so every bid shows.
        out = Text()
        # Shared with other viewers only when it says nothing of this seat: a
        # seat's own hint, kept with the others, would push out of the shared
        # renders what other screens draw again.
        self.common = seat is None or view.phase is Phase.OVER or (
            view.phase is Phase.BUILD and view.high_seat != seat)
        if seat is None or view.phase is Phase.OVER:
            self._put(Text(_("no hints now")), view.phase)
            return
        if view.phase is Phase.BUILD and view.high_seat != seat:
            out.append(_("no hints while") + " ", style="dim italic")
            out.append_text(name_text(names[view.to_move or 0], "dim italic"))
            out.append(" " + _("builds"), style="dim italic")
        elif hint is None:
            out.append(_("thinking…") if thinking else _("no hint yet"), style="dim italic")
        elif view.phase is Phase.BUILD and view.high_seat == seat and view.high_bid is not None:
            plan = hint.plans[min(view.high_bid, hint.max_bid)]
            out.append(_("Best build for bid {bid} ({gain} VP):").format(
                bid=plan.bid, gain=f"{plan.gain:+d}") + "\n", style="bold")
            out.append(explain(plan))
            out.append("\na", style="bold green")
            out.append(" " + _("lays it out for you"))
        else:
            out.append(_("Your highest safe bid:") + " ", style="bold")
            out.append(str(hint.max_bid), style="bold green")
            for plan in hint.plans:
                out.append(f"\n{plan.bid}", style="bold")
                out.append(f" {plan.gain:+d}", style="green" if plan.gain > 0 else "")
                out.append(f" {explain(plan)}" if plan.bid else " " + _("take nothing"),
                           style="dim" if plan.bid == 0 else "")
        tail = Text()
        if advice is not None:
            out.append("\n" + _("Strong bot would:") + " ", style="bold")
            out.append(describe(advice), style="cyan")
        if view.phase is Phase.BID and self.size.width >= 40:  # narrow: on their boards
            others = [i for i in range(len(view.seats)) if i != seat]
            if others:
                tail.append("\n" + _("Others can bid up to:") + " ", style="bold")
                for n, i in enumerate(others):
                    tail.append(", " if n else "")
                    tail.append_text(name_text(names[i], ""))
                    tail.append(f" {view.max_bids[i]}")
        if hint is None and not (view.phase is Phase.BUILD and view.high_seat != seat):
            # Room for the coming hint: as tall as the last one of this phase.
            room = self.hint_lines.get(view.phase, 0)
            lines = out.plain.count("\n") + tail.plain.count("\n") + 1
            out.append("\n" * max(room - lines, 0))
        out.append_text(tail)
        self._put(out, view.phase)
        if hint is not None and self.shown_lines > 0:
            self.hint_lines = {**self.hint_lines, view.phase: self.shown_lines}

    def _put(self, out: Text, phase: Phase) -> None:
        """Show ``out``: a repaint, or a layout too if the panel's height changes
        (measured as Textual measures an auto height)."""
        if out == self.shown:
            return
        self.shown, self.shown_phase = out, phase
        self.update(out, layout=False)
        width = self.content_region.width
        # As Widget.get_content_height measures it (it passes the styles too).
        lines = self.visual.get_height(self.styles, width) if width > 0 else -1  # type: ignore[arg-type]
        # A new width (a resize) measures every text again: lay out to be sure.
        if lines != self.shown_lines or lines < 0 or width != self.shown_width:
            self.refresh(layout=True)
        self.shown_lines, self.shown_width = lines, width

    def render_lines(self, crop: Region) -> list[Strip]:
        # Spectators, and every player but the builder while one builds, see
        # the same panel: drawn once for all of them (see ``common``).
        content = None if self.shown is None or not self.common else (
            text_key(self.shown), self.scroll_offset)
        return shared_lines(self, content, crop, super().render_lines)
