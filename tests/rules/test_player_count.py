"""How many play 5 Towers is one rule, owned by the rules
(:func:`players_problem`): the engine, records, the card set, the game's kind
and the tournament all ask it."""

from __future__ import annotations

import importlib

import pytest

from fivetowers.games.five_towers.bots.tournament import Settings
from fivetowers.games.five_towers.kind import GAME
from fivetowers.games.five_towers.rules import (
    CardError, FormatError, Game, Record, Variant, full_deck, players_problem,
)
from fivetowers.games.five_towers.rules.record import RECORD_FORMAT

# The module, not the rules package's function of the same name.
PLAYERS = importlib.import_module("fivetowers.games.five_towers.rules.players")


def test_two_to_five_play() -> None:
    assert [n for n in range(8) if players_problem(n) is None] == [2, 3, 4, 5]
    assert players_problem(6) == "5 Towers is for 2 to 5 players, not 6"


def test_every_check_asks_the_one_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    # Were the rule to change, every check would follow it: none counts on its own.
    monkeypatch.setattr(PLAYERS, "MAX_PLAYERS", 4)
    names = ["a", "b", "c", "d", "e"]
    message = "5 Towers is for 2 to 4 players, not 5"
    with pytest.raises(FormatError, match=message):
        Game(names, Variant.BASE, seed=1)
    with pytest.raises(FormatError, match=message):
        Record.from_json({"format": RECORD_FORMAT, "variant": "base",
                          "players": names, "seed": 1, "actions": []})
    with pytest.raises(CardError, match=message):
        full_deck(5)
    assert GAME.players_problem(5) == message
    with pytest.raises(ValueError, match="--players must be"):
        Settings(("random",), 5, 1)
