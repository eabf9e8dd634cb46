"""Bots for a table: the game's bots behind the platform's one
:class:`~fivetowers.games.protocol.Bot` protocol. They think in the table's
workers (:mod:`fivetowers.tables.workers`), never on the event loop.
"""

from __future__ import annotations

from fivetowers.games import game_kind
from fivetowers.games.protocol import Bot

__all__ = ["Bot", "make_bot"]


def make_bot(kind: str, game: str) -> Bot:
    """A bot of ``kind`` (one of the game's ``bot_kinds``) for the game
    registered as ``game`` (a table makes its bots with its own
    :attr:`Table.kind`)."""
    return game_kind(game).make_bot(kind)
