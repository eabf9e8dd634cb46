"""What GoTown's log shows: the game's entries as this viewer may read them,
with the table's chat among them and a stand-in bot's moves marked."""

from __future__ import annotations

from typing import Mapping, Sequence

from fivetowers.games.gotown.chronicle import Entry
from fivetowers.games.screens import ChatEntry
from fivetowers.i18n import N_, _
from fivetowers.i18n.terms import said_text

STAND_IN = N_(" (stand-in bot)")
"""After a move a stand-in bot made."""

Line = tuple[str, str]
"""(kind, text): the kind styles it."""


def log_lines(entries: Sequence[Entry], seat: int | None, chat: Sequence[ChatEntry] = (),
              stand_ins: Mapping[int, int] | None = None) -> tuple[Line, ...]:
    """``entries`` for ``seat``, each chat line after the moves made before it
    was said, and the first line of a stand-in bot's move marked."""
    marks = stand_ins or {}
    lines: list[tuple[int, Line]] = []
    previous = None
    for e in entries:
        text = e.text_for(seat)
        if e.action in marks and e.action != previous:  # the move itself, not what followed
            text += _(STAND_IN)
        previous = e.action
        lines.append((e.action, (e.kind, text)))
    merged: list[Line] = []
    i = 0
    for said in chat:
        while i < len(lines) and lines[i][0] < said.moves:
            merged.append(lines[i][1])
            i += 1
        merged.append(("chat", f"{said.name}: {said_text(said.text)}"))
    merged.extend(line for _, line in lines[i:])
    return tuple(merged)
