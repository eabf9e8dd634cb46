"""A bot task started by a player's move must not keep that player's App alive.

A move submitted from a session runs in the session's context (Textual's
active App); the bot task the move starts, and that a stand-in bot keeps
going once the player has left, used to be created in that context and held
the finished session's App until the game ended."""

from __future__ import annotations

import asyncio
import gc



from tests.server.server_helpers import Screen, StartServer, connect, remembering_apps


async def test_a_bot_task_started_by_a_move_does_not_hold_the_movers_app(
        start_server: StartServer) -> None:
    from fivetowers.lobby.model import Lobby
    from fivetowers.lobby.app import LobbyApp, lobby_factory

    # Slow bots: the game (and the bot task) goes on long after the player left.
    lobby = Lobby(bot_kind="random", bot_delay=0.3, absence_bot_after=0.05, hints=False)
    factory, apps = remembering_apps(lobby_factory(lobby))

    server = await start_server(factory)
    conn = await connect(server, username="mover")
    screen = await Screen.open(conn, 90, 28)
    await screen.wait_for("lobby")
    screen.press(b"n")
    await screen.wait_for("New table")
    for key in (b"\t", b"\x7f", b"3", b"\t", b"\x7f", b"2", b"\r"):  # 3 seats, 2 bots
        screen.press(key)
        await asyncio.sleep(0.15)
    await screen.wait_for("your towers")
    hosted = next(iter(lobby.tables.values()))
    table = hosted.table
    assert table is not None
    for _ in range(200):  # the player's own move starts the bots' task
        if table.game.to_move == 0:
            break
        await asyncio.sleep(0.05)
    await screen.wait_for("YOUR TURN to bid")
    before = table.version
    screen.press(b"0" if "you start" in screen.text else b"p")
    for _ in range(100):
        if table.version > before:
            break
        await asyncio.sleep(0.02)
    assert table.version > before, screen.text
    conn.close()
    await conn.wait_closed()
    for _ in range(100):  # the session ends, a stand-in takes the seat
        if not server.sessions and table.is_bot(0):
            break
        await asyncio.sleep(0.05)
    assert not server.sessions and table.is_bot(0) and not table.over
    gc.collect()
    alive = [ref() for ref in apps if isinstance(ref(), LobbyApp)]
    assert not alive, "the bot task holds the finished session's App"
    await table.close()
