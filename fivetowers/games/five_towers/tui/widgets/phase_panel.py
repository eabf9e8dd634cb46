"""The table's phase panel: the bidding, then the building, in one place."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import OptionList, Static

from fivetowers.games.five_towers.rules import PlayerView
from fivetowers.games.five_towers.tui.build_guide import BuildGuide
from fivetowers.games.five_towers.tui.widgets.bid_panel import bid_text
from fivetowers.games.five_towers.tui.widgets.build_panel import BuildPanel
from fivetowers.i18n import _
from fivetowers.ui.shared_lines import shared_lines
from fivetowers.ui.steady_text import text_height


class PhasePanel(BuildPanel):
    """Bidding and building share one panel whose words change with the phase.

    Its height stays the same from phase to phase (``room``: a round's bids),
    so a phase change repaints the panel and lays nothing out: at a hosted
    table, a bidding panel and a building panel that swapped places laid out
    every viewer's screen at every phase change (issue 11). It grows only
    when its words need more (the builder's own guide and steps, a refused
    bid's reason), on the screen of the player whose turn it is."""

    room = 0
    shown_height = 0
    shown_title = ""
    measured: tuple[Text | None, int, int] | None = None
    """What the height was last fitted to: the text, its width, the steps."""

    def __init__(self) -> None:
        super().__init__(id="phase")

    def make_room(self, seats: int) -> None:
        # The title line, a line per seat, whose turn and your choices.
        self.room = seats + 2
        self._fit(self.room)

    def show_bids(self, view: PlayerView, names: list[str], acting: int | None,
                  notice: str, hot_seat: bool = False) -> None:
        self._title(_("Bidding"))
        self.options = []
        self._put(bid_text(view, names, acting, notice, hot_seat))
        self.show_steps()

    def show(self, guide: BuildGuide | None, builder: Text) -> None:
        self._title(_("Building"))
        super().show(guide, builder)

    def show_over(self) -> None:
        """The game is over: no bids or builds left (the end screen has it all)."""
        self._title("")
        self.options = []
        self._put(Text(_("game over"), style="bold"))
        self.show_steps()

    def _title(self, title: str) -> None:
        if title != self.shown_title:  # setting even the same title repaints
            self.shown_title = title
            self.border_title = title

    def _put(self, out: Text) -> None:
        if out != self.shown:
            self.shown = out
            # A repaint: the text fills the panel, whose height _fit decides.
            self.query_one("#build-text", Static).update(out, layout=False)

    def show_steps(self) -> None:
        super().show_steps()
        text = self.query_one("#build-text", Static)
        width = text.content_region.width
        if width <= 0:  # not laid out yet: the first layout places it
            return
        measured = (self.shown, width, len(self.options))
        if measured == self.measured:
            return
        self.measured = measured
        lines = text_height(text, width)
        steps = self.query_one("#steps", OptionList)
        most = steps.styles.max_height
        shown = len(self.options) if most is None else min(len(self.options), int(most.value))
        self._fit(max(self.room, lines + shown))

    def on_resize(self) -> None:
        self.show_steps()  # a new width: the words may take more lines, or fewer

    def _fit(self, lines: int) -> None:
        """Make the panel ``lines`` tall inside its border (a layout only if
        that is a new height)."""
        if lines != self.shown_height:
            self.shown_height = lines
            self.styles.height = lines + 2

    def render_lines(self, crop: Region) -> list[Strip]:
        # The box itself (its border and title): the same for every viewer,
        # and drawn again whenever the words inside it change (the rows a
        # change repaints are drawn for every widget on them).
        return shared_lines(self, ("phase-box", self.shown_title), crop, super().render_lines)
