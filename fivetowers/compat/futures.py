"""Workarounds that reach into the standard library's concurrent.futures
(checked against Python 3.11.7).

See fivetowers/compat/textual.py for how these are kept and tested.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing.process

from fivetowers.compat.checked import Workaround

PYTHON = "3.11.7"
"""The Python version every workaround here was checked against."""


def pool_processes(pool: concurrent.futures.Executor
                   ) -> dict[int, multiprocessing.process.BaseProcess]:
    """The worker processes of ``pool`` by process id (none for other executors).

    A ProcessPoolExecutor keeps its workers in the private ``_processes``
    (pid to Process, filled as they start, emptied at shutdown) and has no
    public way to stop them: ``shutdown(wait=False, cancel_futures=True)``
    lets a worker finish the job it holds, and a bot thinking for a table
    that is closing need not. So the server takes the processes before the
    shutdown and terminates them, and reports their ids (for tests and the
    load test). Retire it when the project requires Python 3.14, whose
    executor has public ``terminate_workers()`` and ``kill_workers()``.
    """
    if not isinstance(pool, concurrent.futures.ProcessPoolExecutor):
        return {}
    return dict(getattr(pool, "_processes", None) or {})


WORKAROUNDS = (
    Workaround("pool_processes", "fivetowers/compat/futures.py", "python", PYTHON,
               ("ProcessPoolExecutor._processes",),
               "Python 3.14's ProcessPoolExecutor.terminate_workers()"),
)
