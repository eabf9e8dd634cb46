"""A text field that cuts a paste to fit, and says so, instead of dropping it."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.message import Message

from fivetowers.compat.textual import InOrderInput


class CappedInput(InOrderInput):
    """An Input with a ``max_length`` that keeps what fits of a paste.

    Textual's Input refuses a paste that would pass ``max_length`` as a
    whole (a bell, nothing else), and keeps only a paste's first line: a
    long paste vanished without a word. Here a paste's lines are joined by
    spaces, as much as fits is inserted, and :class:`Cut` tells the form how
    much was left out, so that it can say so."""

    @dataclass
    class Cut(Message):
        """A paste was cut to fit the field."""

        field: CappedInput
        kept: int
        left_out: int

    def on_paste(self, event: events.Paste) -> None:
        if not self.max_length:
            return  # Input's own handler takes it
        # Handled here: Input's own handler would refuse a long paste whole.
        event.stop()
        event.prevent_default()
        text = " ".join(event.text.splitlines())
        start, end = sorted(self.selection)
        room = max(self.max_length - (len(self.value) - (end - start)), 0)
        kept = text[:room]
        if kept:
            self.replace(kept, start, end)
        if len(kept) < len(text):
            self.post_message(self.Cut(self, len(kept), len(text) - len(kept)))
