"""An ended session's App freed by reference counting (read in Textual 8.2.8).

The server freezes what survives a while (``server/collector.py``), and
what is frozen is never collected until a reclaim. An App that has run to
its end stayed in reference cycles with its helpers, each pointing back at
it (found with ``gc.get_referrers`` on an ended session's App,
``scripts/bench_left_screens.py``):

- its ``Styles`` (``node``), ``WorkerManager`` (``_app``), ``Animator``
  (``app``), ``BoundAnimator`` (``_obj``), driver (``_app``), and the
  lobby's ``SeatHost`` (``app``): each an attribute of the App that points
  back at it;
- its ``Logger`` holds the bound method ``App._log``;
- its ``driver_class``, a closure over the session's terminal, which holds
  the driver, whose finished input task's context holds the App
  (``active_app``);
- not a cycle, but as long: a timer the App stopped as it ended (a toast's
  expiry, 5-8 s) leaves a cancelled handle in the event loop's schedule
  until its time comes, and the handle's context holds the App. The
  collector counts an ended App still alive after its next settle's
  collection as a whole ended session (``QuietCollector.count_survivors``):
  watchers leaving with a toast shown would bring reclaims.

Frozen, the App kept everything it references (its screens' last state, the
lobby's views, caches) until the next reclaim, half-hourly: the load test's
ended sessions (spectators leaving at every game's end) grew the server
8 MiB a minute. :func:`let_go_of_app` cuts those cycles once Textual's
shutdown is over; the App then dies as its session lets go of it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from textual._context import active_app
from textual.app import App

from fivetowers.compat.checked import Workaround
from fivetowers.compat.freed_screens import cut_cycles

log = logging.getLogger("fivetowers.server")

_warned: list[str] = []

HELPERS = (
    ("_workers", "_app"),  # WorkerManager
    ("_animator", "app"),  # Animator
    ("_animate", "_obj"),  # BoundAnimator
    ("_driver", "_app"),  # the session's driver
    ("_logger", "_log"),  # Logger: the bound method App._log
    ("seat_host", "app"),  # the lobby's SeatHost (a LobbyApp's, at a table)
)
"""Each per-session helper of an App (its attribute) and its pointer back at
the App, cut. Named, not found: the App's other attributes include what
every session shares (the lobby, a table, the event loop), whose fields
must stay. One a later Textual adds shows in ``gc.get_referrers`` of an
ended App (``tests/server/test_left_screens.py``). Its styles' ``node``
are cut by ``cut_cycles``."""


def let_go_of_app(app: App[Any]) -> None:
    """Cut the reference cycles through an App whose ``run_async`` has
    returned (see the module's docstring). Nothing of it may run again;
    what a late caller reads of it (its styles, its workers) still exists.
    A Textual (or event loop) whose internals differ leaves the App to the
    collector, with a warning once, never an error: the session's end
    goes on as usual. Retire it when Textual's App is no longer in
    reference cycles with its helpers once it has run: not reported
    upstream yet."""
    try:
        own = vars(app)
        own.pop("driver_class", None)  # (the session's closure: its terminal, its driver)
        for name, back in HELPERS:
            helper = own.get(name)
            if helper is None:
                continue
            held = getattr(helper, back)
            if held is app or getattr(held, "__self__", None) is app:
                setattr(helper, back, None)
        cut_cycles([app])  # its styles' node, its caches' rings, its stopped timers
        driver = app._driver
        reader = getattr(driver, "_reader", None)  # (SSHDriver's input task, done)
        if reader is not None and reader.done():
            driver._reader = None  # type: ignore[union-attr]  # its context holds the App
        app._driver = None
        forget_stopped_timers(app)
    except Exception as exc:  # (a late change of Textual's: never the player's problem)
        _cannot_cut(exc)


def forget_stopped_timers(app: App[Any]) -> None:
    """The contexts of the event loop's cancelled timer handles made in
    ``app``'s context let go of (a toast's expiry, stopped as the App
    ended: see the module's docstring). A cancelled handle never runs; the
    loop drops it when its time comes. Retire it when asyncio lets go of a
    cancelled handle's context at once (``TimerHandle.cancel`` keeps it
    until the handle's time in Python 3.11)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # (no loop runs: none of its timers waits)
        return
    scheduled = getattr(loop, "_scheduled", None)  # (asyncio's own loop: a heap of TimerHandles)
    if not isinstance(scheduled, list):
        raise AttributeError(f"{type(loop).__name__} keeps no _scheduled list")
    for handle in scheduled:
        context = handle._context
        if handle.cancelled() and context is not None and context.get(active_app, None) is app:
            handle._context = None


def _cannot_cut(exc: Exception) -> None:
    if not _warned:  # once a process, not once a session
        _warned.append(str(exc))
        log.warning("Textual's App is not the code let_go_of_app was read in (%r): "
                    "an ended session's App is left to the collector", exc)


TEXTUAL = "8.2.8"
PYTHON = "3.11.7"

WORKAROUNDS = (
    Workaround("let_go_of_app", "fivetowers/compat/ended_app.py", "textual", TEXTUAL,
               ("App._driver", "App._workers", "App._animator", "App._animate", "App._logger",
                "WorkerManager._app", "BoundAnimator._obj", "Driver._app", "Logger._log",
                "textual._context.active_app"),
               "an ended App is no longer in reference cycles with its helpers"),
    Workaround("forget_stopped_timers", "fivetowers/compat/ended_app.py", "python", PYTHON,
               ("BaseEventLoop._scheduled", "TimerHandle._context"),
               "asyncio drops a cancelled timer handle's context at once"),
)
