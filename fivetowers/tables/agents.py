"""Bots for a table: the bots package, behind the one protocol a table needs.
They think in the table's workers (:mod:`fivetowers.tables.workers`), never
on the event loop.
"""

from __future__ import annotations

import random
from typing import Protocol

from fivetowers.games.five_towers.bots import make_bot as _make_bot
from fivetowers.games.five_towers.rules import Action, PlayerView


class Bot(Protocol):
    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


def make_bot(kind: str) -> Bot:
    bot: Bot = _make_bot(kind)
    return bot
