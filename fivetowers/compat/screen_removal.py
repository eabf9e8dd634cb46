"""A screen's removal does not lay out the screen shown (checked against Textual 8.2.8).

See :class:`QuietScreenRemoval`; ``tests/compat/test_screen_removal.py`` pins it down.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.await_remove import AwaitRemove
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

TEXTUAL = "8.2.8"
"""The Textual version the removal was read in."""
UPSTREAM_SOURCE = "be1dc93ca4615538"
"""``source_digest(App._prune)`` of that version: another ``_prune`` may do
more for a removed node's parent than refresh it, so screens are then
pruned as upstream does."""


class QuietScreenRemoval(App[Any]):
    """An App whose current screen is not laid out and drawn again in full
    because another screen was removed.

    Textual's ``App._prune`` ends a removal by refreshing the removed node's
    parent with a layout; a screen's parent is the App, whose ``refresh``
    lays out and repaints the whole current screen, once for the removal
    and once more when the removal's ``AwaitRemove`` is called again. That
    screen needs neither: one shown again by a pop gets its ScreenResume
    (a layout if the size changed, and a full repaint), and one switched to
    is composed and laid out anyway. At a rematch each player's table screen
    was laid out and sent in full again for the end and wait screens it
    left. This App prunes screens without the parent (so without that
    refresh, and the mouse-over update the screen's next frame makes
    anyway); other nodes are pruned as upstream does. Retire it when Textual
    does not refresh the App for a screen's removal: not reported upstream
    yet.
    """

    def _prune(self, *nodes: Widget, parent: DOMNode | None = None) -> AwaitRemove:
        if parent is self and nodes and all(isinstance(node, Screen) for node in nodes) \
                and upstream_unchanged():
            parent = None
        return super()._prune(*nodes, parent=parent)


def upstream_unchanged() -> bool:
    """Whether Textual's ``App._prune`` is the code this workaround was read in."""
    return source_unchanged(source_digest(App._prune), UPSTREAM_SOURCE,
                            "Textual's App._prune is not the code QuietScreenRemoval was read "
                            "in: screens are removed as upstream does")


WORKAROUNDS = (
    Workaround("QuietScreenRemoval", "fivetowers/compat/screen_removal.py", "textual", TEXTUAL,
               ("App._prune",),
               "Textual does not refresh the App with a layout when it removes a screen"),
)
