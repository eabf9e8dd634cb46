"""Turning what an SSH client sends us into text safe to show other players.

The SSH user name becomes a player's display name and is drawn on other
players' screens, so it must not carry terminal escape sequences, Textual
markup or layout-breaking characters. A join code is typed by hand and read
back in the lobby, so it is kept to a small alphabet.
"""

from __future__ import annotations

import re

from fivetowers.tables.seats import clean_text

NAME_LENGTH = 16
"""Longest display name kept; longer names are cut (tables are narrow)."""

FALLBACK_NAME = "player"

# Square brackets open Textual/Rich markup; backslashes escape it. Neither is
# needed in a name people type into ssh, so they go rather than being escaped
# at every use.
_MARKUP = str.maketrans("", "", "[]\\")

_JOIN = re.compile(r"\s*join\s+([A-Za-z0-9]{3,12})\s*")


def clean_name(raw: str, limit: int = NAME_LENGTH) -> str:
    """A display name from an SSH user name.

    Control and format characters (escape sequences, bidi overrides,
    zero-width marks) and markup brackets are removed, runs of white space
    become one space, and the result is cut to ``limit`` characters. An empty
    result becomes ``"player"``.
    """
    kept = clean_text(raw, len(raw)).translate(_MARKUP)
    return " ".join(kept.split())[:limit].rstrip() or FALLBACK_NAME


def parse_exec(command: str) -> str | None:
    """The table code of an exec request ``join CODE``, upper-cased; None otherwise.

    This is the only command the server understands; nothing else is run.
    """
    match = _JOIN.fullmatch(command)
    return match.group(1).upper() if match else None
