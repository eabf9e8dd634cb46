"""A rematch's left screens and an ended session are freed by reference
counting, not left for the collector's reclaim (scripts/bench_left_screens.py,
a short run: the real LobbyApp and table screens on fake SSH channels)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import types
import weakref
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from bench_games_memory import Bench  # noqa: E402
from bench_left_screens import left_with_hints, run  # noqa: E402

from fivetowers.compat.ended_app import let_go_of_app  # noqa: E402

REMATCH_GARBAGE_A_VIEWER = 1000
"""Objects a collection finds after a rematch, per viewer, at the most: 489
with the left screens freed (the virtual nodes live screens restyle with
leave the rest), 5,200-5,400 when every left screen stayed in its cycles."""

SESSION_GARBAGE = 500
"""Objects a collection finds after a session ends, at the most: 154-164
with its cycles cut (small ones Textual leaves: signals, queues, events;
not the App), about 920 when they were not (``--keep-cycles``: the App's),
3,500-5,100 when its screens stayed in theirs."""


async def test_left_screens_an_ended_session_and_a_leaving_watcher_are_freed_without_a_collection(
        ) -> None:
    # (The bench reads whether each App is freed before it collects.)
    found = await run(argparse.Namespace(tables=1, seats=2, watchers=1, types=False,
                                         let_go=True))
    assert found["screens left"] >= 4  # two end screens, the watcher's table and end
    assert found["freed"] == found["screens left"]
    assert found["rematch garbage per viewer"] < REMATCH_GARBAGE_A_VIEWER
    # Its cycles cut as the server's session ends (compat/ended_app.py): frozen,
    # an App left in them kept all it references until a reclaim. And the
    # LobbyChanged it made another session's lobby screen post (the last
    # message of that loop, kept until its next) is that screen's own.
    assert found["session freed"]
    assert found["session garbage"] < SESSION_GARBAGE
    # A watcher's, the commonest ended session (spectators leave at a game's
    # end), with a toast shown: its stopped timer's handle waited in the
    # loop's schedule, its context holding the App, until its time.
    assert found["watcher freed"]
    assert found["watcher garbage"] < SESSION_GARBAGE


async def test_an_ended_app_s_helpers_no_longer_point_back_at_it() -> None:
    # Its styles, workers, animator, driver, logger and seat host each pointed
    # back at it: cycles that, frozen, kept the App until a reclaim.
    bench = Bench(1, 2, 0)
    await bench.start()
    try:
        app = bench.players[bench.codes[0]].pop(0)
        task = bench.tasks.pop(0)
        app.exit()
        await asyncio.gather(task, return_exceptions=True)
        del task  # (its context holds the App, as a session's task did)
        let_go_of_app(app)
        back = [type(r).__qualname__ for r in gc.get_referrers(app)
                if not isinstance(r, types.FrameType)]
        assert back == []
        ended = weakref.ref(app)
        del app
        assert ended() is None
    finally:
        await bench.close()


@pytest.mark.parametrize("game", ["fivetowers", "gotown"])
async def test_a_table_screen_that_showed_hints_is_freed_without_a_collection(game: str) -> None:
    # Its fetch_hint workers, finished, kept it in their tasks' contexts.
    left, freed = await left_with_hints(game)
    assert left >= 2  # the table screen and its end screen
    assert freed == left
