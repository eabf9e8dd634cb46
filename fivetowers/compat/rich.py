"""Workarounds that reach into Rich's internals (checked against Rich 15.0.0).

See fivetowers/compat/textual.py for how these are kept and tested.
"""

from __future__ import annotations

from typing import IO, Any, Mapping

from rich.console import Console

from fivetowers.compat.checked import Workaround

RICH = "15.0.0"
"""The Rich version every workaround here was checked against."""

CONSOLE_ENVIRON = "_environ"
"""Console's private keyword argument for its environment."""


def console_with_environ(environ: Mapping[str, str], file: IO[str], **options: Any) -> Console:
    """A Console that reads ``environ`` instead of the process's environment.

    A Console decides its colour system, size and ``NO_COLOR`` from
    ``os.environ``: in the server that is the server's terminal, not the
    player's. Rich takes another environment only through the private
    keyword argument ``_environ`` (meant for its own tests). The server
    passes the client's ``TERM``/``COLORTERM`` (to learn what its terminal
    shows) or nothing (so that every App renders alike, whatever the
    server's environment). Retire it when Rich makes the argument public:
    not reported upstream yet.
    """
    return Console(file=file, _environ=dict(environ), **options)


WORKAROUNDS = (
    Workaround("console_with_environ", "fivetowers/compat/rich.py", "rich", RICH,
               (CONSOLE_ENVIRON,), "Rich's Console takes an environment publicly"),
)
