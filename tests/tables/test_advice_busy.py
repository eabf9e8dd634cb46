"""The adviser's advice is the strong bot's own search, never a busy pool's
fallback (issue 11: honest hints). A pool that answers for the adviser with
its late bot or the quick bot gives no advice, keeps nothing, and is asked
again at the same version after a pause (doubled each time, on the client's
clock: no timed asserts); a bot seat still plays the fallback as before."""

from __future__ import annotations

import random
import threading
from typing import Any, Iterator

import pytest

from fivetowers.games.five_towers.client import TableClient
from fivetowers.games.five_towers.rules import Bid, Game, PlayerView, Variant
from fivetowers.tables.seat_client import ADVICE_RETRY, ADVICE_RETRY_MOST
from fivetowers.tables.seats import Seat
from fivetowers.tables.table import Table
from fivetowers.tables.workers import Move, Workers
from tests.tables.advice_helpers import answering


class Adviser:
    """The strong bot, as far as the test knows it: bids the most, counting asks."""

    def __init__(self) -> None:
        self.asked: list[int] = []
        self.lock = threading.Lock()

    def choose(self, view: PlayerView, rng: random.Random) -> Bid:
        with self.lock:
            self.asked.append(view.seat or 0)
        return Bid(view.seat or 0, max(view.legal_bids))


class Clock:
    """The client's clock for its retries, moved by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def pool() -> Iterator[Workers]:
    workers = Workers(threads=True)
    yield workers
    workers.close()


def advised(pool: Workers, humans: tuple[int, ...] | None = None
            ) -> tuple[Table[Any], TableClient, Adviser, Clock]:
    """Ann's seat (with ``humans``, hot-seat: whoever of them is to move)."""
    game = Game(["Ann", "Bo"], Variant.BASE, seed=3)
    table = Table(game, [Seat("Ann"), Seat("Bo")], bot_delay=0, workers=pool)
    adviser = Adviser()
    client = TableClient(table, 0, adviser=adviser, humans=humans)
    clock = client.clock = Clock()
    return table, client, adviser, clock


def advice_moves(pool: Workers) -> list[str]:
    return [m.how for m in pool.stats.moves if m.role == "advice"]


@pytest.mark.parametrize("how", ["late", "quick"])
async def test_a_busy_pools_fallback_is_not_advice_and_is_asked_again_later(
        pool: Workers, how: str) -> None:
    table, mine, adviser, clock = advised(pool)
    answering(pool, how)
    assert await mine.advice() is None  # the fallback's move is not the strong bot's
    assert adviser.asked == [] and advice_moves(pool) == [how]
    assert mine.advice_due() == ADVICE_RETRY
    # Asked again at once (a redraw): not the pool, nor the fallback kept.
    assert await mine.advice() is None and advice_moves(pool) == [how]
    clock.now += ADVICE_RETRY / 2
    assert mine.advice_due() == ADVICE_RETRY / 2
    assert await mine.advice() is None and advice_moves(pool) == [how]
    clock.now += ADVICE_RETRY / 2  # due: the pool is asked again, still busy
    assert await mine.advice() is None and advice_moves(pool) == [how, how]
    assert mine.advice_due() == 2 * ADVICE_RETRY  # a longer pause after each in a row
    answering(pool, "thought")  # a worker is free now
    clock.now += 2 * ADVICE_RETRY
    advice = await mine.advice()
    assert advice == Bid(0, table.game.max_bid(0)) and adviser.asked == [0]
    assert advice_moves(pool) == [how, how, "thought"] and mine.advice_due() is None
    assert await mine.advice() == advice and adviser.asked == [0]  # kept for its version


async def test_the_pause_grows_to_its_most_and_starts_again_at_the_next_version(
        pool: Workers) -> None:
    table, mine, _, clock = advised(pool, humans=(0, 1))
    answering(pool, "late")
    pauses = []
    for _ in range(6):
        assert await mine.advice() is None
        due = mine.advice_due()
        assert due is not None
        pauses.append(due)
        clock.now += due
    assert pauses == [min(ADVICE_RETRY_MOST, ADVICE_RETRY * 2 ** n) for n in range(6)]
    assert pauses[-1] == ADVICE_RETRY_MOST
    await table.submit(0, Bid(0, 1))  # Bo's turn at this terminal, a new version
    assert mine.seat == 1 and mine.advice_due() is None  # the pause was the old version's
    assert await mine.advice() is None and mine.advice_due() == ADVICE_RETRY


async def test_the_strong_bots_own_answer_is_advice_as_before(pool: Workers) -> None:
    table, mine, adviser, _ = advised(pool)
    advice = await mine.advice()
    assert advice == Bid(0, table.game.max_bid(0)) and adviser.asked == [0]
    assert advice_moves(pool) == ["thought"] and mine.advice_due() is None


@pytest.mark.parametrize("how", ["late", "quick"])
async def test_a_bot_seat_still_plays_a_busy_pools_fallback(pool: Workers, how: str) -> None:
    game = Game(["Ann", "Bo"], Variant.BASE, seed=3)
    table = Table(game, [Seat("Ann", bot="strong"), Seat("Bo")], bot_delay=0, workers=pool)
    answering(pool, how)
    table.start()
    await table.wait_idle()
    assert table.bot_error is None and table.version >= 1  # it moved, with the fallback
    assert [(m.role, m.bot, m.how) for m in pool.stats.moves] == \
        [("bot", "five_towers strong", how)] * table.version


async def test_choose_says_who_made_the_move(pool: Workers) -> None:
    game = Game(["Ann", "Bo"], Variant.BASE, seed=3)
    view = game.view(0)
    for how in ("thought", "late", "quick"):
        answering(pool, how)
        move = await pool.choose(Adviser(), view, random.Random(1), late=Adviser(),
                                 quick=Adviser())
        assert isinstance(move, Move) and move.how == how and move.own == (how == "thought")
        game.clone().apply(move.action)
