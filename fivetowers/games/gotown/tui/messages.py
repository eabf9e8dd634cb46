"""Messages GoTown's widgets send up to the table screen."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class HandCardClicked(Message):
    """The player clicked card ``index`` of their hand."""

    index: int


@dataclass
class FloorClicked(Message):
    """The player clicked ``seat``'s tower at ``floor`` (None: off the floors)."""

    seat: int
    floor: int | None


@dataclass
class ChoicePicked(Message):
    """The player picked option ``index`` of the play panel."""

    index: int
