"""The top line: round, deck, which pass, when the game ends, whose turn."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from fivetowers.games.five_towers.rules import Phase, PlayerView
from fivetowers.i18n import N_, _
from fivetowers.ui.no_links import NoLinks
from fivetowers.ui.shared_lines import shared_lines, text_key

VARIANTS = (N_("base"), N_("great powers"))
"""The variants as the top line names them."""


def game_clock(view: PlayerView) -> str:
    """Round, deck and the pass, in the words of RULES.md A4."""
    if view.phase is Phase.OVER:
        return _("Round {round} · game over").format(round=view.round)
    clock = _("Round {round} · deck {deck} · pass {number}/2").format(
        round=view.round, deck=view.draw_count, number=view.pass_number)
    if view.pass_number == 2 and view.draw_count == 0:
        clock += " · " + _("LAST ROUND")
    elif view.draw_count == 0:
        clock += " · " + _("reshuffle next")
    return clock


class StatusBar(NoLinks, Static):
    shown: Text | None = None

    def show(self, view: PlayerView, turn: Text, variant: str) -> None:
        line = Text()
        line.append_text(turn)
        line.append(f"  {game_clock(view)} · {_(variant.replace('-', ' '))}")
        if line != self.shown:  # one line, always: repaint, never relayout
            self.shown = line
            self.update(line, layout=False)

    def render_lines(self, crop: Region) -> list[Strip]:
        # The same for most viewers at a table: drawn once for all of them.
        content = None if self.shown is None else text_key(self.shown)
        return shared_lines(self, content, crop, super().render_lines)
