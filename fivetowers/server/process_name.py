"""Which process of ``fivetowers serve --processes N`` a connection reached.

The processes share one port and one host key, so nothing else tells them
apart from outside: each names itself in its SSH version string (the
comment after asyncssh's own version, which clients' quirk tables know).
``ssh -v`` shows it ("remote software version AsyncSSH_2.21.0
fivetowers-process-2"), so a host can tell which process a player reached;
the load test and the tests read it to know where each client landed.
Kept apart from the server so that a client imports only this.
"""

from __future__ import annotations

import asyncssh

MARKER = " fivetowers-process-"


def server_version(process: int | None) -> str:
    """The SSH version string (after "SSH-2.0-") of process ``process``
    (None: a server of one process, which says nothing more)."""
    plain = f"AsyncSSH_{asyncssh.__version__}"
    return plain if process is None else f"{plain}{MARKER}{process}"


def process_of(version: str | None) -> int | None:
    """The process number in an SSH version string a client received (as
    ``conn.get_extra_info("server_version")`` gives it); None if none."""
    _, marker, number = (version or "").rpartition(MARKER)
    return int(number) if marker and number.isdigit() else None
