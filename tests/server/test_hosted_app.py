"""Apps served over SSH give strangers no way to act on the host."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandPalette

from fivetowers.server.hosted import HostedApp
from fivetowers.lobby.model import Lobby
from fivetowers.lobby.app import LobbyApp
from fivetowers.server.placeholder import PlaceholderLobbyApp
from fivetowers.server.session import Visitor


def test_every_served_app_is_hosted() -> None:
    assert issubclass(LobbyApp, HostedApp) and issubclass(PlaceholderLobbyApp, HostedApp)


async def test_no_command_palette_and_no_screenshots(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DOWNLOAD_DIR", str(tmp_path / "Downloads"))
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=60, hints=False)
    visitor = Visitor(identity="SHA256:test", name="mallory", address="127.0.0.1",
                      join_code=None, term="xterm-256color", colorterm="truecolor")
    app = LobbyApp(lobby, visitor)
    async with app.run_test(size=(100, 30)) as pilot:
        screens = len(app.screen_stack)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert len(app.screen_stack) == screens
        assert not isinstance(app.screen, CommandPalette)
        assert list(app.get_system_commands(app.screen)) == []
        app.action_screenshot()
        await pilot.pause()
    assert list(tmp_path.rglob("*.svg")) == []
