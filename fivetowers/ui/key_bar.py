"""The table's key line: Textual's compact footer, drawn as one line."""

from __future__ import annotations

from typing import Hashable

from rich.style import Style
from rich.text import Text
from textual.events import Click
from textual.geometry import Region
from textual.binding import ActiveBinding
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from fivetowers.compat.textual import look_pseudo_classes
from fivetowers.i18n import Translator, current
from fivetowers.ui.no_links import NoLinks
from fivetowers.ui.shared_lines import shared_lines, text_key

_DIM = Style(dim=True)  # a key the screen shows but cannot take now

BUILT_KEPT = 256
"""Lines kept for every App to reuse: one per screen phase, language and theme."""

_built: dict[Hashable, tuple[Text, list[tuple[int, int, str, bool]]]] = {}
"""Lines built, by what they were built from and everything that styles them."""


def forget_built_lines() -> None:
    """Build every line anew from now on (for tests that count the styling)."""
    _built.clear()


class KeyBar(NoLinks, Widget):
    """The keys the screen offers now, each with what it does; a click presses it.

    Looks like ``Footer(compact=True)``, but one widget: Textual's footer is a
    widget per key, rebuilt whenever the keys change, and at a hosted table
    the footer was a dozen widgets per viewer to lay out, style and keep."""

    COMPONENT_CLASSES = {"key-bar--key", "key-bar--description"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom; height: 1; background: $footer-background;
        text-wrap: nowrap; text-overflow: clip;
        & > .key-bar--key { color: $footer-key-foreground;
                            background: $footer-key-background; text-style: bold; }
        & > .key-bar--description { color: $footer-description-foreground;
                                    background: $footer-description-background; }
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.line = Text()
        self.spots: list[tuple[int, int, str, bool]] = []
        """Where each key is on the line: start, end, key, enabled."""
        self.keys_stale = True
        """The keys changed since the line was built; only until the first frame."""
        self.drawn = False
        self.shown_keys: object = None
        """What the line was built from: the same keys, words and theme build the same line."""

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        # A screen's keys change three or four times while it starts (mount,
        # focus, shown): before the first frame the line waits to be drawn,
        # built once then. The bar's size never depends on its keys.
        if not self.drawn:
            self.keys_stale = True
            return
        self.build_line(screen)

    def build_line(self, screen: Screen[object]) -> None:
        self.keys_stale = False
        words = current()  # descriptions are marked N_ in BINDINGS, shown translated
        active = list(screen.active_bindings.values())
        # Focus settling after the first frame says "the keys changed" again
        # with the same keys: styling and assembling the line is most of the work.
        shown_keys = (tuple((binding.key, binding.key_display, binding.action, binding.description,
                             binding.show, enabled) for _, binding, enabled, _ in active),
                      words, self.app.theme)
        if shown_keys == self.shown_keys:
            return
        self.shown_keys = shown_keys
        # Every App showing these keys with the same styles builds the same
        # line (each lobby player's start did): built once. The styles are
        # the App's stylesheet's, for this bar's place in the DOM (types, ids,
        # classes) and its pseudo-classes, in the App's theme (in shown_keys).
        styled_by = (shown_keys, type(self.app), self.app.ansi_color,
                     tuple((type(node), node.id, node.classes) for node in self.css_path_nodes),
                     look_pseudo_classes(self))
        built = _built.get(styled_by)
        if built is None:
            built = self._build(words, active)
            if len(_built) >= BUILT_KEPT:
                del _built[next(iter(_built))]
            _built[styled_by] = built
        line, spots = built
        if (text_key(line), spots) != (text_key(self.line), self.spots):
            self.line, self.spots = line, spots
            self.refresh()

    def _build(self, words: Translator, active: list[ActiveBinding]
               ) -> tuple[Text, list[tuple[int, int, str, bool]]]:
        """The line and its keys' spots (the line is shared: never changed once built)."""
        key_style = self.get_component_rich_style("key-bar--key")
        description_style = self.get_component_rich_style("key-bar--description")
        line, spots, seen = Text(), [], set()
        for _, binding, enabled, _ in active:
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            start = len(line)
            style = key_style if enabled else key_style + _DIM
            line.append(self.app.get_key_display(binding), style=style)
            line.append(f" {words.gettext(binding.description)}",
                        style=description_style if enabled else description_style + _DIM)
            spots.append((start, len(line), binding.key, enabled))
            line.append(" ")
        return line, spots

    def render(self) -> Text:
        return self.line

    def render_lines(self, crop: Region) -> list[Strip]:
        self.drawn = True
        if self.keys_stale:
            self.build_line(self.screen)
        # The same keys for every viewer in the same phase: drawn once.
        return shared_lines(self, text_key(self.line), crop, super().render_lines)

    def on_click(self, event: Click) -> None:
        for start, end, key, enabled in self.spots:
            if start <= event.x < end:
                if enabled:
                    self.app.simulate_key(key)
                else:
                    self.app.bell()
                return
