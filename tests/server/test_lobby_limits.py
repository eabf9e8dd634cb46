"""One identity cannot fill the host with tables (and their bots)."""

from __future__ import annotations

import pytest

from fivetowers.rules import Variant
from fivetowers.server.lobby import MAX_TABLES_PER_PLAYER, Lobby, LobbyError


async def test_an_identity_sits_at_a_bounded_number_of_unfinished_tables() -> None:
    lobby = Lobby(bot_kind="random", bot_delay=60.0, absence_bot_after=60, hints=False)
    try:
        for i in range(MAX_TABLES_PER_PLAYER):
            lobby.create("key:mallory", "mallory", title=f"t{i}", players=2, bots=0,
                         variant=Variant.BASE, private=False)
        with pytest.raises(LobbyError, match="unfinished tables"):
            lobby.create("key:mallory", "mallory", title="one more", players=2, bots=1,
                         variant=Variant.BASE, private=False)
        other = lobby.create("key:anni", "anni", title="anni's", players=2, bots=0,
                             variant=Variant.BASE, private=False)
        with pytest.raises(LobbyError, match="unfinished tables"):
            lobby.sit(other, "key:mallory", "mallory")
        assert len(lobby.tables) == MAX_TABLES_PER_PLAYER + 1
    finally:
        for hosted in list(lobby.tables.values()):
            if hosted.table is not None:
                hosted.table.close()
