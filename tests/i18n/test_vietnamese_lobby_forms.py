"""The lobby's forms and table lists in Vietnamese: the new-table form fits
80×24, table statuses and the lobby's refusals read in the viewer's language."""

from __future__ import annotations

import contextvars
import random
from typing import Any

import pytest

from fivetowers.i18n import Speech, speak
from fivetowers.lobby.model import Lobby, LobbyError
from fivetowers.lobby.new_table_screen import NewTableScreen

from tests.server.history_helpers import settle
from tests.server.test_gotown_lobby import FormHost, short_gotown_form


class VietnameseFormHost(FormHost):
    """The form as a Vietnamese session shows it."""

    def on_load(self) -> None:
        speak(Speech("vi"))


def test_the_vietnamese_new_table_form_snapshot(snap_compare: Any) -> None:
    assert snap_compare(VietnameseFormHost(lambda: NewTableScreen()), terminal_size=(80, 24),
                        run_before=short_gotown_form("phố ngắn"))


async def test_the_form_refuses_in_vietnamese() -> None:
    app = VietnameseFormHost(lambda: NewTableScreen())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        screen.query_one("#players").focus()
        await pilot.press("backspace", "2", "tab", "backspace", "2", "enter")
        await settle(pilot)
        error = str(screen.query_one("#form-error").render())
        assert "ít bot hơn số ghế" in error and "fewer" not in error


@pytest.mark.parametrize(("language", "waiting", "one", "refused"), [
    ("en", "waiting for 2 players", "waiting for 1 player", "one seat is yours"),
    ("vi", "chờ 2 người chơi", "chờ 1 người chơi", "một ghế là của bạn"),
])
def test_statuses_and_refusals_read_in_the_viewers_language(
        language: str, waiting: str, one: str, refused: str) -> None:
    def play() -> None:
        speak(Speech(language))  # in a copy of the context: later tests keep theirs
        lobby = Lobby(rng=random.Random(1))
        hosted = lobby.create("SHA256:bo", "bo", title="t", players=3, bots=0, private=False)
        assert hosted.status() == waiting
        lobby.sit(hosted, "SHA256:cy", "cy")
        assert hosted.status() == one
        with pytest.raises(LobbyError, match=refused):
            lobby.create("SHA256:di", "di", title="u", players=2, bots=2, private=False)

    contextvars.copy_context().run(play)
