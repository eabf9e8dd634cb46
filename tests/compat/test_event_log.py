"""event_loggers_made_once: the message pump's event loggers are the ones upstream makes, made once."""

from __future__ import annotations

from typing import Any

import pytest
from textual import Logger, message_pump
from textual._log import LogGroup, LogVerbosity
from textual.app import App

import fivetowers.compat.event_log as compat_event_log
from fivetowers.compat.event_log import (UPSTREAM_SOURCE, event_loggers_made_once,
                                         upstream_pump_log, upstream_source_digest)
from fivetowers.server.hosted import HostedApp
from tests.compat.calls import python_calls




def state(logger: Logger) -> tuple[Any, ...]:
    return logger._log, logger._group, logger._verbosity, logger.app


def test_the_logger_stood_for_is_textual_s() -> None:
    assert upstream_source_digest() == UPSTREAM_SOURCE, (
        "Textual's Logger changed: re-read it, update compat/event_log.py and its digest")


def test_the_pump_s_event_loggers_are_upstream_s_made_once() -> None:
    assert event_loggers_made_once()
    pump_log, upstream = message_pump.log, upstream_pump_log()
    assert pump_log is not upstream
    assert state(pump_log) == state(upstream)
    for verbose in (False, True):
        made = upstream.event.verbosity(verbose)
        assert state(pump_log.event.verbosity(verbose)) == state(made)
        assert pump_log.event.verbosity(verbose) is pump_log.event.verbosity(verbose)
        assert state(made)[1:3] == (LogGroup.EVENT,
                                    LogVerbosity.HIGH if verbose else LogVerbosity.NORMAL)
    assert state(pump_log.event) == state(upstream.event)
    assert state(pump_log.warning) == state(upstream.warning)
    # Upstream makes two loggers (and asks for their App) each time.
    assert python_calls(lambda: pump_log.event.verbosity(False)) == 2
    assert python_calls(lambda: upstream.event.verbosity(False)) > 2


async def test_a_logged_event_reaches_the_log_as_upstream(monkeypatch: pytest.MonkeyPatch) -> None:
    assert event_loggers_made_once()
    logged: list[tuple[Any, ...]] = []

    class Logged(App[None]):
        @property
        def _is_devtools_connected(self) -> bool:
            return True

        def _log(self, group: LogGroup, verbosity: LogVerbosity, _textual_calling_frame: Any,
                 *objects: Any, **kwargs: Any) -> None:
            if group == LogGroup.EVENT and objects and type(objects[0]).__name__ == "Mount":
                logged.append((verbosity, str(objects[2])))

    async def run() -> list[tuple[Any, ...]]:
        logged.clear()
        async with Logged().run_test() as pilot:
            await pilot.pause()
        return sorted(logged)

    fast = await run()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(message_pump, "log", upstream_pump_log())
        assert await run() == fast
    assert fast and all(verbosity == LogVerbosity.NORMAL for verbosity, _ in fast)


def test_hosted_apps_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compat_event_log, "_upstream", None)
    monkeypatch.setattr(message_pump, "log", upstream_pump_log())
    HostedApp()
    assert isinstance(message_pump.log, compat_event_log._PumpLogger)


def test_a_changed_logger_is_left_alone(monkeypatch: pytest.MonkeyPatch,
                                        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(compat_event_log, "_upstream", None)
    monkeypatch.setattr(compat_event_log, "UPSTREAM_SOURCE", "0" * 16)
    monkeypatch.setattr(message_pump, "log", upstream_pump_log())
    assert not event_loggers_made_once()
    assert message_pump.log is upstream_pump_log()
    assert "Logger changed" in caplog.text
