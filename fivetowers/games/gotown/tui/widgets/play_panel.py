"""The play panel: what the picked card can do, legal targets first with a
✓, the others with a ✗; a refused play's reason stays here in red."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from fivetowers.games.gotown.rules import Card
from fivetowers.games.gotown.tui.choices import Choice
from fivetowers.games.gotown.tui.look import card_words
from fivetowers.games.gotown.tui.messages import ChoicePicked
from fivetowers.i18n import _
from fivetowers.ui.sized_options import SizedOptionList
from fivetowers.ui.steady_text import update_steady


def choice_label(n: int, choice: Choice) -> Text:
    text = Text(f"{n} " if n <= 10 else "  ", style="bold")
    text.append("✓ " if choice.legal else "✗ ", style="bold green" if choice.legal else "dim red")
    text.append(choice.label, style="" if choice.legal else "dim")
    return text


def option_key(n: int) -> str:
    """Options 1-9 and 10 (key 0) have keys; later ones are picked with the arrows."""
    return str(n % 10)


class PlayPanel(Vertical):
    def __init__(self) -> None:
        super().__init__(id="play")
        self.shown: Text | None = None
        self.shown_choices: list[Text] = []

    def compose(self) -> ComposeResult:
        yield Static(id="play-text")
        options = SizedOptionList(id="choices")
        options.can_focus = False
        yield options

    def show(self, head: Text, card: Card | None, choices: list[Choice], notice: str,
             bad: bool) -> None:
        out = head.copy()
        if card is not None:
            out.append("\n" if out.plain else "")
            out.append_text(card_words(card))
            out.append(_(": what does it do?") if choices else _(": nothing to do now"))
            out.append(" esc", style="bold green")
            out.append(_(" back"))
        if notice:
            out.append("\n" if out.plain else "")
            out.append(("✗ " if bad else "") + notice, style="bold red" if bad else "italic")
        # While choosing, the choices follow the words (no room kept for
        # the turn's longer words: styles/gotown.tcss).
        self.set_class(bool(choices), "-choosing")
        if out != self.shown:
            self.shown = out
            update_steady(self.query_one("#play-text", Static), out)
        options = self.query_one("#choices", OptionList)
        options.display = bool(choices)
        labels = [choice_label(i + 1, c) for i, c in enumerate(choices)]
        if labels == self.shown_choices:
            return
        self.shown_choices = labels
        options.clear_options()
        options.add_options([Option(label) for label in labels])
        if labels:
            options.highlighted = 0

    def highlighted(self) -> int | None:
        return self.query_one("#choices", OptionList).highlighted

    def move(self, delta: int) -> None:
        options = self.query_one("#choices", OptionList)
        if delta > 0:
            options.action_cursor_down()
        else:
            options.action_cursor_up()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(ChoicePicked(event.option_index))
