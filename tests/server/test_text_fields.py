"""Text fields over SSH: keys that come in one read are applied in order."""

from __future__ import annotations

import random

from fivetowers.lobby.app import lobby_factory
from fivetowers.lobby.model import Lobby

from tests.server.server_helpers import Screen, StartServer, connect


async def test_backspace_and_a_digit_in_one_read_edit_the_seats_field(
        start_server: StartServer) -> None:
    lobby = Lobby(bot_kind="random", bot_delay=60.0, hints=False, rng=random.Random(2))
    server = await start_server(lobby_factory(lobby))
    async with await connect(server, username="ann") as conn:
        screen = await Screen.open(conn, 80, 24)
        await screen.wait_for("lobby — you are ann")
        screen.press(b"n")
        await screen.wait_for("New table")
        screen.press(b"Duo\t")  # the name, then to the seats field ("3")
        await screen.wait_until(lambda: "Duo" in screen.text, "typed the name")
        screen.press(b"\x7f2")  # Backspace and 2 in one write: a slow link's bundle
        await screen.wait_until(lambda: "Seats (2-5)" in screen.text, "form drawn")
        screen.press(b"\r")
        await screen.wait_until(lambda: bool(lobby.tables), "created the table")
        (hosted,) = lobby.tables.values()
        assert len(hosted.seats) == 2, screen.text  # with its bot: started at once
        await screen.wait_for("ann — your towers")
        screen.press(b"q")
        await screen.wait_for("lobby — you are ann")
        screen.press(b"q")
        await screen.wait_closed()
    await lobby.close()
