"""The stall watch (FIVETOWERS_STALLS): it names what held the loop up."""

from __future__ import annotations

import asyncio
import io
import time

import pytest

from fivetowers.server import stalls
from fivetowers.server.stalls import Sample, Stall, StallWatch, culprit, culprit_of, fold, from_environment


def hold_the_loop_up(seconds: float) -> None:
    time.sleep(seconds)  # lets the watcher's thread run, as Python code does


async def test_a_stall_is_caught_with_what_the_loop_was_doing() -> None:
    out = io.StringIO()
    watch = StallWatch(threshold_ms=40, sample_ms=5, out=out)
    watch.start()
    try:
        await asyncio.sleep(0.05)
        hold_the_loop_up(0.3)
        for _ in range(200):  # until the watcher saw the loop beat again
            if any("hold_the_loop_up" in culprit(s) for s in watch.stalls):
                break
            await asyncio.sleep(0.01)
    finally:
        watch.stop()
    caught = [s for s in watch.stalls if "hold_the_loop_up" in culprit(s)]
    assert caught, out.getvalue()
    assert caught[0].ms >= 250
    assert "loop stall" in out.getvalue() and "hold_the_loop_up" in out.getvalue()
    assert "hold_the_loop_up" in watch.summary()


def test_fold_finds_the_shared_trunk_and_the_branches() -> None:
    a, b, c, d = ("f:1", "run"), ("f:2", "layout"), ("f:3", "arrange"), ("f:4", "render")
    trunk, branches = fold([[a, b, c], [a, b, c], [a, b, d]])
    assert trunk == [a, b]
    assert branches == {(c,): 2, (d,): 1}
    assert culprit_of([[a, b, c], [a, b, c], [a, b, d]]) == "layout > arrange"
    assert culprit(Stall(0.0, gc_ms=120.0)) == "garbage collection"


def test_off_unless_the_environment_asks(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(stalls.ENVIRONMENT, raising=False)
    assert from_environment() is None
    monkeypatch.setenv(stalls.ENVIRONMENT, "0")
    assert from_environment() is None
    monkeypatch.setenv(stalls.ENVIRONMENT, "soon")
    assert from_environment() is None
    assert "not a number" in capsys.readouterr().err
    monkeypatch.setenv(stalls.ENVIRONMENT, "120")
    watch = from_environment()
    assert watch is not None and watch.threshold == pytest.approx(0.12)


def test_a_stall_tells_one_long_callback_from_many_short_ones() -> None:
    a, b = ("f:1", "redraw"), ("f:2", "render")
    stall = Stall(0.0, ms=300.0, samples=[
        Sample(0.00, 1, [a]), Sample(0.01, 2, [b]), Sample(0.02, 2, [b]), Sample(0.03, 2, [b]),
        Sample(0.04, 3, [a])])
    runs = stall.runs(every_ms=10.0)
    assert [round(ms) for ms, _ in runs] == [10, 30, 10]
    assert culprit(stall) == "render"  # the longest callback's, not the first's


def test_a_report_lists_as_other_callbacks_only_those_that_were_not_the_longest() -> None:
    layout = [("f:1", "run"), ("f:2", "layout")]
    render = [("f:1", "run"), ("f:3", "render")]
    stall = Stall(0.0, ms=200.0, samples=[Sample(0.00, 1, layout), Sample(0.01, 1, layout),
                                          Sample(0.02, 1, layout), Sample(0.03, 2, render)])
    out = io.StringIO()
    StallWatch(threshold_ms=100, sample_ms=10, out=out).report(stall)
    report = out.getvalue()
    assert "the longest ~30 ms" in report
    assert "other callbacks: 1x render" in report and "layout" not in report.split("other")[1]
