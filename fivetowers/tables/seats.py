"""Who sits at a table: seats, and the names they go by.

Names are cleaned before they get here, by :mod:`fivetowers.user_text`.
"""

from __future__ import annotations

from dataclasses import dataclass

from fivetowers.user_text import MAX_NAME

BOT_NAMES = ("Hedda", "Peter", "Anni", "Jonas", "Mira")
"""Names for bot seats, after the rulebook's players."""


def unique_name(name: str, taken: set[str] | list[str]) -> str:
    """``name``, or ``name 2``, ``name 3``... whichever no one at the table has."""
    candidate, n = name, 2
    while candidate in taken:
        candidate = f"{name[:MAX_NAME - 3]} {n}"
        n += 1
    return candidate


@dataclass
class Seat:
    """One seat: a human (with an identity once known, e.g. an SSH key
    fingerprint) or a bot of a named kind."""

    name: str
    bot: str | None = None
    identity: str | None = None
    connected: bool = False
    stand_in_at: float | None = None
    """While its player is away: when (the event loop's clock) a stand-in bot
    starts playing this seat; None when none is due (see ``Table.standing_in``
    for one that plays now)."""

    @property
    def is_bot(self) -> bool:
        return self.bot is not None
