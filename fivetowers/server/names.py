"""Turning what an SSH client sends us into text safe to show other players.

The SSH user name becomes a player's display name and is drawn on other
players' screens, so it must not carry terminal escape sequences, Textual
markup or layout-breaking characters. A join code is typed by hand and read
back in the lobby, so it is kept to a small alphabet.
"""

from __future__ import annotations

import re
import unicodedata

NAME_LENGTH = 16
"""Longest display name kept; longer names are cut (tables are narrow)."""

FALLBACK_NAME = "player"

# Square brackets open Textual/Rich markup; backslashes escape it. Neither is
# needed in a name, so they go rather than being escaped at every use.
_MARKUP = str.maketrans("", "", "[]\\")
_SPACES = re.compile(r"\s+")
# Whole escape sequences go, not just their ESC: CSI, OSC (to BEL or ST), others.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.?",
                      re.DOTALL)

_JOIN = re.compile(r"\s*join\s+([A-Za-z0-9]{3,12})\s*")


def clean_name(raw: str, limit: int = NAME_LENGTH) -> str:
    """A display name from an SSH user name.

    Control and format characters (escape sequences, bidi overrides,
    zero-width marks) and markup brackets are removed, runs of white space
    become one space, and the result is cut to ``limit`` characters. An empty
    result becomes ``"player"``.
    """
    kept = "".join(_keep(ch) for ch in _ESCAPES.sub("", raw))
    kept = _SPACES.sub(" ", kept.translate(_MARKUP)).strip()
    kept = kept[:limit].rstrip()
    return kept or FALLBACK_NAME


def clean_text(raw: str, limit: int) -> str:
    """A chat line: like :func:`clean_name` but markup characters stay (chat is
    always drawn as plain text, never parsed as markup)."""
    kept = "".join(_keep(ch) for ch in _ESCAPES.sub("", raw))
    return _SPACES.sub(" ", kept).strip()[:limit].rstrip()


def _keep(ch: str) -> str:
    category = unicodedata.category(ch)
    if category == "Zs" or ch in "\t\n\r":
        return " "
    return "" if category[0] in "CZ" else ch


def parse_exec(command: str) -> str | None:
    """The table code of an exec request ``join CODE``, upper-cased; None otherwise.

    This is the only command the server understands; nothing else is run.
    """
    match = _JOIN.fullmatch(command)
    return match.group(1).upper() if match else None
