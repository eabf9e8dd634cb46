"""A server sharing a PostgreSQL store drives its tables (tables/remote.py's
Driving) only while the lobby holds them: game after game, the finished ones
it let go of do not stay in memory."""

from __future__ import annotations

import gc
import weakref
from typing import cast

from fivetowers.games.five_towers.rules import Variant
from fivetowers.tables.pg_store import PgStore
from fivetowers.tables.remote import Driving, RemoteChat
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table

from tests.server.history_helpers import play


def _table(seed: int) -> Table:  # type: ignore[type-arg]
    seats = [Seat("ann", identity="key-a"), Seat("Peter (bot)", bot="random")]
    return Table(play([s.name for s in seats], Variant.BASE, seed=seed), seats)


def test_a_table_the_lobby_let_go_of_is_not_kept_by_its_driver() -> None:
    driving = Driving(cast(PgStore, None))  # never asked: no store is needed
    kept = _table(1)
    driving.drive(1, kept)
    finished = _table(2)
    driving.drive(2, finished)
    driving.chat[2].append(RemoteChat("bo", "gg"))
    gone = weakref.ref(finished)
    del finished  # over, and nobody looks at it any more
    gc.collect()
    assert gone() is None
    assert list(driving.tables) == [1] and driving.tables[1] is kept
    driving.drive(3, _rematch := _table(3))  # the next game: the old chat goes too
    assert sorted(driving.chat) == [1, 3]
    driving.heard('chat:2:{"name": "bo", "text": "late"}')  # for a table let go of: nothing
    assert sorted(driving.chat) == [1, 3]
