"""Game variants (RULES.md Part A and Part B)."""

from __future__ import annotations

import enum

from fivetowers.games.five_towers.rules.errors import FormatError, shown


class Variant(enum.Enum):
    BASE = "base"
    GREAT_POWERS = "great-powers"

    @property
    def powers(self) -> bool:
        return self is Variant.GREAT_POWERS

    @classmethod
    def from_str(cls, text: object) -> Variant:
        for v in cls:
            if v.value == text:
                return v
        raise FormatError(f'unknown variant {shown(text)}: expected "base" or "great-powers"')

    def __str__(self) -> str:
        return self.value
