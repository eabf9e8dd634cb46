"""The lobby in the player's language: from their locale over SSH, switched
with a key, remembered by their key for the next login."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from fivetowers.games.five_towers.kind import GAME as FIVE_TOWERS
from fivetowers.i18n import Speech
from fivetowers.lobby.app import LobbyApp, lobby_factory
from fivetowers.lobby.model import HostedTable, Lobby
from fivetowers.server.session import Visitor
from fivetowers.tables.seats import Seat
from fivetowers.tables.store import open_store

from tests.server.server_helpers import Screen, StartServer, connect

VIETNAMESE_LOBBY = "Sảnh 5 Towers — bạn là"
ENGLISH_LOBBY = "5 Towers lobby — you are"


def _lobby(store_dir: Path | None = None) -> Lobby:
    store = open_store(store_dir) if store_dir is not None else None
    return Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=60, store=store,
                 rng=random.Random(3))


async def test_a_client_sending_lang_vi_gets_the_vietnamese_lobby(
        start_server: StartServer) -> None:
    lobby = _lobby()
    server = await start_server(lobby_factory(lobby))
    async with await connect(server, username="an") as vi_conn, \
            await connect(server, username="bob") as en_conn:
        an = await Screen.open(vi_conn, 80, 24, env={"LANG": "vi_VN.UTF-8"})
        bob = await Screen.open(en_conn, 80, 24, env={"LANG": "en_GB.UTF-8"})
        await an.wait_for(VIETNAMESE_LOBBY)
        await an.wait_for("Chưa có bàn nào: nhấn n để tạo bàn.")
        await an.wait_for("bàn mới")  # the keys too
        await bob.wait_for(ENGLISH_LOBBY)  # the same loop, its own language
        assert "sảnh" not in bob.text
        for screen in (an, bob):
            screen.press(b"q")
            await screen.wait_closed()
    await lobby.close()


async def test_the_messages_before_the_app_follow_the_clients_locale(
        start_server: StartServer) -> None:
    server = await start_server(lobby_factory(_lobby()))
    async with await connect(server) as conn:
        no_pty = await conn.create_process(env={"LANG": "vi_VN.UTF-8"})
        said = await no_pty.stdout.read()
        await no_pty.wait_closed()
        assert "fivetowers cần một terminal: hãy kết nối bằng ssh -t" in said
    async with await connect(server) as conn:
        wrong = await conn.create_process("dance", term_type="xterm",
                                          env={"LC_ALL": "vi_VN.UTF-8"})
        said = await wrong.stdout.read()
        await wrong.wait_closed()
        assert "fivetowers: các lệnh duy nhất là: join CODE, export GAME" in said


async def test_a_switched_language_is_found_again_at_the_next_login(
        start_server: StartServer, tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    lobby = _lobby(tmp_path / "data")
    server = await start_server(lobby_factory(lobby))
    async with await connect(server, key, username="an") as conn:
        screen = await Screen.open(conn, 80, 24)  # no locale sent: English
        await screen.wait_for(ENGLISH_LOBBY)
        await screen.wait_for("t Tiếng Việt")  # the key names the language it switches to
        screen.press(b"t")
        await screen.wait_for(VIETNAMESE_LOBBY)
        await screen.wait_for("t English")
        screen.press(b"q")
        await screen.wait_closed()
    async with await connect(server, key, username="an") as conn:
        screen = await Screen.open(conn, 80, 24, env={"LANG": "en_US.UTF-8"})
        await screen.wait_for(VIETNAMESE_LOBBY)  # the choice beats the locale
        screen.press(b"t")
        await screen.wait_for(ENGLISH_LOBBY)
        screen.press(b"q")
        await screen.wait_closed()
    async with await connect(server, key, username="an") as conn:
        screen = await Screen.open(conn, 80, 24, env={"LANG": "vi_VN.UTF-8"})
        await screen.wait_for(ENGLISH_LOBBY)
        screen.press(b"q")
        await screen.wait_closed()
    async with await connect(server, username="an") as conn:  # another key: its locale
        screen = await Screen.open(conn, 80, 24, env={"LANG": "vi_VN.UTF-8"})
        await screen.wait_for(VIETNAMESE_LOBBY)
        screen.press(b"q")
        await screen.wait_closed()
    await lobby.close()


def _snapshot_lobby() -> Lobby:
    lobby = _lobby()
    lobby.tables["BAN01"] = HostedTable("BAN01", "Tháp của An", FIVE_TOWERS,
                                        {"variant": "base"}, False,
                                        [Seat("An", identity="SHA256:an"), Seat(""), Seat("")])
    lobby.tables["BAN02"] = HostedTable("BAN02", "great powers", FIVE_TOWERS,
                                        {"variant": "great-powers"}, False,
                                        [Seat("Bình", identity="SHA256:binh"), Seat("")])
    return lobby


class SnapshotLobbyApp(LobbyApp):
    """The lobby app, handing its result back as snap_compare expects
    (HostedApp.run_async returns nothing)."""

    async def run_async(self, *args: Any, **kwargs: Any) -> Any:
        await super().run_async(*args, **kwargs)
        return self.return_value


def test_vietnamese_lobby_snapshot_fits_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    visitor = Visitor(identity="SHA256:an", name="An", address="127.0.0.1", join_code=None,
                      term="xterm-256color", colorterm="truecolor", speech=Speech("vi"))
    app = SnapshotLobbyApp(_snapshot_lobby(), visitor)
    assert snap_compare(app, terminal_size=(80, 24))


@pytest.mark.parametrize("language", ["en", "vi"])
async def test_the_lobby_key_line_fits_80_columns(language: str) -> None:
    visitor = Visitor(identity="SHA256:an", name="An", address="127.0.0.1", join_code=None,
                      term="xterm-256color", colorterm="truecolor", speech=Speech(language))
    app = LobbyApp(_snapshot_lobby(), visitor)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        from fivetowers.ui.key_bar import KeyBar
        line = app.screen.query_one(KeyBar).line
        assert line.cell_len <= 80, line.plain
        assert ("q thoát" if language == "vi" else "q leave") in line.plain


async def test_the_screens_a_vietnamese_lobby_opens_speak_vietnamese() -> None:
    from textual.widgets import Static

    from fivetowers.lobby.my_games_screen import MyGamesScreen
    from fivetowers.ui.key_footer import KeyFooter

    visitor = Visitor(identity="SHA256:an", name="An", address="127.0.0.1", join_code=None,
                      term="xterm-256color", colorterm="truecolor", speech=Speech("vi"))
    app = LobbyApp(_snapshot_lobby(), visitor)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MyGamesScreen)
        keys = [getattr(key, "description", "") for key in screen.query_one(KeyFooter).children]
        assert "về sảnh" in keys and "xem lại" in keys  # the footer's keys, translated
        note = screen.query_one("#history-note", Static).render()
        assert str(note) == "Máy chủ này không lưu ván nào."
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("t")  # back to English, at once for the whole session
        await pilot.pause()
        assert app.language == "en" and visitor.speech.language == "en"
        await pilot.press("g")
        await pilot.pause()
        await pilot.pause()
        assert str(app.screen.query_one("#history-note", Static).render()) == (
            "This server keeps no games.")
