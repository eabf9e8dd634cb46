"""compat.rich: a Console reads the environment it is given, not the process's."""

from __future__ import annotations

import inspect
import io

import pytest
from rich.console import Console

from fivetowers.compat.rich import CONSOLE_ENVIRON, console_with_environ


def test_console_still_takes_a_private_environment() -> None:
    parameter = inspect.signature(Console).parameters.get(CONSOLE_ENVIRON)
    assert parameter is not None, "re-check compat/rich.py: console_with_environ"
    assert parameter.default is None


def test_the_given_environment_decides_colours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.delenv("COLORTERM", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    # The process's own environment: no colour.
    assert Console(file=io.StringIO(), force_terminal=True).color_system is None
    rich = console_with_environ({"TERM": "xterm-256color", "COLORTERM": "truecolor"},
                                io.StringIO(), force_terminal=True)
    assert rich.color_system == "truecolor"
    monkeypatch.setenv("COLORTERM", "truecolor")
    monkeypatch.setenv("TERM", "xterm-256color")
    plain = console_with_environ({"TERM": "xterm"}, io.StringIO(), force_terminal=True)
    assert plain.color_system == "standard"
    assert console_with_environ({}, io.StringIO(), color_system="truecolor",
                                force_terminal=True).color_system == "truecolor"
