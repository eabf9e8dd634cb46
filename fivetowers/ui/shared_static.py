"""A Static whose lines every App showing the same words shares."""

from __future__ import annotations

from typing import Hashable

from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from fivetowers.ui.no_links import NoLinks
from fivetowers.ui.shared_lines import shared_lines, text_key


class SharedStatic(NoLinks, Static):
    """Static text the same for many viewers (a help line, a hint), drawn once.

    Players arriving together see the same words on the same lobby; each App
    rendering them again was part of every session's start. Plain strings and
    Rich Texts are keys of what they show; other content draws alone."""

    def render_lines(self, crop: Region) -> list[Strip]:
        content = self.content
        key: Hashable | None = (
            ("str", content) if isinstance(content, str)
            else text_key(content) if isinstance(content, Text) else None)
        return shared_lines(self, key, crop, super().render_lines)
