"""Hints: the most floors this turn can reach and the plan (the exact hint),
what the strong bot would play, and the threats against your top floor."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from fivetowers.games.gotown.hint import Hint
from fivetowers.games.gotown.rules import Action, Build, End, PlayerView, Steal
from fivetowers.games.gotown.rules.actions import play_from_json
from fivetowers.games.gotown.tui.choices import card_of, choices_for
from fivetowers.games.gotown.tui.look import label
from fivetowers.i18n import _, ngettext
from fivetowers.ui.no_links import NoLinks
from fivetowers.ui.steady_text import update_steady


def describe(action: Action, view: PlayerView) -> str:
    """A play in a few words, for the hint's plan and the strong bot's advice."""
    if isinstance(action, End):
        return _("end the turn")
    if isinstance(action, Build):
        return _("build {first}+{second}").format(first=action.cards[0], second=action.cards[1])
    if isinstance(action, Steal):
        return _("steal {name}'s top with a {card}").format(
            name=view.seats[action.target].name, card=action.card)
    card = card_of(action)
    same = [c for c in choices_for(card, view, lambda _: None) if c.action == action]
    return f"{label(card)}: {same[0].label}" if same else label(card)


def plan_lines(hint: Hint, view: PlayerView) -> list[str]:
    seat = view.seat or 0
    steps = []
    for play in hint.plan:
        [(key, value)] = play.items()
        steps.append(describe(play_from_json(seat, key, value), view))
    return steps


class HintPanel(NoLinks, Static):
    shown: Text | None = None

    def show(self, view: PlayerView, hint: Hint | None, thinking: bool,
             advice: Action | None, busy: bool = False) -> None:
        """``busy``: the pool answered the strong bot with a fallback (a
        quicker bot's move), not shown as its play; it is asked again."""
        out = Text()
        if view.seat is None or view.over:
            out.append(_("Hints are for a seat's turn."), style="dim")
        elif not view.my_turn:
            out.append(_("On your turn: the best plan."), style="dim")
        elif hint is None:
            out.append(_("thinking…"), style="italic dim")
        else:
            now = len(view.seats[view.seat].floors)
            out.append(ngettext("Best: {count} floor", "Best: {count} floors", hint.floors).format(
                count=hint.floors), style="bold")
            out.append(f" (+{hint.floors - now})" + (_(" WINS") if hint.wins else ""),
                       style="bold green" if hint.floors > now else "dim")
            steps = plan_lines(hint, view)
            if steps:  # one line: the whole plan at 80 columns, cut with "…" if long
                out.append(_("\nPlan: "), style="bold")
                out.append(", ".join(steps))
            out.append(_("\nStrong bot: "), style="bold")
            if advice is not None:
                out.append(describe(advice, view))
            elif busy:
                out.append(_("busy — retrying…"), style="italic dim")
            else:
                out.append(_("thinking…"), style="italic dim")
        if out != self.shown:
            self.shown = out
            update_steady(self, out)

