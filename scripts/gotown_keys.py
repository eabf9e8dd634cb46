"""Playing a GoTown seat by keys, from what its terminal shows.

The kill test (scripts/kill_server.py) and the end-to-end tests read a
client's screen with a terminal emulator (pyte) and press what a player
would: a hand card by its digit, then the play panel's first option when it
is marked legal (the panel lists legal options first, with a ✓), else
backspace and the next card; ``e`` ends the turn once no card in hand has a
legal play. The keys are the table screen's own (see
fivetowers/games/gotown/tui/screens/table.py), and so are the words read:
the status bar's "YOUR TURN", the play panel's "Pick a card", "what does it
do?", "nothing to do now" and its options "1 ✓ …", the hand's "Your hand (N)"
(scripts/load_gotown.py reads the same in raw bytes); a change of them shows
as a failing tests/server/test_gotown_e2e.py.
"""

from __future__ import annotations

import re

HAND = re.compile(r"Your hand \((\d+)\)")
FIRST_LEGAL = re.compile(r"(?<!\S)1 ✓ ")
PICKED = ("what does it do?", "nothing to do now")
BACK = "\x7f"  # backspace: unbinds the picked card (escape would wait for a sequence)


def my_turn(top_line: str) -> bool:
    """Whether the table screen's top line says it is this terminal's turn."""
    return "YOUR TURN" in top_line or ": your turn" in top_line


class GoTownKeys:
    """The next key for a seat at a GoTown table screen, one screen at a time."""

    def __init__(self) -> None:
        self.card = 1
        """The hand card (its key) to try next this turn."""

    def key(self, lines: list[str]) -> str | None:
        """The key to press on this screen, or None (not this seat's turn, or
        no table screen)."""
        text = "\n".join(lines)
        if not lines or not my_turn(lines[0]):
            self.card = 1
            return None
        if any(p in text for p in PICKED):
            if FIRST_LEGAL.search(text):
                self.card = 1  # the hand changes: try from its first card again
                return "1"
            self.card += 1
            return BACK
        if "Pick a card" not in text:
            return None
        found = HAND.search(text)
        size = int(found.group(1)) if found else 0
        if self.card > min(size, 9):
            self.card = 1
            return "e"
        return str(self.card)
