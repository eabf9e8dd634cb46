"""One display card, drawn as a card: a big value, the type's name, its colour."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.events import Click
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Digits, Label

from fivetowers.rules import TYPES, Card
from fivetowers.tui.look import COLOUR, NAME
from fivetowers.tui.messages import DisplayCardClicked


_TYPE_CLASSES = frozenset(t.value for t in TYPES)


class CardView(Widget):
    """A slot of the display; ``card`` changes each round (updated in place, no
    remounting, so a new display appears at once); ``picked`` marks a taken card."""

    card: reactive[Card | None] = reactive(None, always_update=True)
    picked: reactive[bool] = reactive(False)

    def __init__(self, index: int) -> None:
        super().__init__(classes="card")
        self.index = index
        self.border_title = str(index + 1)

    def compose(self) -> ComposeResult:
        yield Digits("", classes="value")
        yield Label("", classes="type")

    def watch_card(self, card: Card | None) -> None:
        self.display = card is not None
        if card is None or not self.is_mounted:
            return
        # One style update for the new type (set_class per type would be two).
        classes = {c for c in self.classes if c not in _TYPE_CLASSES} | {card.type.value}
        if classes != set(self.classes):
            self.set_classes(classes)
        self.query_one(Digits).update(str(card.value))
        self.query_one(Label).update(NAME[card.type])
        self._draw_border()

    def watch_picked(self, picked: bool) -> None:
        self.set_class(picked, "picked")
        self.border_subtitle = "✓" if picked else ""
        self._draw_border()

    def _draw_border(self) -> None:
        if self.card is not None:
            self.styles.border = ("heavy" if self.picked else "round", COLOUR[self.card.type])

    def on_mount(self) -> None:
        self.watch_card(self.card)

    def on_click(self, event: Click) -> None:
        self.post_message(DisplayCardClicked(self.index))
