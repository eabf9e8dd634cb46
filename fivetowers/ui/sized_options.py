"""An option list that knows its scrolling size once it is laid out."""

from __future__ import annotations

from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import OptionList


class SizedOptionList(OptionList):
    """An OptionList whose virtual size is set where its layout sizes it.

    Textual's OptionList works its lines (and so its virtual size) out when
    it first draws after a change of options; a virtual size is a reactive
    that asks for a layout of the whole screen, so a list shown with new
    options (a GoTown card's choices, a build's steps) was laid out, drawn,
    and laid out again to find the same places. Its height, worked out for
    the layout, is the number of its lines at that width: the virtual size
    is set to it there (``set_reactive``: without asking for anything), and
    the draw then finds it as it was. A list too tall for its room scrolls,
    and its lines are narrower than its width by the scrollbar: that first
    draw still sizes it (as before)."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        height = super().get_content_height(container, viewport, width)
        self.set_reactive(Widget.virtual_size, Size(width, height))
        return height
