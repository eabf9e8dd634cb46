"""The replay screen at 80x24: its key line, and a long last step shown whole."""

from __future__ import annotations

from pathlib import Path

from textual.geometry import Region
from textual.widgets import Static

from fivetowers.games.five_towers.rules import Variant
from fivetowers.games.five_towers.tui.screens.replay import ReplayScreen
from fivetowers.lobby.archive import Archive, KeptGame
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import StoredSeat

from tests.server.history_helpers import ANN, ScreenHost, keep, play, settle

NAMES = ["ann", "Hedda (bot)", "Peter (bot)", "Anni (bot)", "Jonas (bot)"]


async def kept_game(path: Path, seed: int) -> KeptGame:
    """Five players, Great Powers: with seed 10 the last step is a long build
    (eight lines at 80 columns) and Jonas (bot) wins."""
    seats = [StoredSeat("ann", fingerprint=ANN)] + [StoredSeat(n, bot="random")
                                                    for n in NAMES[1:]]
    with SqliteStore(path / "s.sqlite3", durable=False) as store:
        table_id = keep(store, "EEEEE", seats, play(NAMES, Variant.GREAT_POWERS, seed=seed))
        return await Archive(store).game(table_id, ANN)


def replay_app(kept: KeptGame) -> ScreenHost:
    return ScreenHost(lambda: kept.kind.screens().replay_screen(
        kept.replay, kept.info.id, kept.names, kept.seat))


async def test_the_last_steps_box_shows_the_winners_name(tmp_path: Path) -> None:
    kept = await kept_game(tmp_path, seed=10)
    app = replay_app(kept)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("end")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.position == screen.last
        box = screen.query_one("#replay-step", Static)
        region = Region(0, 0, *box.outer_size)
        inside = [strip.text.strip().strip("│").strip() for strip in box.render_lines(region)]
        shown = " ".join(inside[1:-1])  # between the borders
        assert "the game is over; winner: Jonas (bot)" in shown, shown


async def test_the_key_line_names_home_and_end_once(tmp_path: Path) -> None:
    kept = await kept_game(tmp_path, seed=1)
    app = replay_app(kept)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = [(app.get_key_display(b.binding), b.binding.description)
                 for b in app.screen.active_bindings.values() if b.binding.show]
        assert ("Home/End", "start/end") in shown
        assert all(description != "end" for _, description in shown), shown
        await pilot.press("end")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.position == screen.last
        await pilot.press("home")
        await settle(pilot)
        assert screen.position == 0
