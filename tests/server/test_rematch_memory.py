"""Game after game at one table, the finished games do not pile up in memory."""

from __future__ import annotations

import asyncio
import gc
import random
import weakref

from fivetowers.games.five_towers.kind import GAME as FIVE_TOWERS
from fivetowers.games.five_towers.rules import Variant
from fivetowers.lobby.model import HostedTable, Lobby
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table

from tests.server.history_helpers import play


def _finished(lobby: Lobby) -> HostedTable:
    """ann, bo and a bot have played a game to its end at table OVER1."""
    seats = [Seat("ann", identity="key-a", connected=True),
             Seat("bo", identity="key-b", connected=True), Seat("Peter (bot)", bot="random")]
    hosted = HostedTable("OVER1", "friends", FIVE_TOWERS, {"variant": "base"}, False, seats)
    hosted.table = Table(play([s.name for s in seats], Variant.BASE, seed=1), seats)
    lobby.tables[hosted.code] = hosted
    return hosted


async def _rematch_then_everyone_goes(lobby: Lobby) -> weakref.ref[HostedTable]:
    old = _finished(lobby)
    lobby.play_again(old, "key-a", "ann")
    again = lobby.play_again(old, "key-b", "bo")  # the last yes starts it
    assert again.started and again.table is not None
    await again.table.close()
    for identity in ("key-a", "key-b"):
        lobby.away(old, identity)
    del lobby.tables[again.code]  # as when it is over and nobody looks at it
    return weakref.ref(again)


async def test_a_rematch_started_by_the_last_yes_is_not_held_by_its_answer_timer() -> None:
    # An hour to answer: the timer that gives the silent a bot must not keep
    # the rematch (its table, its game) alive once everyone said yes.
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=3600.0, hints=False,
                  rng=random.Random(3))
    gone = await _rematch_then_everyone_goes(lobby)
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
    del again
    old.rematch = None  # the finished game, still looked at, would keep it
    gc.collect()
    assert gone() is None
