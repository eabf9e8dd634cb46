"""The message pump's event loggers made once (checked against Textual 8.2.8).

See :func:`event_loggers_made_once`; ``tests/compat/test_event_log.py`` pins it down.
"""

from __future__ import annotations

from textual import Logger, message_pump
from textual._log import LogGroup, LogVerbosity

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

TEXTUAL = "8.2.8"
"""The Textual version the logger was read in."""

UPSTREAM_SOURCE = "44e78fffbe36ab0d"
"""The first 16 hex digits of the SHA-256 of the source of Textual's ``Logger``:
the loggers below are the ones its ``event`` and ``verbosity`` make only while
it is that code."""


class _EventLogger(Logger):
    """``Logger(None, LogGroup.EVENT)``, whose two verbosities are made once."""

    def verbosity(self, verbose: bool) -> Logger:
        return _EVENTS_VERBOSE if verbose else _EVENTS


class _PumpLogger(Logger):
    """The module logger ``textual.log`` (no callable, no App), whose event
    logger is made once."""

    @property
    def event(self) -> Logger:
        return _EVENT


_EVENT = _EventLogger(None, LogGroup.EVENT)
_EVENTS = Logger(None, LogGroup.EVENT, LogVerbosity.NORMAL)
_EVENTS_VERBOSE = Logger(None, LogGroup.EVENT, LogVerbosity.HIGH)
_upstream: Logger | None = None


def upstream_source_digest() -> str:
    """The digest of Textual's Logger, as UPSTREAM_SOURCE records it."""
    return source_digest(Logger)


def _plain(logger: Logger) -> bool:
    """Whether ``logger`` is made as ``textual.log`` is: no callable, info, normal, no App."""
    return (type(logger) is Logger and logger._log is None and logger._group == LogGroup.INFO
            and logger._verbosity == LogVerbosity.NORMAL and logger._app is None)


def event_loggers_made_once() -> bool:
    """Give the message pump event loggers made once; True if it does.

    For every handler of every message, ``MessagePump._on_message`` logs
    ``log.event.verbosity(message.verbose)(...)``: ``event`` and
    ``verbosity`` each make a new ``Logger`` (with its App lookup) before
    the call finds that no devtools are connected, six Python calls a
    handler, about 0.7% of a lobby session's start. The loggers they make
    from the module's ``textual.log`` (no callable, no App) are always the
    same three states, so the message pump's ``log`` is replaced by one
    whose ``event`` and its ``verbosity`` return loggers made once in those
    states: the same calls, the same output when devtools or a log file
    are on. Installed only while Textual's ``Logger`` is the code read (its
    digest is recorded) and the pump's ``log`` is the plain module logger.
    Retire it when Textual skips event logging without devtools: not
    reported upstream yet.
    """
    global _upstream
    if _upstream is not None:
        return True
    if not source_unchanged(upstream_source_digest(), UPSTREAM_SOURCE, "Textual's Logger "
                            "changed: every message handled makes two loggers"):
        return False
    pump_log: Logger = getattr(message_pump, "log")  # textual.log, as the pump imported it
    if not _plain(pump_log):
        return False
    _upstream = pump_log
    setattr(message_pump, "log", _PumpLogger(None))
    return True


def upstream_pump_log() -> Logger:
    """The message pump's ``log`` as Textual has it (for tests)."""
    pump_log: Logger = getattr(message_pump, "log")
    return _upstream or pump_log


WORKAROUNDS = (
    Workaround("event_loggers_made_once", "fivetowers/compat/event_log.py", "textual", TEXTUAL,
               ("textual.message_pump.log", "Logger._log", "Logger._group",
                "Logger._verbosity", "Logger._app"),
               "Textual skips event logging when no devtools are connected"),
)
