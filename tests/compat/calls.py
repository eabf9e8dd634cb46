"""Counting the Python calls a piece of work makes (the compat tests' measure)."""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any, Callable


def python_calls(work: Callable[[], Any]) -> int:
    """How many Python functions run while ``work()`` runs (C calls not counted)."""
    calls = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return calls - 1  # the lambda itself
