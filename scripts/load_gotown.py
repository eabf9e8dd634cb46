"""The load test's GoTown player: a seat played by keys from the raw bytes.

Like the 5 Towers player (scripts/load_clients.py) it reads no terminal:
it searches the bytes its session receives. On its turn (the status line's
"YOUR TURN" came after the last "is playing…") it picks its first hand card
(``1``: nothing is measured, no log line follows) and reads the play panel:
when the first option is marked legal (``1 ✓``) it presses ``1`` and waits
for its play's log line ("NAME builds", "NAME steals", "NAME's thief"...);
otherwise (``1 ✗``, or "nothing to do now") it puts the card back and ends
the turn (backspace, ``e``) and waits for "NAME ends the turn". Those two
keys are measured like every other key: until every screen at the table
shows the log line. A play leaves the turn with the player, whose status
line is not drawn again: it plays on once its own screen shows the play.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from load_clients import END_SCREEN, RETRY_AFTER, Action, Player, Results

YOUR_TURN = b"YOUR TURN"
OTHERS = (b" is playing", b"game over")
STYLED = rb"(?:\x1b\[[0-9;]*m)*"
FIRST_LEGAL = re.compile(rb"1 " + STYLED + "✓".encode())
FIRST_REFUSED = re.compile(rb"1 " + STYLED + "✗".encode())
NOTHING = b"nothing to do now"
PICK_TIMEOUT = 3.0
"""Seconds to wait for the play panel after picking a card before picking again."""


class GoTownPlayer(Player):
    def __init__(self, name: str, results: Results, pace: float, rematch: bool = False) -> None:
        super().__init__(name, results, pace, "gotown", 0.0, rematch)
        self.your_at = self.others_at = -1
        self.legal_at = self.refused_at = self.nothing_at = -1
        self.picked_at = -1
        """Where the output was when I picked a card (-1: none picked)."""
        self.picked_time = 0.0
        self.acted_at = -1
        """Where the output was when my last measured key was pressed."""
        self.ended = False
        """My last measured key ended the turn: wait for a new "YOUR TURN"."""

    def scan(self, data: bytes, base: int) -> None:
        def last(marker: bytes, old: int) -> int:
            found = data.rfind(marker)
            return base + found if found >= 0 else old

        def last_match(pattern: re.Pattern[bytes], old: int) -> int:
            found = [m.start() for m in pattern.finditer(data)]
            return base + found[-1] if found else old

        self.your_at = last(YOUR_TURN, self.your_at)
        for marker in OTHERS:
            self.others_at = max(self.others_at, last(marker, -1))
        self.legal_at = last_match(FIRST_LEGAL, self.legal_at)
        self.refused_at = last_match(FIRST_REFUSED, self.refused_at)
        self.nothing_at = last(NOTHING, self.nothing_at)

    def gotown_turn(self) -> bool:
        """Whether it is my turn and I may act (my last key's play is shown)."""
        if self.your_at <= self.others_at:
            return False
        if self.ended:  # a new turn draws the status line anew
            return self.your_at > self.acted_at
        return True

    def markers_of(self, kind: str) -> tuple[bytes, ...]:
        me = self.name.encode()
        if kind == "end":
            return (me + b" ends the turn", b"game over", END_SCREEN)
        # Each play's log line starts with the player's name and the verb;
        # a win ends the game (and the end screen covers the log at once).
        return (me + b" builds", me + b" steals", me + b" puts a dog", me + b"'s ",
                me + b" gives", me + b" plays", b"game over", END_SCREEN)

    def press_measured(self, process: Any, key: bytes, kind: str) -> None:
        now = time.monotonic()
        measured = now >= self.results.since
        screens = self.screens()
        action = Action(self.markers_of(kind), now, self, screens, measured,
                        f"gotown-{kind}", {v.name: v.total for v in screens})
        for viewer in screens:
            viewer.expect(action)
        self.results.open.add(action)
        if measured:
            self.results.kinds[action.kind] = self.results.kinds.get(action.kind, 0) + 1
        self.mine = action
        self.acted_at, self.key_time = self.total, now
        self.last_key, self.resent = key, 0
        self.ended = kind == "end"
        self.picked_at = -1
        process.stdin.write(key)

    async def play_table(self, process: Any, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await self.glance()
            if self.over():
                await self.play_again(process, stop)
                self.picked_at = -1
                continue
            mine = self.mine
            if mine is not None and self in mine.waiting:  # not on my screen yet
                if time.monotonic() - self.key_time > RETRY_AFTER and self.resent < 3:
                    self.resent += 1  # pressed again; the wait counts from the first
                    self.key_time = time.monotonic()
                    process.stdin.write(self.last_key[-1:])
                continue
            if not self.gotown_turn():
                self.picked_at = -1
                continue
            if self.picked_at < 0:
                await asyncio.sleep(self.pace * self.rng.uniform(0.8, 1.2))  # think first
                if stop.is_set() or not self.gotown_turn():
                    continue
                self.picked_at, self.picked_time = self.total, time.monotonic()
                process.stdin.write(b"1")  # the first card: its options show
                continue
            if self.legal_at > self.picked_at:
                self.press_measured(process, b"1", "play")
            elif max(self.refused_at, self.nothing_at) > self.picked_at:
                self.press_measured(process, b"\x7fe", "end")
            elif time.monotonic() - self.picked_time > PICK_TIMEOUT:
                self.picked_at = -1  # no panel came: pick again
