"""The lobby registry (no SSH): seats by identity, away and back, chat limits."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from fivetowers.games.five_towers.kind import GAME as FIVE_TOWERS
from fivetowers.lobby.model import CHAT_BURST, CHAT_EVERY, HostedTable, Lobby, LobbyError
from fivetowers.lobby.app import lobby_factory
from fivetowers.tables.agents import make_bot
from fivetowers.tables.seats import Seat

from tests.server.server_helpers import Screen, StartServer, connect


def _lobby() -> Lobby:
    return Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=0.05,
                 rng=random.Random(3))


async def test_create_sit_start_and_names_made_unique() -> None:
    lobby = _lobby()
    hosted = lobby.create("key-a", "ann", title="t", players=3, bots=1,
                          options={"variant": "base"}, private=False)
    assert len(hosted.code) == 5 and hosted.status() == "waiting for 1 player"
    assert hosted.seat_of("key-a") == 0 and not hosted.started
    assert lobby.sit(hosted, "key-b", "ann") == 1  # same name, another key
    assert [s.name for s in hosted.seats] == ["ann", "ann 2", "Hedda (bot)"]
    assert hosted.started and hosted.table is not None
    with pytest.raises(LobbyError, match="no free seat"):
        lobby.sit(hosted, "key-c", "cy")
    assert lobby.sit(hosted, "key-a", "whatever") == 0  # a key keeps its seat
    assert hosted.table is not None
    await hosted.table.close()


async def test_private_tables_are_listed_only_to_their_players() -> None:
    lobby = _lobby()
    secret = lobby.create("key-a", "ann", title="secret", players=2, bots=0,
                          options={"variant": "great-powers"}, private=True)
    public = lobby.create("key-b", "bob", title="open", players=2, bots=0,
                          options={"variant": "base"}, private=False)
    assert lobby.listing("key-a") == [public, secret]
    assert lobby.listing("key-c") == [public]
    assert lobby.find(secret.code.lower()) is secret  # joining by code still works


async def test_leaving_a_forming_table_frees_the_seat_and_empty_tables_close() -> None:
    lobby = _lobby()
    hosted = lobby.create("key-a", "ann", title="t", players=3, bots=0,
                          options={"variant": "base"}, private=False)
    lobby.sit(hosted, "key-b", "bob")
    lobby.away(hosted, "key-b")
    assert hosted.free_seats == [1, 2]
    lobby.away(hosted, "key-a")
    assert lobby.find(hosted.code) is None


async def test_away_player_gets_a_stand_in_bot_until_back() -> None:
    lobby = _lobby()
    hosted = lobby.create("key-a", "ann", title="t", players=2, bots=0,
                          options={"variant": "base"}, private=False)
    lobby.sit(hosted, "key-b", "bob")
    table = hosted.table
    assert table is not None and not table.is_bot(0)
    lobby.away(hosted, "key-a")
    assert hosted.status().endswith("1 away") and not table.is_bot(0)
    await asyncio.sleep(0.15)
    assert table.is_bot(0)  # the stand-in plays while ann is away
    assert lobby.resumable("key-a") is hosted
    lobby.sit(hosted, "key-a", "ann")
    assert not table.is_bot(0) and hosted.seats[0].connected
    await table.close()


def test_chat_is_cleaned_and_rate_limited() -> None:
    hosted = HostedTable("ABCDE", "t", FIVE_TOWERS, {"variant": "base"}, False, [Seat("a"), Seat("b")])
    heard: list[str] = []
    hosted.chat_listeners.append(lambda line: heard.append(f"{line.name}: {line.text}"))
    assert hosted.say("k", "ann", "hi \x1b[31m[b]all[/b]\x07  there", now=100.0) is None
    assert heard == ["ann: hi [b]all[/b] there"]
    assert hosted.say("k", "ann", "   ", now=100.0) == "nothing to send"
    for _ in range(CHAT_BURST - 1):
        assert hosted.say("k", "ann", "more", now=100.0) is None
    assert hosted.say("k", "ann", "too much", now=100.0) is not None
    assert hosted.say("other", "bob", "mine", now=100.0) is None  # per player
    assert hosted.say("k", "ann", "later", now=100.0 + CHAT_EVERY) is None
    assert hosted.say("k", "ann", "x" * 500, now=1000.0) is None
    assert len(hosted.chat[-1].text) == 120


async def test_chat_reaches_players_and_spectators_as_plain_text(
        start_server: StartServer) -> None:
    lobby = _lobby()
    lobby.tables["CHAT1"] = HostedTable("CHAT1", "talk", FIVE_TOWERS, {"variant": "base"}, False,
                                        [Seat("", None), Seat("", None)])
    server = await start_server(lobby_factory(lobby))
    async with await connect(server, username="ann") as a_conn, \
            await connect(server, username="bob") as b_conn, \
            await connect(server, username="cy") as c_conn:
        ann = await Screen.open(a_conn, 90, 28, command="join CHAT1")
        bob = await Screen.open(b_conn, 90, 28, command="join CHAT1")
        await ann.wait_for("ann — your towers")
        await bob.wait_for("bob — your towers")
        cy = await Screen.open(c_conn, 90, 28, command="join CHAT1")  # full: watches
        await cy.wait_for("ann")
        bob.press(b"c")
        await bob.wait_for("Say to the table")
        bob.press(b"good [b]luck[/b]\r")
        for screen in (ann, bob, cy):
            await screen.wait_for("bob: good [b]luck[/b]")
        for screen in (ann, bob, cy):
            screen.press(b"q")  # back to the lobby
            await screen.wait_for("5 Towers lobby")
            screen.press(b"q")
            await screen.wait_closed()


async def test_finished_tables_leave_the_lobby_when_nobody_is_there() -> None:
    lobby = _lobby()
    hosted = lobby.create("key-a", "ann", title="t", players=2, bots=1,
                          options={"variant": "base"}, private=False)
    table = hosted.table
    assert table is not None
    table.stand_in(0, make_bot("random", "fivetowers"))
    for _ in range(400):  # random bots play the whole game quickly
        if hosted.over:
            break
        await asyncio.sleep(0.01)
    assert hosted.over
    lobby.watch(hosted)
    lobby.away(hosted, "key-a")
    assert lobby.find(hosted.code) is hosted  # someone still watches
    lobby.unwatch(hosted)
    assert lobby.find(hosted.code) is None


async def test_games_are_kept_and_served_again_after_a_restart(tmp_path: Path) -> None:
    from fivetowers.games.five_towers.rules import Bid, Pass
    from fivetowers.tables.store import open_store

    store = open_store(tmp_path)
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=60, store=store,
                  rng=random.Random(5))
    hosted = lobby.create("SHA256:aaa", "ann", title="kept", players=2, bots=0,
                          options={"variant": "base"}, private=True)
    lobby.sit(hosted, "SHA256:bbb", "bob")
    table = hosted.table
    assert table is not None
    first = table.game.to_move
    assert first is not None
    await table.submit(first, Bid(first, 1))
    await table.submit(1 - first, Pass(1 - first))
    assert hosted.table_id is not None
    played = [a.to_json() for a in table.game.actions]
    await lobby.close()

    # A new process: the same store, a new lobby.
    store = open_store(tmp_path)
    again = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=60, store=store)
    report = again.restore()
    assert len(report.live) == 1
    back = again.find(hosted.code)
    assert back is not None and back.table is not None and back.private
    assert [a.to_json() for a in back.table.game.actions] == played
    assert back.status().endswith("2 away")
    assert again.resumable("SHA256:bbb") is back
    assert again.sit(back, "SHA256:bbb", "bob") == 1  # the same key, the same seat
    await again.close()


async def test_kept_through_the_writer_and_a_store_failure_refuses_the_move(
        tmp_path: Path) -> None:
    from fivetowers.games.five_towers.rules import Bid
    from fivetowers.tables.store import StoreError, open_store
    from fivetowers.tables.table import ActionNotKept

    store = open_store(tmp_path)
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=60, store=store,
                  rng=random.Random(6))
    hosted = lobby.create("SHA256:aaa", "ann", title="kept", players=2, bots=0,
                          options={"variant": "base"}, private=False)
    lobby.sit(hosted, "SHA256:bbb", "bob")
    assert hosted.kept is not None and hosted.table is not None
    table_id = await hosted.kept  # created on the writer thread, not the loop
    await asyncio.sleep(0)
    assert hosted.table_id == table_id
    table, first = hosted.table, hosted.table.game.to_move
    assert first is not None

    def disk_full(batch: object) -> list[StoreError | None]:
        raise StoreError("disk full")

    kept = store.append_actions
    store.append_actions = disk_full  # type: ignore[method-assign]
    with pytest.raises(ActionNotKept, match="cannot save moves right now"):
        await table.submit(first, Bid(first, 1))
    assert (table.game.actions, table.version) == ([], 0)
    store.append_actions = kept  # type: ignore[method-assign]
    await table.submit(first, Bid(first, 1))  # the disk is back: so is the game
    assert len(store.load_table(table_id).record["actions"]) == 1
    await lobby.close()


async def test_a_table_started_on_a_full_disk_is_kept_once_the_disk_has_room(
        tmp_path: Path) -> None:
    from typing import Any

    from fivetowers.tables.sqlite_store import SqliteStore
    from fivetowers.tables.store import STORE_FILE, StoreUnavailable
    from fivetowers.tables.table import ActionNotKept

    class FullDisk(SqliteStore):
        full = True

        def create_table(self, **kwargs: Any) -> int:
            if self.full:
                raise StoreUnavailable("the store failed: database or disk is full")
            return super().create_table(**kwargs)

    store = FullDisk(tmp_path / STORE_FILE)
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=60, store=store,
                  rng=random.Random(6))
    hosted = lobby.create("SHA256:aaa", "ann", title="full", players=2, bots=0,
                          options={"variant": "base"}, private=False)
    lobby.sit(hosted, "SHA256:bbb", "bob")
    assert hosted.kept is not None and hosted.table is not None
    with pytest.raises(StoreUnavailable):
        await hosted.kept
    table = hosted.table
    move = table.game.legal_actions()[0]
    with pytest.raises(ActionNotKept):
        await table.submit(move.seat, move)  # still full: refused, nothing changes
    assert table.game.actions == [] and hosted.table_id is None
    store.full = False
    await table.submit(move.seat, move)  # room again: the table is kept, then the move
    assert hosted.table_id is not None
    stored = store.load_table(hosted.table_id)
    assert stored.info.code == hosted.code and stored.info.seats[1].name == "bob"
    assert stored.record["actions"] == [move.to_json()] and stored.record["deck"] == \
        table.record()["deck"]
    await lobby.close()


def test_a_line_from_another_server_is_cleaned_before_anyone_sees_it() -> None:
    hosted = HostedTable("PEER1", "t", FIVE_TOWERS, {"variant": "base"}, False,
                         [Seat("a"), Seat("b")])
    heard: list[str] = []
    hosted.chat_listeners.append(lambda line: heard.append(f"{line.name}: {line.text}"))
    hosted.announce("m\x1b]0;pwned\x07al", "hi\x1b[2J there\u202e")
    assert heard == ["mal: hi there"]
    assert hosted.chat[-1].text == "hi there"
