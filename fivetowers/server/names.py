"""The one command an SSH client may send: ``join CODE``.

A join code is typed by hand and read back in the lobby, so it is kept to a
small alphabet. (Display names are cleaned by :mod:`fivetowers.user_text`,
like every other text a user types.)
"""

from __future__ import annotations

import re

__all__ = ["parse_exec"]

_JOIN = re.compile(r"\s*join\s+([A-Za-z0-9]{3,12})\s*")


def parse_exec(command: str) -> str | None:
    """The table code of an exec request ``join CODE``, upper-cased; None otherwise.

    This is the only command the server understands; nothing else is run.
    """
    match = _JOIN.fullmatch(command)
    return match.group(1).upper() if match else None
