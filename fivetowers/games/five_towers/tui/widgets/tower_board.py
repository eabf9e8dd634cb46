"""A player's five towers, bottom → top, tower tops and the main tower marked."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from fivetowers.games.five_towers.rules import TYPES, Card, Score, SeatView, TowerType
from fivetowers.games.five_towers.tui.look import COLOUR, MAIN_MARK, card_text, chip, safe
from fivetowers.games.five_towers.tui.words import type_name, type_tag
from fivetowers.i18n import _
from fivetowers.ui.acting_border import mark_acting
from fivetowers.ui.border_titles import Titles, put_titles
from fivetowers.ui.no_links import NoLinks
from fivetowers.ui.shared_lines import shared_content_line, shared_lines


def main_tower(towers: dict[TowerType, tuple[int, ...]]) -> TowerType | None:
    """The tower with the most cards (the first of equals), None if no cards."""
    best = max(TYPES, key=lambda t: len(towers[t]))
    return best if towers[best] else None


def breakdown(score: Score, compact: bool = False) -> str:
    """Where a score comes from; compact boards get the bare sum (explained in help)."""
    if compact:
        return f"{score.towers}+{score.main}+{score.pairs}−{-score.teardown}={score.total}"
    return _("{towers} towers +{main} main +{pairs} pairs −{pile} pile = {total}").format(
        towers=score.towers, main=score.main, pairs=score.pairs, pile=-score.teardown,
        total=score.total)


class TowerBoard(NoLinks, Static):
    """One seat's towers; ``large`` for your own (full names, every card)."""

    def __init__(self, large: bool, id: str | None = None) -> None:
        super().__init__(id=id, classes="board large" if large else "board compact")
        self.large = large
        self.seat: SeatView | None = None
        self.own: tuple[Card, ...] | None = None
        self.show_breakdown = False
        self.shown: tuple[object, ...] = ()
        self.shown_key = ""
        self.acting = False
        self.titles: Titles = (None, None)
        """The border's title and subtitle as last set."""
        self.sized_for: tuple[object, ...] = ()
        """What this board's height depends on, as last laid out."""

    def show(self, seat: SeatView, title: str, own: tuple[Card, ...] | None,
             show_breakdown: bool, acting: bool, note: str = "") -> None:
        # Most moves change one or two boards: the others keep their lines
        # (a refresh would redraw them for nothing, once per viewer).
        shown = (seat, title, own, show_breakdown, acting, note)
        if shown == self.shown:
            return
        # Your own board grows with the breakdown and your pile (a tower is
        # one line whatever it holds: render keeps the top that fits); the
        # compact boards are a fixed size. A move that only changes towers
        # repaints: a layout of the screen costs a dozen repaints. (The
        # breakdown's line grows with the score and may wrap.)
        sized_for = (own, show_breakdown, seat.score if show_breakdown else None)
        relayout = self.large and sized_for != self.sized_for
        self.sized_for = sized_for
        self.shown, self.shown_key = shown, repr(shown)
        self.seat, self.own, self.show_breakdown = seat, own, show_breakdown
        if acting != self.acting:
            self.acting = acting
            mark_acting(self, acting)  # refreshed below
        pile = _("teardown") if self.large else _("pile")
        sep = " · " if self.large else "·"  # compact boxes are narrow at 80 columns
        subtitle = sep.join(
            ([note] if note else []) + [f"{pile} {seat.teardown_count}",
                                        _("{points} VP").format(points=seat.score.total)])
        if show_breakdown and not self.large:  # no room inside a compact board
            subtitle = breakdown(seat.score, compact=True) + " " + _("VP")
        # The title a Text: names are never read as markup.
        self.titles = put_titles(self, (Text(safe(title)), subtitle), self.titles)
        self.refresh(layout=relayout)

    def render_lines(self, crop: Region) -> list[Strip]:
        # Every viewer at a table sees the same board for a seat: drawn once.
        return shared_lines(self, (self.large, self.shown_key), crop, super().render_lines)

    def render_line(self, y: int) -> Strip:
        # A board whose title, note or border changed (the turn came to it
        # or left it) keeps its towers' lines.
        content = None if self.seat is None else (
            "towers", self.large, repr(self.seat.towers), self.own, self.show_breakdown,
            self.seat.score if self.show_breakdown and self.large else None)
        return shared_content_line(self, content, y, super().render_line)

    def render(self) -> Text:
        if self.seat is None:
            return Text("")
        towers = self.seat.towers
        main = main_tower(towers)
        width = max(self.content_region.width, 10)
        # Your own towers get wide chips when every card still fits in a line.
        longest = max(len(v) for v in towers.values())
        wide = self.large and longest * 5 <= width - 8
        lines = Text()
        names = {t: type_name(t) if self.large else type_tag(t) for t in TYPES}
        label_width = max(6 if self.large else 2, *map(len, names.values()))
        for t in TYPES:
            label = f"{MAIN_MARK if t is main else ' '}{names[t]:<{label_width}}"
            line = Text(label, style=f"bold {COLOUR[t]}")
            line.append("│" if self.large else " ", style="dim")
            values = towers[t]
            step = 5 if wide else 3
            room = max((width - len(line)) // step, 1)
            if len(values) > room:  # keep the top (what matters next); count the rest
                hidden = len(values) - room + 1
                line.append(f"+{hidden:<2}", style="dim")
                values = values[hidden:]
            for v in values:
                if wide:
                    line.append(" ")
                    line.append_text(chip(t, v, padded=True))
                else:
                    line.append_text(chip(t, v))
                    line.append(" ")
            line.rstrip()
            lines.append_text(line)
            lines.append("\n")
        if self.show_breakdown and self.large:
            lines.append(breakdown(self.seat.score), style="italic")
            lines.append("\n")
        if self.large and self.own:
            lines.append(_("your pile:") + " ", style="dim")
            for c in self.own:
                lines.append_text(card_text(c))
                lines.append(" ")
        lines.rstrip()
        return lines
