"""The two commands an SSH client may send: ``join CODE`` and ``export GAME``.

A join code is typed by hand and read back in the lobby, so it is kept to a
small alphabet. (Display names are cleaned by :mod:`fivetowers.user_text`,
like every other text a user types.)
"""

from __future__ import annotations

import re

__all__ = ["COMMANDS", "parse_exec", "parse_export"]

COMMANDS = "join CODE, export GAME"
"""What a client reads when it sent anything else."""

_JOIN = re.compile(r"\s*join\s+([A-Za-z0-9]{3,12})\s*")
_EXPORT = re.compile(r"\s*export\s+#?([0-9]{1,18})\s*")


def parse_exec(command: str) -> str | None:
    """The table code of an exec request ``join CODE``, upper-cased; None otherwise.

    With :func:`parse_export`, the only commands the server understands;
    nothing else is run.
    """
    match = _JOIN.fullmatch(command)
    return match.group(1).upper() if match else None


def parse_export(command: str) -> int | None:
    """The game number of an exec request ``export GAME`` (``42`` or ``#42``);
    None otherwise (the number is only digits, at most 18 of them)."""
    match = _EXPORT.fullmatch(command)
    if match is None:
        return None
    number = int(match.group(1))
    return number if number > 0 else None
