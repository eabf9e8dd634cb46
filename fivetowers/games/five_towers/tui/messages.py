"""Messages the widgets send up to the table screen: small dataclasses."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class DisplayCardClicked(Message):
    """The player clicked the display card at ``index``."""

    index: int


@dataclass
class StepPicked(Message):
    """The player picked option ``index`` of the build panel's step list."""

    index: int
