"""The display: the cards up for bidding this round, drawn as cards."""

from __future__ import annotations

from rich.text import Text
from textual.events import Click
from textual.geometry import Region
from textual.renderables.digits import DIGITS, DIGITS3X3_BOLD
from textual.strip import Strip
from textual.widget import Widget

from fivetowers.games.five_towers.rules import Card
from fivetowers.games.five_towers.tui.look import COLOUR
from fivetowers.games.five_towers.tui.messages import DisplayCardClicked
from fivetowers.games.five_towers.tui.words import type_name
from fivetowers.i18n import _
from fivetowers.ui.no_links import NoLinks
from fivetowers.ui.shared_lines import shared_lines

NARROW, WIDE = 9, 11
"""Card widths: 9 fits five cards beside the side column at 80 columns."""

_ROUND = ("╭", "─", "╮", "│", "╰", "╯")
_HEAVY = ("┏", "━", "┓", "┃", "┗", "┛")  # a card you have picked


def big_value(value: int) -> list[str]:
    """``value`` in Textual's three-line bold digits (as its Digits widget draws)."""
    rows = ["", "", ""]
    for ch in str(value):
        at = DIGITS.index(ch) * 3
        for r in range(3):
            rows[r] += DIGITS3X3_BOLD[at + r].ljust(3)
    return rows


def card_lines(card: Card, slot: int, picked: bool, width: int) -> list[Text]:
    """The six lines of one display card, ``width`` cells wide."""
    inner = width - 2
    colour = COLOUR[card.type]
    border = f"bold {colour}" if picked else colour
    tl, h, tr, v, bl, br = _HEAVY if picked else _ROUND
    lines = [Text(tl + f" {slot + 1} " + h * (inner - 3) + tr, style=border)]
    for row in big_value(card.value):
        line = Text(v, style=border)
        line.append(row.center(inner), style=f"bold {colour}")
        line.append(v, style=border)
        lines.append(line)
    name = Text(v, style=border)
    label = type_name(card.type)
    if len(label) > inner:  # "PHẾ LIỆU" on a narrow card
        label = label.replace(" ", "")[:inner]
    pad = inner - len(label)
    name.append(" " * (pad // 2))
    name.append(label, style=f"bold reverse {colour}" if picked else f"bold {colour}")
    name.append(" " * (pad - pad // 2))
    name.append(v, style=border)
    lines.append(name)
    mark = "✓" if picked else h
    left = (inner - 1) // 2
    lines.append(Text(bl + h * left + mark + h * (inner - 1 - left) + br, style=border))
    return lines


class DisplayRow(NoLinks, Widget):
    """Five card slots in one widget: a new display repaints six lines and
    lays nothing out again (a widget per card cost every viewer a relayout
    and a style update per card each round)."""

    DEFAULT_CSS = "DisplayRow { height: 6; }"

    def __init__(self) -> None:
        super().__init__(id="display")
        self.cards: tuple[Card, ...] = ()
        self.picked: frozenset[int] = frozenset()

    def card_width(self) -> int:
        return WIDE if self.size.width >= 5 * WIDE else NARROW

    def show(self, cards: tuple[Card, ...], picked: set[int]) -> None:
        shown = (tuple(cards), frozenset(picked))
        if shown != (self.cards, self.picked):
            self.cards, self.picked = shown
            self.refresh()

    def render(self) -> Text:
        if not self.cards:
            return Text("\n\n  " + _("(no display)"), style="dim")
        width = self.card_width()
        rows = [Text() for _ in range(6)]
        for slot, card in enumerate(self.cards):
            for row, line in zip(rows, card_lines(card, slot, slot in self.picked, width)):
                row.append_text(line)
        return Text("\n").join(rows)

    def render_lines(self, crop: Region) -> list[Strip]:
        # Every viewer at a table sees the same display: drawn once for all.
        return shared_lines(self, (self.cards, self.picked), crop, super().render_lines)

    def on_click(self, event: Click) -> None:
        slot = event.x // self.card_width()
        if 0 <= slot < len(self.cards):
            self.post_message(DisplayCardClicked(slot))
