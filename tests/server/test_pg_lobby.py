"""One lobby over two servers sharing a PostgreSQL store (issue 15), over real
SSH: a table opened on server A is listed on server B; a player takes their
seat back through B and plays it there against a player on A; a spectator
on each server watches; chat crosses; every move reaches the other server's
screens; the game ends on all of them; who is here crosses too."""

from __future__ import annotations

import asyncio
import random
import time
from typing import AsyncIterator, Callable

import asyncssh
import pytest

from fivetowers.lobby import crossing
from fivetowers.lobby.app import lobby_factory
from fivetowers.lobby.model import HostedTable, Lobby
from fivetowers.lobby.serve_command import share_tables
from fivetowers.tables.pg_store import PgStore
from fivetowers.tables.remote import RemoteTable
from fivetowers.tables.store import open_store

from tests.server.server_helpers import Screen, StartServer, connect
from tests.server.test_lobby_game import _act


async def until(check: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"never happened: {what}"
        await asyncio.sleep(0.02)


async def open_duel(ann: Screen, lobby: Lobby) -> str:
    """ann opens a table of 3 seats, one a bot, in her lobby; its code."""
    await ann.wait_for("lobby — you are ann")
    ann.press(b"n")
    await ann.wait_for("New table")
    ann.press(b"Duel\r")
    await ann.wait_for("Waiting for 1 player")
    (code,) = lobby.tables
    return code


async def shared_lobby(url: str, seed: int) -> Lobby:
    """A server's lobby on the shared store at ``url``, with its own store
    connection and bus, as a process of its own would have them."""
    store = open_store(url=url, shared=True)
    assert isinstance(store, PgStore)
    # absence_bot_after long: the tests move players between servers and
    # must not race a stand-in bot for their seats.
    lobby = Lobby(store=store, bot_kind="greedy", bot_delay=0.0, absence_bot_after=60.0,
                  hints=False, rng=random.Random(seed))
    await share_tables(lobby)
    return lobby


@pytest.fixture
async def lobbies(postgres_url: str) -> AsyncIterator[tuple[Lobby, Lobby]]:
    """Server A's lobby and server B's, each with its own store connection and
    bus, as two processes would have them."""
    made = [await shared_lobby(postgres_url, seed) for seed in (1, 2)]
    yield made[0], made[1]
    for lobby in made:
        await lobby.close()


async def test_players_on_two_servers_play_one_table_with_a_spectator_on_each(
        start_server: StartServer, lobbies: tuple[Lobby, Lobby]) -> None:
    lobby_a, lobby_b = lobbies
    server_a = await start_server(lobby_factory(lobby_a))
    server_b = await start_server(lobby_factory(lobby_b))
    bob_key = asyncssh.generate_private_key("ssh-ed25519")

    ann_conn = await connect(server_a, username="ann")
    ann = await Screen.open(ann_conn, 100, 30)
    code = await open_duel(ann, lobby_a)
    bob_conn = await connect(server_a, bob_key, username="bob")
    bob = await Screen.open(bob_conn, 100, 30, command=f"join {code}")
    await bob.wait_for("bob — your towers")
    await ann.wait_for("ann — your towers")
    hosted_a = lobby_a.find(code)
    assert hosted_a is not None and hosted_a.table is not None

    # B lists A's table (its game started: it is in the store). B may list it
    # forming first, and that listing gives way to the started one.
    await until(lambda: getattr(lobby_b.find(code), "table", None) is not None,
                "B lists A's table")
    hosted_b = lobby_b.find(code)
    assert hosted_b is not None and hosted_b.remote

    # bob leaves A: away on A's table, and on B's list.
    bob_conn.close()
    await bob.wait_closed()
    await until(lambda: not hosted_a.seats[1].connected, "A marks bob away")
    await until(lambda: hosted_b.status().endswith("1 away"), "B shows bob away")

    # bob comes back through B: his seat, where he left it.
    bob_conn = await connect(server_b, bob_key, username="bob")
    bob = await Screen.open(bob_conn, 100, 30)
    await bob.wait_for("bob — your towers")
    await until(lambda: hosted_a.seats[1].connected, "A counts bob, at B, as here")
    await until(lambda: "away" not in hosted_b.status(), "B no longer shows bob away")
    await until(lambda: hosted_a.table.game.action_count()  # type: ignore[union-attr]
                == hosted_b.table.game.action_count(), "B has every move")  # type: ignore[union-attr]

    async with await connect(server_a, username="cy") as cy_conn, \
            await connect(server_b, username="dee") as dee_conn:
        # A spectator on each server, from the lobby's list.
        cy = await Screen.open(cy_conn, 100, 30)
        dee = await Screen.open(dee_conn, 100, 30)
        for spectator in (cy, dee):
            await spectator.wait_for(code)
            spectator.press(b"w")
            await spectator.wait_for("Hedda (bot)")
            assert "your towers" not in spectator.text
        await until(lambda: hosted_a.watchers == 2, "A counts both spectators")

        # Chat crosses, both ways, to everyone at the table.
        bob.press(b"c")
        await bob.wait_for("Say to the table")
        bob.press(b"hello from b\r")
        for screen in (ann, bob, cy, dee):
            await screen.wait_for("bob: hello from b")
        ann.press(b"c")
        await ann.wait_for("Say to the table")
        ann.press(b"hi bob\r")
        for screen in (ann, bob, cy, dee):
            await screen.wait_for("ann: hi bob")
        assert bob.text.count("bob: hello from b") == 1  # not echoed twice

        # Play to the end: ann on A, bob on B, Hedda (A's bot). A generous
        # wait: a whole game of screens over SSH is slow on a loaded machine.
        deadline = time.monotonic() + 300
        while not all("The game is over" in s.text for s in (ann, bob, cy, dee)):
            assert time.monotonic() < deadline, f"game did not end:\n{bob.text}"
            if not (await _act(ann) or await _act(bob)):
                await asyncio.sleep(0.02)
        _same_game(hosted_a, hosted_b)
        assert any(a.get("seat", 1) == 1 for a in _actions(hosted_a))  # bob played
        for screen in (ann, bob, cy, dee):
            assert "Winner" in screen.text or "Shared victory" in screen.text

        # The game is kept finished, once, with every move.
        store = lobby_b.store
        assert isinstance(store, PgStore) and hosted_a.table_id is not None
        await until(lambda: store.load_table(hosted_a.table_id).info.finished is not None,  # type: ignore[arg-type]
                    "the game is kept finished")
        for screen in (ann, bob, cy, dee):
            screen.press(b"q")
            await screen.wait_for("lobby — you are")
        # Over, and nobody at B looks at it any more: it leaves B's list.
        await until(lambda: lobby_b.find(code) is None, "B drops the finished table")
    bob_conn.close()
    ann_conn.close()


class _Session:
    """A session (an App in the server) as the lobby counts it."""


def _actions(hosted: HostedTable) -> list[dict[str, object]]:
    assert hosted.table is not None
    return list(hosted.table.record()["actions"])


def _same_game(a: HostedTable, b: HostedTable) -> None:
    assert _actions(a) == _actions(b)


async def test_a_player_at_another_server_sits_down_at_a_forming_table(
        start_server: StartServer, lobbies: tuple[Lobby, Lobby]) -> None:
    lobby_a, lobby_b = lobbies
    server_a = await start_server(lobby_factory(lobby_a))
    server_b = await start_server(lobby_factory(lobby_b))
    async with await connect(server_a, username="ann") as ann_conn, \
            await connect(server_b, username="bob") as bob_conn, \
            await connect(server_b, username="eve") as eve_conn:
        ann = await Screen.open(ann_conn, 100, 30)
        bob = await Screen.open(bob_conn, 100, 30)
        await bob.wait_for("lobby — you are bob")
        code = await open_duel(ann, lobby_a)
        # Forming on A, in no store yet: listed on B, with its free seat.
        await bob.wait_for(code)
        assert "waiting for 1 player" in bob.screen.display[bob.row_of(code)]
        # A seat B's server only believes it took is the forming server's to give.
        eve = await Screen.open(eve_conn, 100, 30)
        await eve.wait_for(code)
        bob.press(b"\r")  # sit
        await bob.wait_for("bob — your towers")
        await ann.wait_for("ann — your towers")
        hosted_a, hosted_b = lobby_a.find(code), lobby_b.find(code)
        assert hosted_a is not None and hosted_a.table is not None
        assert hosted_b is not None and hosted_b.remote and hosted_b.table is not None
        assert [s.name for s in hosted_a.seats] == [s.name for s in hosted_b.seats] \
            == ["ann", "bob", "Hedda (bot)"]
        # The table has started: no free seat left for eve, at either server.
        eve.press(b"\r")
        await eve.wait_for("has no free seat")
        # Moves cross: each player's turn comes on the other's move.
        while hosted_a.table.game.action_count() < 6 and not hosted_a.over:
            if not (await _act(ann) or await _act(bob)):
                await asyncio.sleep(0.02)
        await until(lambda: hosted_b.table.game.action_count()  # type: ignore[union-attr]
                    == hosted_a.table.game.action_count(), "B has every move")  # type: ignore[union-attr]
        assert {a.get("seat") for a in _actions(hosted_a)} >= {0, 1}


async def test_a_table_taken_over_keeps_the_players_already_at_it_through_the_survivor(
        postgres_url: str) -> None:
    """Server A dies (its store connection closes: its leases come free); B,
    where bob plays A's table, takes it over: bob stays seated and here (no
    stand-in for him), and his move through the view he has is kept and
    played by B's own table."""
    lobby_a = await shared_lobby(postgres_url, 3)
    lobby_b = await shared_lobby(postgres_url, 4)
    closed_a = False
    try:
        hosted_a = lobby_a.create("SHA256:ann", "ann", title="t", players=2, bots=0, private=False)
        lobby_a.sit(hosted_a, "SHA256:bob", "bob")
        await until(lambda: hosted_a.table_id is not None, "A keeps the table")
        await until(lambda: getattr(lobby_b.find(hosted_a.code), "table", None) is not None,
                    "B lists it, started")
        hosted_b = lobby_b.find(hosted_a.code)
        assert hosted_b is not None and hosted_b.remote and hosted_b.table is not None
        view = hosted_b.table
        assert isinstance(view, RemoteTable)
        # Nobody at B is at the table: a move on A is only noted there...
        table_a = hosted_a.table
        assert table_a is not None and table_a.game.to_move == 0
        await table_a.submit(0, table_a.kind.make_bot("random").choose(
            table_a.game.view(0), random.Random(1)))
        await until(lambda: view.behind, "B hears of ann's move")
        assert view.game.action_count() == 0
        session = _Session()
        assert lobby_b.sit(hosted_b, "SHA256:bob", "bob", session=session) == 1
        # ... and read once someone comes.
        await until(lambda: view.game.action_count() == 1 and not view.behind,
                    "B reads the move when bob sits down")

        await lobby_a.close()  # as good as dead: its leases go with its connection
        closed_a = True
        # What serve's look for orphans does, again until PostgreSQL has
        # ended A's session (its locks go then, a moment after the close).
        deadline = time.monotonic() + 10
        while not (report := lobby_b.restore()).live:
            assert time.monotonic() < deadline, "A's lease never came free"
            await asyncio.sleep(0.05)
        assert [r.info.id for r in report.live] == [hosted_a.table_id]
        assert lobby_b.find(hosted_a.code) is hosted_b and not hosted_b.remote
        assert hosted_b.table is not view  # driven here now
        assert hosted_b.seats[1].connected and 1 not in hosted_b.awaiting_stand_in
        assert not hosted_b.seats[0].connected and 0 in hosted_b.awaiting_stand_in

        # bob moves through the view he has; B's own table plays it.
        table = hosted_b.table
        assert table is not None and table.game.action_count() == 1
        assert view.game.to_move == 1
        await view.submit(1, view.kind.make_bot("random").choose(view.game.view(1),
                                                                 random.Random(2)))
        await until(lambda: table.game.action_count() == 2, "B's table plays bob's move")
    finally:
        await lobby_b.close()
        if not closed_a:
            await lobby_a.close()


async def test_the_players_of_a_server_gone_silent_are_away_from_the_tables_it_showed(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Server B dies: its word that it is there stops, and A, which counted
    bob (at B) as here at its table, counts him away (his stand-in comes)
    and B's watcher gone."""
    monkeypatch.setattr(crossing, "ALIVE_EVERY", 0.05)
    monkeypatch.setattr(crossing, "GONE_AFTER", 0.5)
    lobby_a = await shared_lobby(postgres_url, 5)
    lobby_b = await shared_lobby(postgres_url, 6)
    closed_b = False
    try:
        hosted_a = lobby_a.create("SHA256:ann", "ann", title="t", players=2, bots=0,
                                  private=False)
        lobby_a.sit(hosted_a, "SHA256:bob", "bob")
        lobby_a.away(hosted_a, "SHA256:bob")  # bob goes to B
        await until(lambda: getattr(lobby_b.find(hosted_a.code), "table", None) is not None,
                    "B lists it, started")
        hosted_b = lobby_b.find(hosted_a.code)
        assert hosted_b is not None
        session = _Session()
        lobby_b.sit(hosted_b, "SHA256:bob", "bob", session=session)
        lobby_b.watch(hosted_b)
        await until(lambda: hosted_a.seats[1].connected and hosted_a.watchers == 1,
                    "A counts bob and the watcher at B")
        await asyncio.sleep(1.0)  # B alive past GONE_AFTER: nothing changes
        assert hosted_a.seats[1].connected and hosted_a.watchers == 1
        await lobby_b.close()  # B silent from now on, its sessions never said goodbye
        closed_b = True
        await until(lambda: not hosted_a.seats[1].connected and hosted_a.watchers == 0,
                    "A counts B's players gone")
        assert 1 in hosted_a.awaiting_stand_in
    finally:
        await lobby_a.close()
        if not closed_b:
            await lobby_b.close()
