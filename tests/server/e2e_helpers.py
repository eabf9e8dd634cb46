"""What each game's end-to-end test over a real server starts with: a lobby
whose bots move at once, its server, and ann in it."""

from __future__ import annotations

import random
from dataclasses import dataclass

import asyncssh

from fivetowers.lobby.app import lobby_factory
from fivetowers.lobby.model import Lobby
from fivetowers.server.serve import GameServer

from tests.server.server_helpers import Screen, StartServer, connect


@dataclass
class Opened:
    lobby: Lobby
    server: GameServer
    ann_key: asyncssh.SSHKey
    """ann's key: the same key takes her back to her seat."""
    ann_conn: asyncssh.SSHClientConnection
    ann: Screen


async def ann_in_the_lobby(start_server: StartServer, seed: int, banner: str) -> Opened:
    """A server with greedy bots moving at once and stand-ins after 0.3 s,
    ann's 80×24 session once its lobby shows ``banner``. Hints off: the hint
    panel is the table screens' business (tests/tui, tests/gotown/tui), and
    the solver would triple the test's time."""
    lobby = Lobby(bot_kind="greedy", bot_delay=0.0, absence_bot_after=0.3, hints=False,
                  rng=random.Random(seed))
    server = await start_server(lobby_factory(lobby))
    ann_key = asyncssh.generate_private_key("ssh-ed25519")
    ann_conn = await connect(server, ann_key, username="ann")
    ann = await Screen.open(ann_conn, 80, 24)
    await ann.wait_for(banner)
    return Opened(lobby, server, ann_key, ann_conn, ann)
