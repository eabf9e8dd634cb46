"""The 'ssh ... join CODE' line players share names the server as they can
reach it: its --public-name, else the address the session connected to."""

from __future__ import annotations

import random

import asyncssh

from fivetowers.lobby.app import lobby_factory
from fivetowers.lobby.model import Lobby

from tests.server.server_helpers import Screen, StartServer, connect


async def waiting_line(start_server: StartServer, **settings: object) -> tuple[str, int, str]:
    lobby = Lobby(bot_kind="random", bot_delay=60.0, hints=False, rng=random.Random(4))
    server = await start_server(lobby_factory(lobby), **settings)
    key = asyncssh.generate_private_key("ssh-ed25519")
    hosted = lobby.create(key.get_fingerprint("sha256"), "ann", title="Trio", players=3,
                          bots=1, private=False)
    async with await connect(server, key, username="ann") as conn:
        screen = await Screen.open(conn, 80, 24, command=f"join {hosted.code}")
        await screen.wait_for("Others join with")
        text = screen.text
        screen.press(b"\x1b")  # leave the table for the lobby: its help line too
        await screen.wait_for("Share a table's code")
        text += "\n" + screen.text
        screen.press(b"q")
        await screen.wait_closed()
    await lobby.close()
    return text, server.port, hosted.code


async def test_the_join_line_names_the_address_the_server_listens_on(
        start_server: StartServer) -> None:
    text, port, code = await waiting_line(start_server)
    assert f"ssh -t -p {port} 127.0.0.1 join {code}" in text
    assert f"ssh -t -p {port} 127.0.0.1 join CODE" in text
    assert "HOST" not in text


async def test_the_join_line_names_the_public_name(start_server: StartServer) -> None:
    text, port, code = await waiting_line(start_server, public_name="games.example.org")
    assert f"ssh -t -p {port} games.example.org join {code}" in text
    assert f"ssh -t -p {port} games.example.org join CODE" in text
