"""The strong bot's clock: heads-up, the forecast of MIN_DEALS is made
after FORECAST_DEALS deals, not from one deal's time alone."""

from __future__ import annotations

import random
import time

import pytest

from fivetowers.games.gotown.plus import plus_play
from fivetowers.games.gotown.strong import FORECAST_DEALS, MIN_DEALS, StrongBot

from tests.gotown.arrange import table


class SlowStart:
    """A clock whose first deal takes 2.5 ms and every later call 0.5 ms
    (a call a deal): from the first deal alone, 0.05 s holds 20 deals; it
    holds about 90."""

    def __init__(self) -> None:
        self.now = 0.0
        self.calls = 0

    def __call__(self) -> float:
        self.calls += 1
        if self.calls == 3:
            self.now += 0.0025
        elif self.calls > 3:
            self.now += 0.0005
        return self.now


def test_a_slow_first_deal_does_not_silence_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    game = table([["1", "8", "2", "3", "4"], ["3", "4", "6", "6", "7"]],
                 towers=[[["3", "6"]], []], draw=["2"] * 5)
    view = game.view(0)
    assert FORECAST_DEALS > 1
    monkeypatch.setattr(time, "perf_counter", SlowStart())
    bot = StrongBot(0.05)
    assert bot.choose(view, random.Random(0)) in view.legal
    assert bot.deals >= MIN_DEALS


def test_a_clock_too_short_for_min_deals_still_stops_after_the_forecast(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every clock call 2.5 ms (a call a deal, and one for the forecast):
    about 14 deals forecast for 0.05 s. The bot stops at the forecast,
    FORECAST_DEALS deals in, and plays greedy+'s play."""
    game = table([["1", "8", "2", "3", "4"], ["3", "4", "6", "6", "7"]],
                 towers=[[["3", "6"]], []], draw=["2"] * 5)
    view = game.view(0)
    ticks = iter(range(10_000))
    monkeypatch.setattr(time, "perf_counter", lambda: 0.0025 * next(ticks))
    bot = StrongBot(0.05)
    assert bot.choose(view, random.Random(0)) == plus_play(game, random.Random(0))
    assert bot.deals == FORECAST_DEALS
