"""Who sits at a table: seats, and cleaning the names people give themselves."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MAX_NAME = 16
BOT_NAMES = ("Hedda", "Peter", "Anni", "Jonas", "Mira")
"""Names for bot seats, after the rulebook's players."""

# Whole escape sequences go, not just their ESC: CSI, OSC (to BEL or ST), others.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.?",
                      re.DOTALL)


def clean_text(raw: str, limit: int) -> str:
    """Text from a user that is safe to put on anyone's terminal: escape
    sequences and every control or format character (bidi overrides,
    zero-width marks) removed, white space single-spaced, cut to ``limit``.

    Markup is *not* removed: screens draw user text as plain ``rich`` Text
    (or escape it), because ``[`` is a fine character to type.
    """
    kept = "".join(_keep(ch) for ch in _ESCAPES.sub("", raw))
    return " ".join(kept.split())[:limit].rstrip()


def clean_name(text: str, fallback: str = "player") -> str:
    """A display name: :func:`clean_text` at most MAX_NAME long, never empty."""
    return clean_text(text, MAX_NAME) or fallback


def unique_name(name: str, taken: set[str] | list[str]) -> str:
    """``name``, or ``name 2``, ``name 3``... whichever no one at the table has."""
    candidate, n = name, 2
    while candidate in taken:
        candidate = f"{name[:MAX_NAME - 3]} {n}"
        n += 1
    return candidate


def _keep(ch: str) -> str:
    category = unicodedata.category(ch)
    if category == "Zs" or ch in "\t\n\r":
        return " "
    return "" if category[0] in "CZ" else ch


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
