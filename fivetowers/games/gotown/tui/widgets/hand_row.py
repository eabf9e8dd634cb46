"""Your hand along the bottom: each card with its key, the picked one raised
and the partners of a build marked with their option numbers."""

from __future__ import annotations

from rich.text import Text
from textual.events import Click
from textual.widget import Widget

from fivetowers.games.gotown.rules import Card
from fivetowers.games.gotown.tui.look import chip
from fivetowers.games.gotown.tui.messages import HandCardClicked
from fivetowers.i18n import _
from fivetowers.ui.no_links import NoLinks

MARK_STYLE = "bold black on #87d75f"


def key_of(index: int) -> str:
    """The key that picks hand card ``index``: 1-9, then 0; later cards by arrows."""
    return str(index + 1) if index < 9 else "0" if index == 9 else " "


class HandRow(NoLinks, Widget):
    """Two lines: the keys and cards, then the marks under them."""

    DEFAULT_CSS = "HandRow { height: 2; }"

    def __init__(self) -> None:
        super().__init__(id="hand")
        self.shown: tuple[object, ...] = ()
        self.hand: tuple[Card, ...] = ()
        self.picked: int | None = None
        self.cursor: int | None = None
        self.marks: dict[int, int] = {}
        self.note = ""
        self.spots: list[tuple[int, int]] = []

    def show(self, hand: tuple[Card, ...], picked: int | None, cursor: int | None,
             marks: dict[int, int], note: str = "") -> None:
        shown = (hand, picked, cursor, tuple(sorted(marks.items())), note)
        if shown != self.shown:
            self.shown = shown
            self.hand, self.picked, self.cursor, self.marks, self.note = \
                hand, picked, cursor, dict(marks), note
            self.refresh()

    def render(self) -> Text:
        hand, picked, cursor, marked, note = \
            self.hand, self.picked, self.cursor, self.marks, self.note
        top, bottom = Text(), Text()
        self.spots = []
        if not hand:
            top.append(note or _("(no cards)"), style="dim")
        for i, card in enumerate(hand):
            start = len(top)
            key = key_of(i)
            top.append(key, style="bold" + (" reverse" if i == cursor else ""))
            face = chip(card)
            if i == picked:
                face.stylize("reverse")
            top.append_text(face)
            width = len(top) - start
            if i == picked:
                under = "▲"
            elif i in marked:
                under = f"◀{marked[i]}"
            else:
                under = ""
            bottom.append(under[:width].center(width) if under else " " * width,
                          style=MARK_STYLE if i in marked and i != picked else "bold")
            self.spots.append((start, len(top)))
            top.append(" ")
            bottom.append(" ")
        return Text.assemble(top, "\n", bottom)

    def on_click(self, event: Click) -> None:
        for index, (start, end) in enumerate(self.spots):
            if start <= event.x < end:
                self.post_message(HandCardClicked(index))
                return
