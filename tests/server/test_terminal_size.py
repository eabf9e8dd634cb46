"""A client's claimed terminal size is capped: screens are drawn at that size."""

from __future__ import annotations

from tests.server.server_helpers import Screen, StartServer, connect


async def test_a_huge_terminal_is_drawn_at_the_cap(start_server: StartServer) -> None:
    server = await start_server()
    async with await connect(server) as conn:
        screen = await Screen.open(conn, 1000, 200)
        await screen.wait_for("terminal 400x150")
        screen.resize(120, 40)
        await screen.wait_for("terminal 120x40")
        screen.resize(1200, 300)
        await screen.wait_for("terminal 400x150")
        screen.press(b"q")
        await screen.wait_closed()
