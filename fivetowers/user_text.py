"""Cleaning what people type for others to see: the one place that decides
what of a user's text reaches a terminal.

Every string a user types that someone else's terminal shows — a display
name (SSH user name, password login, ``play --names``), a table's title, a
chat line — goes through :func:`clean_name` or :func:`clean_text`, here and
nowhere else. Standard library only: the rules, the games, the hosting layers
and the SSH transport may all import it.
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 16
"""Longest display name kept; longer names are cut (tables are narrow)."""

FALLBACK_NAME = "player"
"""The name of someone whose name cleans to nothing."""

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
    becomes one space; the ends are trimmed. Markup brackets are kept, as
    plain text.
    """
    kept = "".join(_keep(ch) for ch in _ESCAPES.sub("", raw[:RAW_KEPT]))
    return " ".join(kept.split())[:limit].rstrip()


def clean_name(raw: str, fallback: str = FALLBACK_NAME, limit: int = MAX_NAME) -> str:
    """A display name: :func:`clean_text` without markup brackets or
    backslashes, at most ``limit`` (16) long, never empty (``fallback``)."""
    kept = clean_text(raw, RAW_KEPT).translate(_MARKUP)
    return " ".join(kept.split())[:limit].rstrip() or fallback


def _keep(ch: str) -> str:
    category = unicodedata.category(ch)
    if category[0] == "Z" or ch in "\t\n\r":
        return " "
    return "" if category[0] == "C" else ch
