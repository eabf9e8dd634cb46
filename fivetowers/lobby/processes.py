"""``fivetowers serve --processes N``: N servers on one port, all cores of one machine.

The parent makes the host key once (every child then loads the same one),
starts N children running the same command with ``$FIVETOWERS_PROCESS`` set
(each listens with SO_REUSEPORT, so the kernel spreads connections, and
shares the PostgreSQL store as ``--share-store`` does), passes SIGINT and
SIGTERM on to them and waits. The SQLite store is one process's: refused.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from types import FrameType

from fivetowers.i18n import _

CHILD = "FIVETOWERS_PROCESS"
"""Set in a child's environment (its number): it serves, it does not spawn."""


def is_child() -> bool:
    return bool(os.environ.get(CHILD))


def child_number() -> int | None:
    """This child's number (1 to N), None in a parent or a single server."""
    number = os.environ.get(CHILD, "")
    return int(number) if number.isdigit() else None


def refusal(processes: int, store_url: str | None) -> str | None:
    """Why ``--processes`` cannot be given so, if it cannot (one line)."""
    if not 1 <= processes <= 256:
        return _("--processes {processes} must be 1 to 256").format(processes=processes)
    if processes > 1 and store_url is None:
        return _("--processes needs the PostgreSQL store (--store postgresql://... or "
                 "$FIVETOWERS_STORE): the SQLite store serves one process")
    return None


def run_processes(processes: int, data_dir: Path) -> int:
    """Start ``processes`` children of this very command; their worst exit status."""
    from fivetowers.server.hostkey import load_or_create_host_key

    load_or_create_host_key(data_dir)  # once, before any child would race to make it
    command = [sys.executable, "-m", "fivetowers.cli", *sys.argv[1:]]
    children = [subprocess.Popen(command, env={**os.environ, CHILD: str(i + 1)})
                for i in range(processes)]

    def forward(signum: int, frame: FrameType | None) -> None:
        for child in children:
            if child.poll() is None:
                child.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    codes = [child.wait() for child in children]
    return max(codes, key=abs)
