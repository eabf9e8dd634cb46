"""Game after game at one table, the finished games do not pile up in memory."""

from __future__ import annotations

import asyncio
import gc
import random
import weakref
from typing import Callable

import pytest

from fivetowers.games.five_towers.kind import GAME as FIVE_TOWERS
from fivetowers.games.five_towers.rules import Variant
from fivetowers.games.protocol import Match
from fivetowers.lobby.crossing import Crossing
from fivetowers.lobby.model import HostedTable, Lobby, LobbyError
from fivetowers.tables.seats import Seat
from fivetowers.tables.sharing import Again, Heard, News
from fivetowers.tables.store import TableInfo
from fivetowers.tables.table import Table
from fivetowers.tables.workers import Workers

from tests.server.history_helpers import play


def _finished(lobby: Lobby) -> HostedTable:
    """ann, bo and a bot have played a game to its end at table OVER1."""
    seats = [Seat("ann", identity="key-a", connected=True),
             Seat("bo", identity="key-b", connected=True), Seat("Peter (bot)", bot="random")]
    hosted = HostedTable("OVER1", "friends", FIVE_TOWERS, {"variant": "base"}, False, seats)
    hosted.table = Table(play([s.name for s in seats], Variant.BASE, seed=1), seats)
    lobby.tables[hosted.code] = hosted
    return hosted


async def _rematch_then_everyone_goes(
        lobby: Lobby) -> tuple[HostedTable, weakref.ref[HostedTable]]:
    old = _finished(lobby)
    lobby.play_again(old, "key-a", "ann")
    again = lobby.play_again(old, "key-b", "bo")  # the last yes starts it
    assert again.started and again.table is not None
    await again.table.close()
    for identity in ("key-a", "key-b"):
        lobby.away(old, identity)
    del lobby.tables[again.code]  # as when it is over and nobody looks at it
    return old, weakref.ref(again)


async def test_a_rematch_started_by_the_last_yes_is_not_held_by_its_answer_timer() -> None:
    # An hour to answer: the timer that gives the silent a bot must not keep
    # the rematch (its table, its game) alive once everyone said yes.
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=3600.0, hints=False,
                  rng=random.Random(3))
    gone = (await _rematch_then_everyone_goes(lobby))[1]
    await asyncio.sleep(0)
    gc.collect()
    assert gone() is None


async def test_a_rematch_everyone_left_unanswered_is_not_held_by_its_answer_timer() -> None:
    # The other way a rematch stops forming: nobody is left to play it.
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=3600.0, hints=False,
                  rng=random.Random(3))
    old = _finished(lobby)
    again = lobby.play_again(old, "key-a", "ann")
    lobby.away(again, "key-a")  # said yes, then left
    lobby.away(old, "key-b")  # left without a yes
    assert lobby.tables.get(old.code) is not again and not again.started
    assert again.answer_timer is None
    gone = weakref.ref(again)
    del again  # (the finished game, still looked at, links to it: weakly)
    gc.collect()
    assert gone() is None


async def _over(hosted: HostedTable, seed: int) -> None:
    """``hosted``'s game (started) played to its end."""
    assert hosted.table is not None
    await hosted.table.close()
    hosted.table = Table(play([s.name for s in hosted.seats], Variant.BASE, seed=seed),
                         hosted.seats)


async def test_a_finished_game_still_held_does_not_keep_every_later_game() -> None:
    # On the server a kept table screen's task held the first game's waiting
    # screen (Textual's context token) for as long as the table played: with
    # each game holding its rematch, every game since stayed (issue 11: the
    # growth at 100 sessions; scripts/bench_games_memory.py's LogEntry, Card).
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=3600.0, hints=False,
                  rng=random.Random(3))
    first = _finished(lobby)  # held here all along, as by that token
    games = [first]
    for seed in (2, 3, 4):
        lobby.play_again(games[-1], "key-a", "ann")
        again = lobby.play_again(games[-1], "key-b", "bo")
        await _over(again, seed)
        games.append(again)
    between = [weakref.ref(hosted) for hosted in games[1:-1]]
    last = games[-1]
    del games, again
    gc.collect()
    assert [ref() for ref in between] == [None, None]
    assert lobby.tables[last.code] is last and last.table is not None
    await last.table.close()


async def test_a_yes_to_a_rematch_gone_is_too_late_as_before() -> None:
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=3600.0, hints=False,
                  rng=random.Random(3))
    old, gone = await _rematch_then_everyone_goes(lobby)
    gc.collect()
    assert gone() is None and old.rematch is None and old.rematch_offered
    with pytest.raises(LobbyError):
        lobby.play_again(old, "key-a", "ann")


class NoOtherServer:
    """The servers sharing a store (``SharedTables``) with none but this one
    there: nobody answers, what is told is kept."""

    origin = "here"

    def __init__(self) -> None:
        self.told: list[tuple[int, News]] = []

    def listen(self, hear: Callable[[Heard], None]) -> None:
        pass

    async def live(self) -> list[TableInfo]:
        return []

    async def remote(self, table_id: int, workers: Workers | None) -> Table[Match]:
        raise AssertionError("no other server drives a table")

    def forget(self, table_id: int) -> None:
        pass

    def follow(self, table_id: int, on: bool) -> None:
        pass

    def drive(self, table_id: int, table: Table[Match]) -> None:
        pass

    def tell(self, table_id: int, news: News) -> None:
        self.told.append((table_id, news))

    async def close(self) -> None:
        pass


async def test_a_yes_to_another_server_s_rematch_gone_is_too_late_too() -> None:
    """A game another server drove: this server's copy of its rematch went
    (unlisted: its driver said so, or died) and nothing holds it. A later
    yes is refused, not met with a new guess of the rematch."""
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=3600.0, hints=False,
                  rng=random.Random(3))
    shared = NoOtherServer()
    crossing = Crossing(lobby, shared)
    lobby.share(crossing)
    try:
        old = _finished(lobby)
        old.remote, old.table_id = True, 7
        copy = lobby.play_again(old, "key-a", "ann")  # listed here, as it forms there
        assert crossing.forming[old.code] is copy and old.rematch is copy
        crossing._unlist(copy)
        gone = weakref.ref(copy)
        del copy
        gc.collect()
        assert gone() is None and old.rematch is None and old.rematch_offered
        with pytest.raises(LobbyError):
            lobby.play_again(old, "key-b", "bo")
        assert old.code not in crossing.forming
        assert [news.identity for _, news in shared.told if isinstance(news, Again)] == ["key-a"]
    finally:
        await crossing.close()
