"""How many play 5 Towers: the one place that says it (RULES.md A1).

The game's kind, the rules, the record format, ``fivetowers play`` and
``tournament``, and the lobby's new-table form all ask here.
"""

from __future__ import annotations

MIN_PLAYERS = 2
MAX_PLAYERS = 5


def players_problem(count: int) -> str | None:
    """Why ``count`` players cannot play 5 Towers, or None if they can."""
    if MIN_PLAYERS <= count <= MAX_PLAYERS:
        return None
    return f"5 Towers is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}"
