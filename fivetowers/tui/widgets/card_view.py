"""One display card, drawn as a card: a big value, the type's name, its colour."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.events import Click
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Digits, Label

from fivetowers.rules import Card
from fivetowers.tui.look import COLOUR, NAME
from fivetowers.tui.messages import DisplayCardClicked


class CardView(Widget):
    """A display card; ``picked`` marks it as taken in the build being made."""

    picked: reactive[bool] = reactive(False)

    def __init__(self, card: Card, index: int) -> None:
        super().__init__(classes=f"card {card.type.value}")
        self.card = card
        self.index = index
        self.border_title = str(index + 1)

    def compose(self) -> ComposeResult:
        yield Digits(str(self.card.value), classes="value")
        yield Label(NAME[self.card.type], classes="type")

    def on_mount(self) -> None:
        self.styles.border = ("round", COLOUR[self.card.type])

    def watch_picked(self, picked: bool) -> None:
        self.set_class(picked, "picked")
        self.border_subtitle = "✓" if picked else ""
        if self.is_mounted:
            self.styles.border = ("heavy" if picked else "round", COLOUR[self.card.type])

    def on_click(self, event: Click) -> None:
        self.post_message(DisplayCardClicked(self.index))
