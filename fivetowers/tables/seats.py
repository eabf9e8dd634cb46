"""Who sits at a table: seats, and cleaning what people type for others to see.

Every string a user types that someone else's terminal shows — a display
name (SSH user name, password login, ``play --names``), a table's title, a
chat line — goes through :func:`clean_name` or :func:`clean_text`, here and
nowhere else, so that one place decides what reaches a terminal.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MAX_NAME = 16
BOT_NAMES = ("Hedda", "Peter", "Anni", "Jonas", "Mira")
"""Names for bot seats, after the rulebook's players."""

RAW_KEPT = 4096
"""Characters of raw input looked at: nothing shown is longer than 120, and
cleaning a pasted megabyte would hold up the loop every session shares."""

# Whole escape sequences go, not just their introducer, in their 7-bit (ESC x)
# and 8-bit (C1) spellings: a terminal reads U+009B as CSI just like ESC [.
#   CSI ... final;  OSC/DCS/SOS/PM/APC ... up to BEL or ST;  ESC + intermediates + final.
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?")

# Square brackets open Textual/Rich markup and backslashes escape it. Screens
# draw user text as plain Text, but a name is drawn in many places (some in
# widgets of other layers), and nobody needs a bracket in a name: names lose
# them; titles and chat keep them ("[" is a fine character to type) and are
# drawn as plain text.
_MARKUP = str.maketrans("", "", "[]\\")


def clean_text(raw: str, limit: int) -> str:
    """Text from a user that is safe to put on anyone's terminal, at most
    ``limit`` characters.

    Removed: escape sequences (7- and 8-bit), every control character (C0,
    DEL, C1), every format character (bidi embeddings, overrides and
    isolates U+202A-202E and U+2066-2069, U+061C, zero-width U+200B-200F,
    U+FEFF, tags U+E0000-E007F, soft hyphens), surrogates, private-use and
    unassigned code points. Any white space or line/paragraph separator
    becomes one space; the ends are trimmed.
    """
    kept = "".join(_keep(ch) for ch in _ESCAPES.sub("", raw[:RAW_KEPT]))
    return " ".join(kept.split())[:limit].rstrip()


def clean_name(raw: str, fallback: str = "player", limit: int = MAX_NAME) -> str:
    """A display name: :func:`clean_text` without markup brackets or
    backslashes, at most ``limit`` (16) long, never empty (``fallback``)."""
    kept = clean_text(raw, RAW_KEPT).translate(_MARKUP)
    return " ".join(kept.split())[:limit].rstrip() or fallback


def unique_name(name: str, taken: set[str] | list[str]) -> str:
    """``name``, or ``name 2``, ``name 3``... whichever no one at the table has."""
    candidate, n = name, 2
    while candidate in taken:
        candidate = f"{name[:MAX_NAME - 3]} {n}"
        n += 1
    return candidate


def _keep(ch: str) -> str:
    category = unicodedata.category(ch)
    if category[0] == "Z" or ch in "\t\n\r":
        return " "
    return "" if category[0] == "C" else ch


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
