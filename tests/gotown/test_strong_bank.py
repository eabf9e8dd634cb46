"""The strong bot's time bank: under the clock a move that searches nothing
(or less than its budget) leaves the rest to the next, up to BANK_CAP
budgets a move, the game's average staying within the budget; a new clock
(a server's worker gives one each move) starts it empty. The clocks here
are injected (the bot's ``timer``): no test waits on the machine."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from fivetowers.games.gotown.rules import End, Game
from fivetowers.games.gotown.strong import (
    BANK_CAP, BANK_SHARE, HEADS_UP_SEARCH, MIN_DEALS, MOST_DEALS, SETTLE_FROM, StrongBot,
    _settled,
)
from fivetowers.tables.workers import on_the_clock

from tests.gotown.arrange import table

BUDGET = 0.05


class Ticks:
    """A clock that moves ``step`` seconds at each reading: the search reads
    it once a deal, so a decision's deals are about its allowance / step."""

    def __init__(self, step: float = 0.001) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def only_end() -> Game:
    """Bình's turn where ending it is the one legal play."""
    return table([["1", "1"], ["3", "4", "6", "6", "7"]], towers=[[], []], draw=["2"] * 5)


def worth_a_search() -> Game:
    """A turn with a build or the end to choose between: searched."""
    return table([["1", "8", "2", "3", "4"], ["3", "4", "6", "6", "7"]],
                 towers=[[["3", "6"]], []], draw=["2"] * 5)


def clocked(clock: Ticks, **options: object) -> StrongBot:
    bot = StrongBot(BUDGET, **options)  # type: ignore[arg-type]
    bot.timer = clock
    return bot


def test_a_move_with_one_play_banks_its_time_for_the_next_search() -> None:
    clock = Ticks()
    bot = clocked(clock)
    game = only_end()
    assert bot.choose(game.view(0), random.Random(0)) == End(0)
    assert bot.why == "one" and bot.deals == 0
    # two readings of the clock: its start and its end
    assert bot.bank == pytest.approx(BANK_SHARE * (BUDGET - clock.step))
    alone = clocked(Ticks())
    searched = worth_a_search().view(0)
    alone.choose(searched, random.Random(0))
    bot.choose(searched, random.Random(0))
    assert alone.allowance == BUDGET
    assert bot.allowance == pytest.approx(BUDGET + BANK_SHARE * (BUDGET - clock.step))
    assert bot.deals > alone.deals >= MIN_DEALS


def test_no_move_thinks_longer_than_the_cap() -> None:
    clock = Ticks()
    bot = clocked(clock)
    for _ in range(10):  # ten moves' time saved: more than the cap lets one spend
        bot.choose(only_end().view(0), random.Random(0))
    assert bot.bank > BANK_CAP * BUDGET
    started = clock.now
    bot.choose(worth_a_search().view(0), random.Random(0))
    assert bot.allowance == pytest.approx(BANK_CAP * BUDGET)
    # the last deal's reading past the deadline, and the end's
    assert clock.now - started <= BANK_CAP * BUDGET + 2 * clock.step + 1e-9


def test_over_a_game_the_moves_average_within_the_budget() -> None:
    """Moves with one play and searched ones, and searches that overrun
    their allowance by a deal: their time in all stays within a budget a
    move, and nearly all of it is spent."""
    clock = Ticks(0.0015)
    bot = clocked(clock)
    moves = [only_end, worth_a_search, worth_a_search, only_end, only_end, worth_a_search,
             worth_a_search, worth_a_search, only_end, worth_a_search]
    for make in moves:
        bot.choose(make().view(0), random.Random(0))
    assert clock.now <= len(moves) * BUDGET
    assert clock.now >= 0.8 * len(moves) * BUDGET


def test_an_overrun_is_charged_to_the_next_move() -> None:
    """With no forecast to stop it (min_deals 0), a search runs to its
    deadline and the deal that passes it, 7 ms a deal here: over its budget."""
    eager = replace(HEADS_UP_SEARCH, min_deals=0)
    bot = clocked(Ticks(0.007), heads_up=eager)
    bot.choose(worth_a_search().view(0), random.Random(0))
    overrun = bot.bank
    assert overrun < 0
    bot.choose(worth_a_search().view(0), random.Random(0))
    assert bot.allowance == pytest.approx(BUDGET + overrun)


def test_a_new_clock_starts_with_an_empty_bank() -> None:
    bot = clocked(Ticks())
    bot.choose(only_end().view(0), random.Random(0))
    assert bot.bank > 0
    bot.timer = Ticks()  # as a worker gives the bot a clock of its own each move
    bot.choose(worth_a_search().view(0), random.Random(0))
    assert bot.allowance == BUDGET


def test_a_bot_on_a_workers_clock_thinks_its_budget_alone() -> None:
    """The server's worker copies the bot onto a WorkerClock each move: the
    copy's budget and ceiling hold whatever the table's bot had banked."""
    bot = clocked(Ticks())
    for _ in range(5):
        bot.choose(only_end().view(0), random.Random(0))
    mind = on_the_clock(bot, until=float("inf"))
    assert mind is not bot and mind.bank == bot.bank  # type: ignore[attr-defined]
    mind.choose(worth_a_search().view(0), random.Random(0))
    assert mind.allowance == BUDGET  # type: ignore[attr-defined]


@pytest.mark.parametrize("options", [{"bank_cap": 1.0}, {"simulations": 40}])
def test_no_bank_without_the_clock_or_with_a_cap_of_one(options: dict[str, object]) -> None:
    bot = clocked(Ticks(), **options)
    for _ in range(3):
        bot.choose(only_end().view(0), random.Random(0))
    bot.choose(worth_a_search().view(0), random.Random(0))
    assert bot.bank == 0.0 and bot.allowance == BUDGET


def test_settled_when_every_play_is_clearly_below_the_margin_or_one_clearly_best() -> None:
    deals = 40
    def sums(*means_and_spreads: tuple[float, float]) -> tuple[list[float], list[float]]:
        # sums and sums of squares of ``deals`` differences of this mean and spread
        total = [0.0] + [m * deals for m, _ in means_and_spreads]
        squares = [0.0] + [(s * s + m * m) * deals for m, s in means_and_spreads]
        return total, squares
    # standard error: spread / sqrt(40), about 0.158 x spread
    below = sums((-0.1, 0.1), (-0.05, 0.1))
    assert _settled(*below, [1, 2], deals, 0.0, 2.0)
    unclear = sums((-0.1, 0.1), (-0.01, 0.1))
    assert not _settled(*unclear, [1, 2], deals, 0.0, 2.0)
    best = sums((0.2, 0.1), (-0.05, 0.1))
    assert _settled(*best, [1, 2], deals, 0.0, 2.0)
    close = sums((0.2, 0.1), (0.17, 0.1))
    assert not _settled(*close, [1, 2], deals, 0.0, 2.0)
    identical = sums((0.0, 0.0), (0.0, 0.0))  # plays that play out alike never lead
    assert _settled(*identical, [1, 2], deals, 0.0, 2.0)


def test_a_settled_search_stops_and_banks_the_rest() -> None:
    """Here ending the turn is clearly better than greedy+'s build: at two
    standard errors the search says so some deals before its deadline, and
    plays what the whole search plays."""
    bot = clocked(Ticks(), heads_up=replace(HEADS_UP_SEARCH, settle=2.0))
    full = clocked(Ticks())
    view = worth_a_search().view(0)
    play = bot.choose(view, random.Random(0))
    assert play == full.choose(view, random.Random(0)) == End(0)
    assert bot.why == "settled" and full.why == "searched"
    assert SETTLE_FROM <= bot.deals < full.deals and full.bank <= 0 < bot.bank


def test_under_the_clock_a_heads_up_search_stops_at_most_deals_and_banks_the_rest() -> None:
    """0.05 s at 0.1 ms a deal would hold 500 deals: the search makes the
    MOST_DEALS its design was chosen at, the same decision as with that
    fixed number, and the rest of its budget goes to the bank. A fixed
    number of deals is not cut."""
    view = worth_a_search().view(0)
    bot = clocked(Ticks(0.0001))
    play = bot.choose(view, random.Random(3))
    assert bot.deals == MOST_DEALS and bot.why == "searched"
    assert bot.bank > BANK_SHARE * 0.8 * BUDGET
    fixed = StrongBot(simulations=MOST_DEALS)
    assert fixed.choose(view, random.Random(3)) == play
    assert fixed.playouts == bot.playouts
    more = StrongBot(simulations=MOST_DEALS + 20)
    more.choose(view, random.Random(3))
    assert more.deals == MOST_DEALS + 20
