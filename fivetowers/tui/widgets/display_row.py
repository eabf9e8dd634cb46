"""The display: the cards up for bidding this round."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label

from fivetowers.rules import Card
from fivetowers.tui.widgets.card_view import CardView


class DisplayRow(Horizontal):
    """The display's cards, rebuilt only when the display itself changes."""

    def __init__(self) -> None:
        super().__init__(id="display")
        self.cards: tuple[Card, ...] = ()

    def compose(self) -> ComposeResult:
        if not self.cards:
            yield Label("(no display)", classes="empty-display")
        for i, card in enumerate(self.cards):
            yield CardView(card, i)

    async def show(self, cards: tuple[Card, ...], picked: set[int]) -> None:
        if cards != self.cards:
            self.cards = cards
            await self.recompose()
        for view in self.query(CardView):
            view.picked = view.index in picked
