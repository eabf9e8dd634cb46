"""A hosted table with one SSH player and a bot, already running: for the
tests of what a seated player's keys do over a real connection."""

from __future__ import annotations

import random

import asyncssh

from fivetowers.lobby.app import lobby_factory
from fivetowers.lobby.model import HostedTable, Lobby
from fivetowers.server.serve import GameServer

from tests.server.server_helpers import Screen, StartServer, connect


class Seated:
    """ann at a running two-seat table (ann, a bot), her screen open."""

    def __init__(self, server: GameServer, lobby: Lobby, hosted: HostedTable,
                 conn: asyncssh.SSHClientConnection, screen: Screen,
                 key: asyncssh.SSHKey) -> None:
        self.server, self.lobby, self.hosted = server, lobby, hosted
        self.conn, self.screen, self.key = conn, screen, key

    @classmethod
    async def start(cls, start_server: StartServer, width: int = 80, height: int = 24,
                    seed: int = 7, bots: int = 1) -> Seated:
        # Hints off: the solver would only slow these tests down.
        lobby = Lobby(bot_kind="greedy", bot_delay=0.0, absence_bot_after=30.0, hints=False,
                      rng=random.Random(seed))
        server = await start_server(lobby_factory(lobby))
        key = asyncssh.generate_private_key("ssh-ed25519")
        hosted = lobby.create(key.get_fingerprint("sha256"), "ann", title="Duel",
                              players=bots + 1, bots=bots, private=False,
                              options={"variant": "base"})
        conn = await connect(server, key, username="ann")
        screen = await Screen.open(conn, width, height, command=f"join {hosted.code}")
        await screen.wait_for("ann — your towers")
        return cls(server, lobby, hosted, conn, screen, key)

    async def my_turn_to_bid(self) -> None:
        await self.screen.wait_until(lambda: "YOUR TURN to bid" in self.screen.screen.display[0],
                                     "ann's turn to bid")

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()
