"""One identity cannot fill the host with tables (and their bots)."""

from __future__ import annotations

import pytest

from fivetowers.lobby.model import MAX_TABLES_PER_PLAYER, Lobby, LobbyError


async def test_an_identity_sits_at_a_bounded_number_of_unfinished_tables() -> None:
    lobby = Lobby(bot_kind="random", bot_delay=60.0, absence_bot_after=60, hints=False)
    try:
        for i in range(MAX_TABLES_PER_PLAYER):
            lobby.create("key:mallory", "mallory", title=f"t{i}", players=2, bots=0,
                         options={"variant": "base"}, private=False)
        with pytest.raises(LobbyError, match="unfinished tables"):
            lobby.create("key:mallory", "mallory", title="one more", players=2, bots=1,
                         options={"variant": "base"}, private=False)
        other = lobby.create("key:anni", "anni", title="anni's", players=2, bots=0,
                             options={"variant": "base"}, private=False)
        with pytest.raises(LobbyError, match="unfinished tables"):
            lobby.sit(other, "key:mallory", "mallory")
        assert len(lobby.tables) == MAX_TABLES_PER_PLAYER + 1
    finally:
        for hosted in list(lobby.tables.values()):
            if hosted.table is not None:
                await hosted.table.close()


async def test_a_second_terminal_keeps_the_seat_when_the_first_leaves() -> None:
    lobby = Lobby(bot_kind="random", bot_delay=60.0, absence_bot_after=0.0, hints=False)
    class Terminal:  # stands for a session's App
        pass

    first, second = Terminal(), Terminal()
    hosted = lobby.create("key:anni", "anni", title="t", players=2, bots=1,
                          options={"variant": "base"}, private=False)
    try:
        assert lobby.sit(hosted, "key:anni", "anni", session=first) == 0
        assert lobby.sit(hosted, "key:anni", "anni", session=second) == 0
        assert hosted.started
        lobby.away(hosted, "key:anni", session=first)
        assert hosted.seats[0].connected and not hosted.awaiting_stand_in
        lobby.away(hosted, "key:anni", session=second)
        assert not hosted.seats[0].connected and 0 in hosted.awaiting_stand_in
    finally:
        if hosted.table is not None:
            await hosted.table.close()
