"""What one session's input may cost the server: budgets and the paste cap.

Every session's keys are parsed by Textual's pure-Python xterm parser on the
one event loop all sessions share, and every key becomes an event its App
handles (about 0.1-0.2 ms each). A client that sends faster than anyone types
would take the loop from every other player (issue 18), so the driver
(:mod:`fivetowers.server.driver`) hands its parser only what these allow:

* :class:`TokenBucket` - how much text per second reaches the parser
  (generous for typing, clicks, drags and a chat-sized paste; the excess is
  dropped unparsed) and how many raw bytes per second are read at all (the
  rest waits in the SSH channel, so the client is pushed back).
* :class:`PasteGuard` - a bracketed paste holds at most ``cap`` characters;
  the rest is dropped and the paste ends there, so a start marker without an
  end cannot make the parser hold megabytes.
* :func:`key_events` - how many events some keys text would make at most,
  known before parsing it: a read that the budget cannot take whole is no
  one typing, and is dropped whole rather than parsed up to the budget.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Iterator

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
_MARKER_LEN = len(PASTE_START)


class TokenBucket:
    """``rate`` tokens a second, up to ``burst`` saved; times in loop seconds."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self._at = now

    def _refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self._at) * self.rate)
        self._at = now

    def take(self, wanted: int, now: float) -> int:
        """Take up to ``wanted`` whole tokens; returns how many were granted."""
        self._refill(now)
        granted = max(0, min(wanted, int(self.tokens)))
        self.tokens -= granted
        return granted

    def charge(self, amount: float, now: float) -> None:
        """Spend ``amount`` even if it runs the bucket into debt (raw bytes already read)."""
        self._refill(now)
        self.tokens -= amount

    def available(self, now: float) -> float:
        """Tokens saved now (negative while in debt)."""
        self._refill(now)
        return self.tokens

    def wait_for(self, amount: float, now: float) -> float:
        """Seconds until ``amount`` tokens are saved (0 if they are)."""
        self._refill(now)
        return max(0.0, (amount - self.tokens) / self.rate)


# One event each: a CSI sequence (arrows, function keys, mouse reports) or an
# SS3 one (keypad); any other character is an event of its own at the most.
_SEQUENCE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|O.)")


def key_events(text: str) -> int:
    """The events parsing ``text`` (keys, not a paste) makes, at the most."""
    plain, sequences = _SEQUENCE.subn("", text)
    return len(plain) + sequences


class Part(Enum):
    KEYS = "keys"
    START = "start"
    PASTE = "paste"
    END = "end"


@dataclass(frozen=True, slots=True)
class Piece:
    part: Part
    text: str


class PasteGuard:
    """Splits the decoded input into keys, paste markers and paste text, and
    keeps each paste to ``cap`` characters.

    It follows the paste markers the same way the parser does, chunk by chunk
    (a marker may be cut across two reads), and says what the parser should
    see: pieces of :class:`Part`. A paste that grows past ``cap`` is ended
    there (an END piece the client did not send) and the rest of it, up to
    the client's own end marker, is dropped and counted in ``dropped``.
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.in_paste = False
        """The parser is inside a paste (it was given a start marker and no end)."""
        self.discarding = False
        """The rest of a paste is being dropped, up to the client's end marker."""
        self.held = 0
        """Paste characters given to the parser in the current paste."""
        self.dropped = 0
        """Paste characters dropped since the last :meth:`take_dropped`."""
        self._tail = ""
        # The last few characters already split: a marker may start there.

    def split(self, text: str) -> Iterator[Piece]:
        """The pieces of ``text``, lazily: the caller may :meth:`refuse_paste`
        or :meth:`cut_paste` between pieces and the rest follows suit."""
        seen = self._tail + text
        self._tail = seen[-(_MARKER_LEN - 1):]
        offset = len(seen) - len(text)  # seen[offset:] is new
        pos = offset
        while pos < len(seen):
            marker = PASTE_END if (self.in_paste or self.discarding) else PASTE_START
            # A marker may begin in the tail (passed on already): look from there.
            found = seen.find(marker, 0 if pos == offset else pos)
            if found < 0:
                yield from self._content(seen[pos:])
                return
            end = found + _MARKER_LEN
            if found > pos:
                yield from self._content(seen[pos:found])
            # Only the marker's characters not passed on already are new.
            yield from self._marker(marker, seen[max(found, pos):end])
            pos = end

    def _content(self, text: str) -> Iterator[Piece]:
        if self.discarding:
            self.dropped += len(text)
        elif not self.in_paste:
            yield Piece(Part.KEYS, text)
        else:
            room = self.cap - self.held
            if len(text) <= room:
                self.held += len(text)
                yield Piece(Part.PASTE, text)
            else:
                if room > 0:
                    self.held += room
                    yield Piece(Part.PASTE, text[:room])
                self.dropped += len(text) - max(room, 0)
                self.cut_paste()
                yield Piece(Part.END, PASTE_END)

    def _marker(self, marker: str, text: str) -> Iterator[Piece]:
        if marker == PASTE_START:
            self.in_paste, self.held = True, 0
            yield Piece(Part.START, text)
        elif self.discarding:
            self.discarding = False
        else:
            self.in_paste, self.held = False, 0
            yield Piece(Part.END, text)

    def cut_paste(self) -> None:
        """The paste ends here for the parser (the caller gives it an end
        marker); the rest of it, up to the client's end marker, is dropped."""
        self.in_paste, self.discarding, self.held = False, True, 0

    def refuse_paste(self) -> None:
        """The start marker just split was not passed on: drop that paste whole."""
        self.cut_paste()

    def end_paste(self) -> list[Piece]:
        """The client went quiet inside a paste: end it (the end marker is lost)."""
        self._tail = ""
        if self.discarding:
            self.discarding = False
            return []
        if self.in_paste:
            self.in_paste, self.held = False, 0
            return [Piece(Part.END, PASTE_END)]
        return []

    def take_dropped(self) -> int:
        dropped, self.dropped = self.dropped, 0
        return dropped
