"""Text from players on a screen: never markup, never a control character."""

from __future__ import annotations

import unicodedata

from rich.text import Text


def safe(text: str) -> str:
    """Drop control and format characters (escape sequences start with one)."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")


def name_text(name: str, style: str = "bold") -> Text:
    """A player name as plain Text: never parsed as markup."""
    return Text(safe(name), style=style)
