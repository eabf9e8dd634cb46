"""A real SSH session's App dies by reference counting as the session ends
(``Session._play`` lets go of it: ``compat/ended_app.py``), not frozen for
the collector's reclaim."""

from __future__ import annotations

import asyncio
import gc

import pytest

from tests.server.server_helpers import Screen, StartServer, connect, remembering_apps


async def test_an_ended_ssh_session_s_app_dies_without_a_collection(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from fivetowers.lobby.app import lobby_factory
    from fivetowers.lobby.model import Lobby

    lobby = Lobby(hints=False)
    factory, apps = remembering_apps(lobby_factory(lobby))

    server = await start_server(factory)
    # Nothing collects from here: not the server's settles, not the interpreter.
    monkeypatch.setattr(server.collector, "settle", lambda *args, **kwargs: None)
    conn = await connect(server, username="leaver")
    screen = await Screen.open(conn, 90, 28)
    await screen.wait_for("lobby")
    gc.collect()
    gc.disable()
    try:
        conn.close()
        await conn.wait_closed()
        for _ in range(200):
            if not server.sessions and apps and apps[0]() is None:
                break
            await asyncio.sleep(0.05)
        assert not server.sessions
        assert apps and apps[0]() is None, "the ended session's App waits for a collection"
    finally:
        gc.enable()
