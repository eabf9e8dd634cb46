"""The lobby's history screens in Vietnamese at 80x24: my games, 5 Towers'
replay viewer (GoTown's is in tests/gotown/tui/test_vietnamese_screens.py)
and the leaderboard, with no English phrase left on them."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Callable, Iterator

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from fivetowers.games.five_towers.tui.screens.replay import ReplayScreen
from fivetowers.i18n import Speech, speak
from fivetowers.lobby.archive import Archive
from fivetowers.lobby.leaderboard_screen import LeaderboardScreen
from fivetowers.lobby.my_games_screen import MyGamesScreen
from fivetowers.tables.sqlite_store import SqliteStore
from tests.server.history_helpers import (
    ANN, ScreenHost, kept_store, replay_round_two, settle,
)
from tests.tui.test_vietnamese import screen_text, viewing

ENGLISH = ("game ", "step", "players", "result", "won", "going on", "Bidding", "Building",
           "Log", "rating", "games", "back", "start/end", "scores", "round", "base")
"""Phrases of the English history screens (the names here have none of them)."""


class VietnameseHost(ScreenHost):
    def on_load(self) -> None:
        speak(Speech("vi"))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    kept = kept_store(tmp_path)
    yield kept
    kept.close()


async def vietnamese_only(pilot: Pilot[None], *words: str) -> None:
    text = viewing("vi", lambda: screen_text(pilot.app))  # type: ignore[arg-type]
    assert unicodedata.is_normalized("NFC", text)
    english = [phrase for phrase in ENGLISH if phrase in text]
    assert not english, (english, text)
    for word in words:
        assert word in text, (word, text)


def host(make: Callable[[], Screen[None]]) -> VietnameseHost:
    return VietnameseHost(make)


def test_my_games_in_vietnamese(snap_compare, store: SqliteStore) -> None:  # type: ignore[no-untyped-def]
    app = host(lambda: MyGamesScreen(Archive(store), ANN))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await vietnamese_only(pilot, "ván", "luật cơ bản", "đang chơi")

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_a_five_towers_replay_in_vietnamese(snap_compare, store: SqliteStore) -> None:  # type: ignore[no-untyped-def]
    app = host(lambda: MyGamesScreen(Archive(store), ANN))

    async def run_before(pilot: Pilot[None]) -> None:
        await replay_round_two(pilot)
        assert isinstance(pilot.app.screen, ReplayScreen)
        await vietnamese_only(pilot, "ván 2 · bước", "Bước", "Đấu giá")

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_the_leaderboard_in_vietnamese(snap_compare, store: SqliteStore) -> None:  # type: ignore[no-untyped-def]
    app = host(lambda: LeaderboardScreen(Archive(store), ANN))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await vietnamese_only(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
