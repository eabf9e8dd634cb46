"""Keys are free, so tables must not cost the host for long: a table nobody is
at pauses its bots, then closes (its game kept as abandoned); tables are
limited per address and in all."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Callable

import asyncssh
import pytest
from textual.widgets import Static

from fivetowers.lobby.model import HostedTable, Lobby, LobbyError
from fivetowers.lobby.limits import LobbyLimits, address_group
from fivetowers.lobby.app import LobbyApp, lobby_factory
from fivetowers.lobby.my_games_screen import result_text
from fivetowers.lobby.new_table_screen import NewTableScreen
from fivetowers.server.session import Visitor
from fivetowers.tables.store import open_store

from tests.server.server_helpers import Screen, StartServer, connect


class Clock:
    """The lobby's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Terminal:  # stands for a session's App
    pass


BY_HAND = LobbyLimits(pause_after=120.0, close_after=3600.0, check_every=1e6)
"""Unattended tables are checked only when a test says so."""


async def until(condition: Callable[[], bool], what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds  # a loaded machine's loop may be slow
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never {what}")
        await asyncio.sleep(0.005)


def _solo(lobby: Lobby, identity: str = "key:ann", bots: int = 2,
          address: str | None = None) -> HostedTable:
    return lobby.create(identity, "ann", title="solo", players=bots + 1, bots=bots,
                        options={"variant": "base"}, private=False, address=address)


async def test_a_table_nobody_is_at_pauses_its_bots_until_someone_comes() -> None:
    clock = Clock()
    lobby = Lobby(bot_kind="random", bot_delay=0.01, absence_bot_after=0.0, hints=False,
                  rng=random.Random(4), limits=BY_HAND, clock=clock)
    hosted = _solo(lobby)  # its one human seat is taken: it starts at once
    table = hosted.table
    assert table is not None
    try:
        lobby.away(hosted, "key:ann")
        assert hosted.unattended_since == clock.now
        await until(lambda: table.is_bot(0), "a stand-in took the seat")
        clock.now += 119
        lobby.check_unattended()
        assert not hosted.paused and table.is_bot(0)
        clock.now += 1
        lobby.check_unattended()
        assert hosted.paused and "paused" in hosted.status()
        # The bots play on to ann's turn and stop there: nothing thinks any more.
        await table.wait_idle()
        assert not hosted.over and table.game.to_move == 0 and not table.is_bot(0)
        version = table.version

        lobby.watch(hosted)  # someone comes: the stand-in is back, the game goes on
        assert not hosted.paused and hosted.unattended_since is None and table.is_bot(0)
        await until(lambda: table.version > version, "the game went on")
        clock.now += 10_000
        lobby.check_unattended()  # a watcher is somebody
        assert lobby.find(hosted.code) is hosted and not hosted.paused

        lobby.unwatch(hosted)
        assert hosted.unattended_since == clock.now
        clock.now += 120
        lobby.check_unattended()
        assert hosted.paused
        lobby.sit(hosted, "key:ann", "ann", session=Terminal())  # ann herself is back
        assert not hosted.paused and not table.is_bot(0)
    finally:
        await lobby.close()


async def test_a_table_nobody_comes_back_to_is_closed_and_kept_as_abandoned(
        tmp_path: Path) -> None:
    clock = Clock()
    store = open_store(tmp_path)
    lobby = Lobby(bot_kind="random", bot_delay=60.0, absence_bot_after=60.0, hints=False,
                  rng=random.Random(5), limits=BY_HAND, clock=clock, store=store)
    hosted = _solo(lobby, "SHA256:ann", bots=1)
    assert hosted.kept is not None
    table_id = await hosted.kept
    lobby.away(hosted, "SHA256:ann")
    clock.now += 3599
    lobby.check_unattended()
    assert lobby.find(hosted.code) is hosted and hosted.paused
    clock.now += 1
    lobby.check_unattended()
    assert lobby.find(hosted.code) is None and lobby.resumable("SHA256:ann") is None
    assert not hosted.awaiting_stand_in

    await lobby.close()  # waits for the mark, then closes the store

    store = open_store(tmp_path)
    (info,) = store.games_of("SHA256:ann")
    assert info.id == table_id and info.finished is not None
    assert info.scores is None and info.winners is None
    assert result_text(info, 0).plain == "abandoned"
    assert store.leaderboard() == []  # not rated
    store.close()
    again = Lobby(bot_kind="random", store=open_store(tmp_path))
    assert again.restore().live == []  # a restart does not serve it again
    await again.close()


def test_addresses_group_ipv6_by_64() -> None:
    assert address_group("203.0.113.5") == "203.0.113.5"
    assert address_group("2001:db8::1") == address_group("2001:db8::ffff:1") \
        == "2001:db8::/64"
    assert address_group("2001:db8:0:1::1") != address_group("2001:db8::1")
    assert address_group("::ffff:203.0.113.5") == "203.0.113.5"
    assert address_group("not an address") == "not an address"


async def test_tables_are_limited_per_address_whatever_the_keys() -> None:
    lobby = Lobby(bot_kind="random", bot_delay=60.0, hints=False,
                  limits=LobbyLimits(tables_per_address=2))
    try:
        first = _solo(lobby, "key:1", address="2001:db8::1")
        _solo(lobby, "key:2", address="2001:db8::2")
        with pytest.raises(LobbyError, match="from your address"):
            _solo(lobby, "key:3", address="2001:db8::3")  # a fresh key, the same /64
        assert lobby.refusal("key:4", "2001:db8::4") is not None
        _solo(lobby, "key:3", address="2001:db8:1::3")  # another network
        lobby.away(first, "key:1")
        clock_now = lobby._clock()
        lobby.check_unattended(clock_now + lobby.limits.close_after)  # closed: room again
        _solo(lobby, "key:4", address="2001:db8::4")
    finally:
        await lobby.close()


async def test_the_server_serves_a_bounded_number_of_tables(tmp_path: Path) -> None:
    lobby = Lobby(bot_kind="random", bot_delay=60.0, hints=False,
                  limits=LobbyLimits(max_tables=2))
    try:
        _solo(lobby, "key:1")
        lobby.create("key:2", "bob", title="open", players=2, bots=0,
                     options={"variant": "base"}, private=False)  # forming tables count too
        with pytest.raises(LobbyError, match="server is full"):
            _solo(lobby, "key:3")
        # The new-table form says so at once, and Enter opens nothing.
        visitor = Visitor(identity="key:3", name="cy", address="127.0.0.1",
                          join_code=None, term="xterm-256color", colorterm="truecolor")
        app = LobbyApp(lobby, visitor)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, NewTableScreen)
            message = str(app.screen.query_one("#form-error", Static).content)
            assert "No new table: the server is full (2 tables, its most)" in message
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, NewTableScreen) and len(lobby.tables) == 2
    finally:
        await lobby.close()


async def test_through_a_session_an_abandoned_solo_table_closes(
        start_server: StartServer, tmp_path: Path) -> None:
    """A player opens a table against a bot and leaves: it pauses, then closes;
    the same key coming back finds the lobby, and the game in "my games"."""
    # A check that comes after close_after closes without pausing: a window
    # of ~2 s, so a loaded machine's late check still sees the pause.
    limits = LobbyLimits(pause_after=0.1, close_after=2.0, check_every=0.05)
    store = open_store(tmp_path / "games")
    lobby = Lobby(bot_kind="random", bot_delay=0.5, absence_bot_after=0.05, hints=False,
                  store=store, limits=limits)
    server = await start_server(lobby_factory(lobby))
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        async with await connect(server, key, username="solo") as conn:
            screen = await Screen.open(conn, 100, 30)
            await screen.wait_for("you are solo")
            screen.press(b"n")
            await screen.wait_for("New table")
            for press in (b"\t", b"\x7f", b"2", b"\r"):  # 2 seats, 1 bot
                screen.press(press)
                await asyncio.sleep(0.15)
            await screen.wait_for("your towers")
        (hosted,) = lobby.tables.values()
        await until(lambda: hosted.paused, "paused")
        await until(lambda: not lobby.tables, "closed")
        async with await connect(server, key, username="solo") as conn:
            screen = await Screen.open(conn, 100, 30)
            await screen.wait_for("lobby — you are solo")  # not sent back to the table
            await screen.wait_for("No tables yet")
            screen.press(b"g")
            await screen.wait_for("abandoned")
    finally:
        await lobby.close()


async def test_games_served_again_at_start_are_unattended_until_someone_comes(
        tmp_path: Path) -> None:
    lobby = Lobby(bot_kind="random", bot_delay=60.0, hints=False, store=open_store(tmp_path))
    hosted = _solo(lobby, "SHA256:ann", bots=1)
    assert hosted.kept is not None
    await hosted.kept
    await lobby.close()

    clock = Clock()
    again = Lobby(bot_kind="random", bot_delay=60.0, hints=False, limits=BY_HAND,
                  clock=clock, store=open_store(tmp_path))
    assert len(again.restore().live) == 1
    (back,) = again.tables.values()
    assert back.unattended_since == clock.now
    clock.now += BY_HAND.close_after
    again.check_unattended()
    assert not again.tables
    await again.close()
    last = Lobby(store=open_store(tmp_path))
    assert last.restore().live == []  # kept as abandoned
    await last.close()
