"""Turning what an SSH client sends us into text safe to show other players.

The SSH user name (or a password login's name) becomes a player's display
name and is drawn on other players' screens: it is cleaned by the one name
cleaner every other name goes through (:func:`fivetowers.tables.seats.clean_name`:
no escape sequences, control or format characters, markup brackets). A join
code is typed by hand and read back in the lobby, so it is kept to a small
alphabet.
"""

from __future__ import annotations

import re

from fivetowers.tables.seats import MAX_NAME, clean_name

__all__ = ["FALLBACK_NAME", "NAME_LENGTH", "clean_name", "parse_exec"]

NAME_LENGTH = MAX_NAME
"""Longest display name kept; longer names are cut (tables are narrow)."""

FALLBACK_NAME = "player"

_JOIN = re.compile(r"\s*join\s+([A-Za-z0-9]{3,12})\s*")


def parse_exec(command: str) -> str | None:
    """The table code of an exec request ``join CODE``, upper-cased; None otherwise.

    This is the only command the server understands; nothing else is run.
    """
    match = _JOIN.fullmatch(command)
    return match.group(1).upper() if match else None
