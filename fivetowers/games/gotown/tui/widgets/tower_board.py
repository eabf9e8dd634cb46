"""One player's tower: its floors bottom to top (drawn top first, as it
stands), each floor's two cards, the dogs beside the floors they guard, and
the legal targets of the card in play marked with their option numbers."""

from __future__ import annotations

from rich.text import Text
from textual.events import Click
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from fivetowers.games.gotown.rules import Card, SeatView
from fivetowers.games.gotown.tui.look import DOG_MARK, colour, label, piece_chip
from fivetowers.games.gotown.tui.messages import FloorClicked
from fivetowers.i18n import _
from fivetowers.ui.acting_border import mark_acting
from fivetowers.ui.border_titles import Titles, put_titles
from fivetowers.ui.no_links import NoLinks
from fivetowers.ui.shared_lines import shared_content_line, shared_lines
from fivetowers.ui.text import safe

MARK_STYLE = "bold black on #87d75f"
"""A legal target: its option number on green."""


class TowerBoard(NoLinks, Static):
    """A seat's tower; ``marks`` maps a floor (or None: the tower itself) to
    the option number that aims at it."""

    def __init__(self, seat: int, id: str | None = None) -> None:
        super().__init__(id=id, classes="tower")
        self.seat = seat
        self.floors_to_win = 5
        self.shown: tuple[object, ...] = ()
        self.tower: SeatView | None = None
        self.marks: dict[int | None, int] = {}
        self.acting = False
        self.titles: Titles = (None, None)
        """The border's title and subtitle as last set."""

    def show(self, seat: SeatView, floors_to_win: int, title: str, acting: bool,
             marks: dict[int | None, int]) -> None:
        shown = (seat, floors_to_win, title, acting, tuple(sorted(marks.items(), key=str)))
        if shown == self.shown:
            return
        self.shown, self.floors_to_win = shown, floors_to_win
        self.tower, self.marks = seat, dict(marks)
        if acting != self.acting:
            self.acting = acting
            mark_acting(self, acting)  # refreshed below
        subtitle = Text(_("hand {count}").format(count=seat.hand_size))
        if seat.milkshakes:
            subtitle.append(" · ")
            subtitle.append(_("{card}×{count} waiting").format(
                card=label(Card.MILKSHAKE), count=seat.milkshakes),
                            style=f"bold {colour(Card.MILKSHAKE)}")
        if None in marks:
            subtitle.append(" ")
            subtitle.append(f"◀{marks[None]}", style=MARK_STYLE)
        self.titles = put_titles(self, (Text(("▶ " if acting else "") + safe(title)), subtitle),
                                 self.titles)
        self.refresh()

    def render(self) -> Text:
        seat, marks = self.tower, self.marks
        if seat is None:
            return Text("")
        lines = []
        for f in reversed(range(max(self.floors_to_win, len(seat.floors)))):
            line = Text(f"{f + 1} ", style="dim")
            if f < len(seat.floors):
                floor = seat.floors[f]
                line.append_text(piece_chip(floor.left))
                line.append(" ")
                line.append_text(piece_chip(floor.right))
            else:
                line.append(" ·   · ", style="dim")
            if f in seat.dogs:
                line.append(" ")
                line.append(_(DOG_MARK), style=f"bold black on {colour(Card.DOG)}")
            if f in marks:
                line.append(" ")
                line.append(f"◀{marks[f]}", style=MARK_STYLE)
            lines.append(line)
        return Text("\n").join(lines)

    def render_lines(self, crop: Region) -> list[Strip]:
        # Every viewer but the one choosing a target sees the same tower: drawn once.
        return shared_lines(self, repr(self.shown), crop, super().render_lines)

    def render_line(self, y: int) -> Strip:
        # A tower whose title or border changed (the turn came to it or left
        # it, "(you)" on its own player's screen) keeps its floors' lines.
        return shared_content_line(self, ("gotown-tower", repr(self.shown[:2]),
                                          tuple(sorted(self.marks.items(), key=str))),
                                   y, super().render_line)

    def on_click(self, event: Click) -> None:
        line = event.y - 1  # under the border's top line
        floor = max(self.floors_to_win, 1) - 1 - line
        self.post_message(FloorClicked(self.seat, floor if floor >= 0 and line >= 0 else None))
