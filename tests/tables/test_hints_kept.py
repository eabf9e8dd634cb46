"""The serving process keeps a table's hints only while the table may still
ask for them (issue 11, memory stays flat): a game never comes back to a
position it left, and those hints were kept for nothing, 4-8 KiB each, until
the cache's bound (1,024; at 20 sessions about 100 more a minute)."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

from fivetowers.games.five_towers.client import TableClient
from fivetowers.games.five_towers.rules import Game, Position, Variant
from fivetowers.games.five_towers.rules.game import Phase
from fivetowers.games.five_towers.solver import Hint, exhaustive_hint
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table
from fivetowers.tables.workers import Workers

from tests.tables.random_play import random_action


class Spot:
    """A position to hint: its JSON is its name."""

    def __init__(self, name: str) -> None:
        self.name = name

    def to_json(self) -> Any:
        return self.name


class Owner:
    """A table, as far as the hint cache knows one."""


def hinter(computed: list[str], hold: threading.Event | None = None) -> Any:
    def hint(spot: Spot) -> str:
        if spot.name == "old" and hold is not None:
            hold.wait(10)
        computed.append(spot.name)
        return f"hint for {spot.name}"
    return hint


async def test_a_position_asked_at_neither_of_the_last_two_versions_is_dropped() -> None:
    workers, table, computed = Workers(threads=True), Owner(), []
    hint = hinter(computed)
    await workers.hint(Spot("a"), hint, table, 0)
    await workers.hint(Spot("b"), hint, table, 0)
    await workers.hint(Spot("a"), hint, table, 1)  # b's seat was not asked again
    assert workers.known_hint(Spot("b"), hint) == "hint for b"  # one version late: kept
    await workers.hint(Spot("a"), hint, table, 2)
    assert workers.known_hint(Spot("b"), hint) is None
    assert workers.known_hint(Spot("a"), hint) == "hint for a"
    assert computed == ["a", "b"]


async def test_a_position_asked_at_every_version_is_computed_once() -> None:
    # A seat's position (its board, the display) stays while the others bid.
    workers, table, computed = Workers(threads=True), Owner(), []
    hint = hinter(computed)
    for version in range(10):
        for seat in "abc":
            await workers.hint(Spot(seat), hint, table, version)
    assert computed == ["a", "b", "c"]


async def test_another_table_moving_on_leaves_this_table_s_hints() -> None:
    workers, still, moving, computed = Workers(threads=True), Owner(), Owner(), []
    hint = hinter(computed)
    await workers.hint(Spot("still"), hint, still, 0)
    for version in range(5):
        await workers.hint(Spot(f"moving {version}"), hint, moving, version)
    assert workers.known_hint(Spot("still"), hint) == "hint for still"


async def test_a_table_that_is_gone_leaves_no_hints() -> None:
    # A finished table never asks again: its last hints went only when
    # 1,024 others had come after them (at 100 sessions, some 35 a minute).
    workers, gone, still, computed = Workers(threads=True), Owner(), Owner(), []
    hint = hinter(computed)
    await workers.hint(Spot("its version before"), hint, gone, 0)
    await workers.hint(Spot("its last version"), hint, gone, 1)
    await workers.hint(Spot("still"), hint, still, 0)
    del gone
    # kept until the next ask
    assert workers.known_hint(Spot("its last version"), hint) == "hint for its last version"
    await workers.hint(Spot("still"), hint, still, 0)
    assert workers.known_hint(Spot("its version before"), hint) is None
    assert workers.known_hint(Spot("its last version"), hint) is None
    assert workers.known_hint(Spot("still"), hint) == "hint for still"
    assert len(workers._hints) == 1


async def test_a_hint_that_comes_after_its_table_left_its_position_is_not_kept() -> None:
    workers, table, computed, hold = Workers(threads=True), Owner(), [], threading.Event()
    hint = hinter(computed, hold)
    late = asyncio.ensure_future(workers.hint(Spot("old"), hint, table, 0))
    await asyncio.sleep(0.05)  # asked, and computing
    await workers.hint(Spot("new"), hint, table, 1)
    await workers.hint(Spot("newer"), hint, table, 2)
    assert not late.done()
    hold.set()
    assert await late == "hint for old"  # whoever waited for it still gets it
    assert workers.known_hint(Spot("old"), hint) is None


async def test_a_game_s_hints_stay_as_few_as_its_current_positions() -> None:
    # Three seats asking at every move of a real game, bids and builds: the
    # cache holds the positions of the last two versions, not the game's.
    workers = Workers(threads=True)
    names = ["Ann", "Bo", "Cy"]
    table = Table(Game(names, Variant.BASE, seed=11), [Seat(n) for n in names],
                  bot_delay=0, workers=workers)
    asked: set[str] = set()

    def counted(position: Position) -> Hint:
        asked.add(workers._key(position, counted)[1])
        return exhaustive_hint(position)

    viewers = [TableClient(table, seat, counted) for seat in range(3)]
    rng = random.Random(2)
    for _ in range(40):
        if table.game.phase is Phase.OVER:
            break
        for viewer in viewers:
            await viewer.hint()
        seat = table.game.to_move
        assert seat is not None
        await table.submit(seat, random_action(table.game, rng))
    assert len(asked) > 12  # the game went through many positions
    assert len(workers._hints) <= 6
