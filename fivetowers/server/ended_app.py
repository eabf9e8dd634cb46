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
  (``active_app``).

Frozen, the App kept everything it references (its screens' last state, the
lobby's views, caches) until the next reclaim, half-hourly: the load test's
ended sessions (spectators leaving at every game's end) grew the server
8 MiB a minute. :func:`let_go_of_app` cuts those cycles once Textual's
shutdown is over; the App then dies as its session lets go of it.
"""

from __future__ import annotations

import logging
import types
from typing import Any

from textual.app import App

from fivetowers.compat.freed_screens import cut_cycles

log = logging.getLogger("fivetowers.server")

_warned: list[str] = []


def let_go_of_app(app: App[Any]) -> None:
    """Cut the reference cycles through an App whose ``run_async`` has
    returned (see the module's docstring). Nothing of it may run again;
    what a late caller reads of it (its styles, its workers) still exists.
    A Textual whose internals differ leaves the App to the collector, with a
    warning once, never an error."""
    # Each helper's pointer back at the App (workers, animator, driver,
    # logger, the lobby's seat host): found, not named, so that one Textual
    # adds later is cut too.
    own = vars(app)
    own.pop("driver_class", None)  # (the session's closure: its terminal, its driver)
    for helper in list(own.values()):
        attributes = getattr(helper, "__dict__", None)
        if helper is app or not isinstance(attributes, dict):
            continue
        for name, held in list(attributes.items()):
            if held is app or (isinstance(held, types.MethodType) and held.__self__ is app):
                attributes[name] = None
    try:
        cut_cycles([app])  # its styles' node, its caches' rings, its stopped timers
        driver = app._driver
        reader = getattr(driver, "_reader", None)  # (SSHDriver's input task, done)
        if reader is not None and reader.done():
            driver._reader = None  # type: ignore[union-attr]  # its context holds the App
        app._driver = None
    except AttributeError as exc:
        _cannot_cut(exc)


def _cannot_cut(exc: AttributeError) -> None:
    if not _warned:  # once a process, not once a session
        _warned.append(str(exc))
        log.warning("Textual's App is not the code let_go_of_app was read in (%s): "
                    "an ended session's App is left to the collector", exc)
