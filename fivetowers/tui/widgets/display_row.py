"""The display: the cards up for bidding this round."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label

from fivetowers.rules import Card
from fivetowers.rules.game import DISPLAY_SIZE
from fivetowers.tui.widgets.card_view import CardView


class DisplayRow(Horizontal):
    """Five card slots, filled in place each round."""

    def __init__(self) -> None:
        super().__init__(id="display")
        self.cards: tuple[Card, ...] | None = None

    def compose(self) -> ComposeResult:
        yield Label("(no display)", classes="empty-display")
        for i in range(DISPLAY_SIZE):
            yield CardView(i)

    async def show(self, cards: tuple[Card, ...], picked: set[int]) -> None:
        if cards != self.cards:
            self.cards = cards
            self.query_one(".empty-display", Label).display = not cards
            for view in self.query(CardView):
                view.card = cards[view.index] if view.index < len(cards) else None
        for view in self.query(CardView):
            view.picked = view.index in picked
