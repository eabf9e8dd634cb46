"""What the table's log shows: the game's own entries, with the table's chat
among them and the moves a stand-in bot made marked as such."""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from fivetowers.games.five_towers.rules import LogEntry
from fivetowers.games.screens import ChatEntry
from fivetowers.games.five_towers.tui.words import STAND_IN
from fivetowers.i18n.terms import said_text

_OWN_MOVES = ("bid", "pass", "build")
"""The kinds of entry that are the mover's own action (not what followed)."""


def log_lines(entries: Sequence[LogEntry], chat: Sequence[ChatEntry] = (),
              stand_ins: Mapping[int, int] | None = None) -> tuple[LogEntry, ...]:
    """``entries`` with each chat line after the moves made before it was said
    (and after the game's opening reveal), and stand-in bots' moves marked."""
    marks = stand_ins or {}
    lines = [replace(e, text=e.text + STAND_IN, details=e.details + (("stand_in", True),))
             if e.kind in _OWN_MOVES and marks.get(e.after, -1) == e.seat else e
             for e in entries]
    if not chat:
        return tuple(lines)
    opening = 0  # the first round's reveal came before anyone could say a word
    while opening < len(lines) and lines[opening].after == 0 and lines[opening].kind == "reveal":
        opening += 1
    merged: list[LogEntry] = []
    i = 0
    for said in chat:
        while i < len(lines) and (lines[i].after < said.moves or i < opening):
            merged.append(lines[i])
            i += 1
        last_round = merged[-1].round if merged else 0
        merged.append(LogEntry(last_round, "chat", None, f"{said.name}: {said_text(said.text)}",
                               said.moves))
    merged.extend(lines[i:])
    return tuple(merged)
