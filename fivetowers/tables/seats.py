"""Who sits at a table: seats, and cleaning the names people give themselves."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

MAX_NAME = 16


def clean_name(text: str, fallback: str = "player") -> str:
    """A display name safe for any terminal: no control or format characters
    (escape sequences start with one), single-spaced, at most MAX_NAME long.

    Markup is *not* removed here; screens still escape names (rich Text or
    ``rich.markup.escape``) because ``[`` is a fine character in a name.
    """
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    name = " ".join(kept.split())[:MAX_NAME].strip()
    return name or fallback


@dataclass
class Seat:
    """One seat: a human (with an identity once known, e.g. an SSH key
    fingerprint) or a bot of a named kind."""

    name: str
    bot: str | None = None
    identity: str | None = None
    connected: bool = False

    @property
    def is_bot(self) -> bool:
        return self.bot is not None
