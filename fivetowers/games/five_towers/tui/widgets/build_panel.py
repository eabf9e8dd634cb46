"""Building: pick cards and a teardown, then place them one at a time."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from fivetowers.games.five_towers.rules import End, Source, Step
from fivetowers.games.five_towers.tui.build_guide import BuildGuide, StepOption
from fivetowers.games.five_towers.tui.look import card_text
from fivetowers.games.five_towers.tui.words import TOWER, card_word
from fivetowers.games.five_towers.tui.messages import StepPicked
from fivetowers.i18n import _, ngettext
from fivetowers.ui.shared_static import SharedStatic
from fivetowers.ui.sized_options import SizedOptionList
from fivetowers.ui.steady_text import update_steady


def step_label(n: int, option: StepOption) -> Text:
    step: Step = option.step
    text = Text(f"{n} ", style="bold")
    text.append_text(card_text(step.card))
    if step.source is Source.TEARDOWN:
        text.append(" " + _("from pile"))
    if step.end is End.BOTTOM:
        text.append(" " + _("under"))
    if option.completable:
        text.append("  ✓", style="bold green")
    elif option.legal:
        text.append("  " + _("dead end"), style="yellow")
    else:
        text.append("  ✗", style="dim red")
    return text


def build_text(guide: BuildGuide | None, builder: Text) -> Text:
    """What the build panel says: who builds, or to the builder, the step
    they are at and its keys (and the guide's last word, if any)."""
    out = Text()
    if guide is None:
        out.append_text(builder)
        out.append(" " + _("is building…"))
        return out
    s = guide.session
    if not s.chosen:
        out.append(ngettext("Take {count} card:", "Take {count} cards:", guide.take_count)
                   .format(count=guide.take_count) + " ", style="bold")
        out.append(_("1-5 or click") + "\n")
        picked = [s.display[i] for i in sorted(guide.picked)]
        out.append(_("taken:") + " ")
        out.append(", ".join(map(card_word, picked)) or _("none"), style="bold")
        out.append(f" ({len(picked)}/{guide.take_count})\n")
        out.append("t", style="bold green")
        torn = _(TOWER[guide.teardown]) if guide.teardown else _("none")
        out.append(" " + _("teardown: {tower}").format(tower=torn) + "\n")
        if guide.max_pay():
            out.append("y", style="bold green")
            out.append(" " + _("pay tree cards: {count}").format(count=guide.pay) + "\n")
        out.append("enter", style="bold green")
        out.append(" " + _("choose") + "  ")
        out.append("a", style="bold green")
        out.append(" " + _("hint's plan"))
    else:
        if s.done:
            out.append(_("All placed.") + " ", style="bold")
            out.append("enter", style="bold green")
            out.append(" " + _("builds,") + " ")
        else:
            out.append(_("Place a card") + " ", style="bold")
            out.append(_("(✓ keeps every card buildable)") + " ")
        out.append("u", style="bold green")
        out.append(" " + _("undo"))
        if s.rebuild_pending and s.board.teardown:  # nothing to bring back from an empty pile
            out.append("\n" + _("scrap: you may bring one card back from your pile"))
    if guide.notice:
        out.append("\n")
        out.append(("✗ " if guide.notice_bad else "") + guide.notice,
                   style="bold red" if guide.notice_bad else "italic")
    return out


class BuildPanel(Vertical):
    def __init__(self, id: str = "build") -> None:
        super().__init__(id=id)
        self.options: list[StepOption] = []

    def compose(self) -> ComposeResult:
        yield SharedStatic(id="build-text")
        steps = SizedOptionList(id="steps")
        steps.can_focus = False
        yield steps

    shown: Text | None = None
    shown_steps: list[Text] = []

    def _put(self, out: Text) -> None:
        # Every viewer's screen redraws on every change of the table: an
        # unchanged text is not set again, a changed one lays the screen out
        # only if its height changed.
        if out != self.shown:
            self.shown = out
            update_steady(self.query_one("#build-text", Static), out)

    def show(self, guide: BuildGuide | None, builder: Text) -> None:
        self.options = guide.options() if guide is not None and guide.chosen else []
        self._put(build_text(guide, builder))
        self.show_steps()

    def show_steps(self) -> None:
        """The steps to choose from (``options``): a list only while there are some."""
        steps = self.query_one("#steps", OptionList)
        steps.display = bool(self.options)
        labels = [step_label(i + 1, o) for i, o in enumerate(self.options)]
        if labels == self.shown_steps:  # the same choices: the list stays as it is
            return
        self.shown_steps = labels
        highlighted = steps.highlighted
        steps.clear_options()
        steps.add_options([Option(label) for label in labels])
        if self.options:
            steps.highlighted = min(highlighted or 0, len(self.options) - 1)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(StepPicked(event.option_index))
