"""A worker pool that answers the adviser as a busy one does, without timing,
and the client's pauses between asks shortened for the screens' tests."""

from __future__ import annotations

from contextlib import closing
from typing import Iterator

import pytest

from fivetowers.tables import seat_client
from fivetowers.tables.workers import CEILING_MARGIN, CEILING_TIMES, LATE_MARGIN, Workers


def answering(workers: Workers, how: str) -> None:
    """Make ``workers`` answer every bot with ``how``, at once, without timing:
    "late", a ceiling already past when a worker starts on it (its worker's
    late bot moves, waited for); "quick", no time at all to wait for a worker
    (the quick bot moves here); "thought", the pool's own ceilings again."""
    workers.ceiling_times, workers.ceiling_margin, workers.margin = {
        "late": (0.0, -1.0, 600.0),
        "quick": (0.0, 0.0, 0.0),
        "thought": (CEILING_TIMES, CEILING_MARGIN, LATE_MARGIN),
    }[how]


def short_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    """The adviser asked again after 0.05 s, doubled up to 0.2 s: a screen's
    retries within a test's wait (the pauses are seat_client's to test)."""
    monkeypatch.setattr(seat_client, "ADVICE_RETRY", 0.05)
    monkeypatch.setattr(seat_client, "ADVICE_RETRY_MOST", 0.2)


@pytest.fixture
def retrying_pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[Workers]:
    """Thread workers for a screen's table, its adviser asked again soon
    (:func:`short_pauses`); a test module imports it as a fixture."""
    short_pauses(monkeypatch)
    with closing(Workers(threads=True)) as workers:
        yield workers
