"""A rematch is shown in the table screen of the game before (Pilot): no new
table screen is composed for it, and it looks and plays as a new one would."""

from __future__ import annotations

import random
import traceback
from typing import Any, AsyncIterator, Callable

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from fivetowers.games.five_towers.kind import GAME as FIVE_TOWERS
from fivetowers.games.five_towers.rules import Phase, Variant
from fivetowers.games.five_towers.tui.screens.end import EndScreen
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.lobby.app import LobbyApp
from fivetowers.lobby.lobby_screen import LobbyScreen
from fivetowers.lobby.model import HostedTable, Lobby
from fivetowers.lobby.waiting_screen import WaitingScreen
from fivetowers.server.session import Visitor
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table
from fivetowers.ui.live_table import LiveTableScreen

from tests.server.history_helpers import play, settle
from tests.tui import helpers


def visitor(name: str) -> Visitor:
    return Visitor(identity=f"SHA256:{name}", name=name, address="127.0.0.1",
                   join_code="OVER1", term="xterm-256color", colorterm="truecolor")


@pytest.fixture
async def lobby() -> AsyncIterator[Lobby]:
    # Slow bots: the new game stands still while a test looks at it.
    lobby = Lobby(bot_kind="random", bot_delay=60.0, absence_bot_after=60.0, hints=False,
                  rng=random.Random(5))
    yield lobby
    await lobby.close()


def finished(lobby: Lobby) -> HostedTable:
    """ann, bo and a bot have played a game to its end at table OVER1."""
    seats = [Seat("ann", identity="SHA256:ann"), Seat("bo", identity="SHA256:bo"),
             Seat("Peter (bot)", bot="random")]
    hosted = HostedTable("OVER1", "friends", FIVE_TOWERS, {"variant": "base"}, False, seats)
    hosted.table = Table(play([s.name for s in seats], Variant.BASE, seed=1), seats)
    assert hosted.over
    lobby.tables[hosted.code] = hosted
    return hosted


async def until(pilot: Pilot[None], test: Callable[[], bool], what: str) -> None:
    try:
        await helpers.until(pilot, test)
    except AssertionError:
        raise AssertionError(f"never: {what}") from None


async def test_the_rematch_is_shown_in_the_table_screen_of_the_game_before(
        lobby: Lobby, monkeypatch: pytest.MonkeyPatch) -> None:
    old = finished(lobby)
    ann, bo = LobbyApp(lobby, visitor("ann")), LobbyApp(lobby, visitor("bo"))
    composed: list[str] = []
    original = Screen._compose

    async def counted(self: Screen[object]) -> None:
        composed.append(type(self).__name__)
        await original(self)

    stacks: list[list[str]] = []
    keys_before_reset: list[bool | None] = []
    reset = LiveTableScreen.next_game

    async def next_game(self: LiveTableScreen[Any], *args: Any) -> None:
        stacks.append([type(s).__name__ for s in self.app.screen_stack[1:]])
        # the game before's keys (`e`: its results) must not act meanwhile
        keys_before_reset.append(self.check_action("results", ()))
        await reset(self, *args)

    async with ann.run_test(size=(100, 30)) as pilot_a, bo.run_test(size=(100, 30)) as pilot_b:
        for pilot, app in ((pilot_a, ann), (pilot_b, bo)):
            await until(pilot, lambda app=app: isinstance(app.screen, EndScreen), "the end")
        tables = [app.screen_stack[1] for app in (ann, bo)]
        assert all(isinstance(t, TableScreen) for t in tables)
        monkeypatch.setattr(Screen, "_compose", counted)  # from here on: the rematch's
        monkeypatch.setattr(LiveTableScreen, "next_game", next_game)
        await pilot_a.press("n")
        await until(pilot_a, lambda: isinstance(ann.screen, WaitingScreen), "ann waits")
        assert ann.screen_stack[1] is tables[0]  # the game's screen, under the wait
        await pilot_b.press("n")
        again = lobby.find("OVER1")
        assert again is not None and again is not old
        for pilot, app, table in ((pilot_a, ann, tables[0]), (pilot_b, bo, tables[1])):
            await until(pilot, lambda app=app, table=table: app.screen is table
                        and table.drawn() and table.client.table is again.table,
                        "the rematch in the same screen")
            await settle(pilot)
        monkeypatch.undo()
        assert composed == ["WaitingScreen"]  # ann's wait: no table screen was composed
        # Reset once shown again, before it draws: the end or the wait over
        # it was not drawn again meanwhile.
        assert stacks == [["TableScreen"], ["TableScreen"]]
        assert keys_before_reset == [False, False]
        for app, table in ((ann, tables[0]), (bo, tables[1])):
            assert app.screen_stack == [app.screen_stack[0], table]
            assert isinstance(table, TableScreen) and not table.ended
            assert table.host.hosted is again  # type: ignore[attr-defined]
            assert table.client.view().phase is Phase.BID
            assert table.client.table.game.action_count() == 0
            assert table.check_action("pass_bid", ()) is not False  # its own keys again


async def test_a_rematch_looks_and_plays_as_in_a_new_table_screen(lobby: Lobby) -> None:
    finished(lobby)
    ann, bo = LobbyApp(lobby, visitor("ann")), LobbyApp(lobby, visitor("bo"))
    async with ann.run_test(size=(100, 30)) as pilot_a, bo.run_test(size=(100, 30)) as pilot_b:
        for pilot, app in ((pilot_a, ann), (pilot_b, bo)):
            await until(pilot, lambda app=app: isinstance(app.screen, EndScreen), "the end")
        screen = ann.screen_stack[1]
        assert isinstance(screen, TableScreen)
        kept: TableScreen = screen
        kept.show_breakdown = True  # the game before's `s`: a new screen starts without it
        await pilot_a.press("n")
        await pilot_b.press("n")
        await until(pilot_a, lambda: ann.screen is kept and kept.client.table.game is not None
                    and kept.client.table.game.action_count() == 0 and kept.drawn(), "rematch")
        await settle(pilot_a)
        kept_look = ann.export_screenshot()
        kept_focus = kept.focused
        kept_keys = sorted(k for k, a in ann.active_bindings.items() if a.enabled)
        # The same player's new screen at the same position: back to the lobby, and back.
        await pilot_a.press("q")
        await until(pilot_a, lambda: isinstance(ann.screen, LobbyScreen), "the lobby")
        ann.call_later(ann.open_table, "OVER1", False)
        await until(pilot_a, lambda: isinstance(ann.screen, TableScreen)
                    and ann.screen is not kept and ann.screen.drawn(), "a new table screen")
        await settle(pilot_a)
        fresh = ann.screen
        assert isinstance(fresh, TableScreen)
        assert fresh.client.table is kept.client.table
        assert ann.export_screenshot() == kept_look
        assert (fresh.focused is None) == (kept_focus is None)
        assert sorted(k for k, a in ann.active_bindings.items() if a.enabled) == kept_keys


async def test_the_end_screen_is_laid_out_once_and_the_table_under_it_not_at_all(
        lobby: Lobby, monkeypatch: pytest.MonkeyPatch) -> None:
    hosted = lobby.create("SHA256:ann", "ann", title="t", players=2, bots=1, private=False)
    lobby.away(hosted, "SHA256:ann")
    app = LobbyApp(lobby, Visitor(identity="SHA256:ann", name="ann", address="127.0.0.1",
                                  join_code=hosted.code, term="xterm-256color",
                                  colorterm="truecolor"))
    layouts: list[str] = []
    resized: list[str] = []
    """Layouts for a Resize (Textual's Screen._screen_resized)."""
    refresh_layout = Screen._refresh_layout

    def counting(screen: Screen[Any], *args: Any, **kwargs: Any) -> None:
        layouts.append(type(screen).__name__)
        if any(frame.name == "_screen_resized" and frame.filename.endswith("textual/screen.py")
               for frame in traceback.extract_stack()):
            resized.append(type(screen).__name__)
        refresh_layout(screen, *args, **kwargs)

    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.screen
        assert isinstance(table, TableScreen)
        monkeypatch.setattr(Screen, "_refresh_layout", counting)
        table.host.show_end()
        await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
        await settle(pilot)
        # Shown and laid out, and not once more for the Resize its first
        # layout sends it (to the size it was just laid out at).
        assert "EndScreen" in layouts and resized == []
        await pilot.resize_terminal(110, 34)
        await settle(pilot)
        assert "TableScreen" not in layouts  # covered: laid out once seen again
        await pilot.press("b")  # back to the table: laid out at the new size
        await until(pilot, lambda: app.screen is table, "the table again")
        await settle(pilot)
        assert "TableScreen" in layouts and table.size.width == 110
