"""Keeping a 5 Towers game in a store, and reading it back, as tests need it."""

from __future__ import annotations

from typing import Any

from fivetowers.games.five_towers.rules.game import Game
from fivetowers.games.five_towers.rules.record import Record


def kept(game: Game) -> dict[str, Any]:
    """``create_table``'s game arguments for ``game`` as it is now."""
    return {"kind": "fivetowers", "setup": game.setup_json(),
            "actions": [a.to_json() for a in game.actions]}


def record(stored_record: dict[str, Any]) -> Record:
    """A stored record as 5 Towers reads it."""
    return Record.from_json(stored_record)
