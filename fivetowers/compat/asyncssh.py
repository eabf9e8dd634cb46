"""Workarounds that reach into asyncssh's internals (checked against asyncssh 2.24.1).

See fivetowers/compat/textual.py for how these are kept and tested.
"""

from __future__ import annotations

import inspect
import weakref
from typing import Awaitable, Callable, TypeVar

import asyncssh

from fivetowers.compat.checked import Workaround

ASYNCSSH = "2.24.1"
"""The asyncssh version every workaround here was checked against."""

SERVER_PROCESS_PARAMETERS = ["self", "process_factory", "sftp_factory", "sftp_version",
                             "allow_scp"]
"""The signature of ``SSHServerProcess.__init__`` :func:`server_process` calls."""

Process = TypeVar("Process", bound="asyncssh.SSHServerProcess[bytes]")
Handler = Callable[["asyncssh.SSHServerProcess[bytes]"], Awaitable[None]]


class ServerProcessChanged(RuntimeError):
    """asyncssh's SSHServerProcess is not made the way this server makes it."""


def server_process(process_class: type[Process],
                   handler: Handler) -> Process:
    """A session of ``process_class`` (an SSHServerProcess) that runs ``handler``.

    To refuse subsystems and accept ``exec`` requests a server overrides
    ``subsystem_requested``/``exec_requested`` of its session; for a process
    handler (``process_factory``) asyncssh always makes a plain
    ``SSHServerProcess``, with no option for a class of one's own. So the
    server's ``session_requested`` returns one it made, calling the
    constructor asyncssh itself calls (positionally, in
    ``SSHServerConnection``): ``(process_factory, sftp_factory, sftp_version,
    allow_scp)``, none of it documented. This checks the signature first and
    fails with a clear error if it changed. Retire it when asyncssh accepts
    a process class (say ``create_server(process_class=...)``): not reported
    upstream yet.
    """
    init = asyncssh.SSHServerProcess.__init__
    if init not in _checked_inits:  # (inspect.signature: ~75 Python calls a session)
        parameters = list(inspect.signature(init).parameters)
        if parameters != SERVER_PROCESS_PARAMETERS:
            raise ServerProcessChanged(
                f"asyncssh's SSHServerProcess takes {parameters[1:]}, not "
                f"{SERVER_PROCESS_PARAMETERS[1:]}: re-check fivetowers/compat/asyncssh.py")
        _checked_inits.add(init)
    return process_class(handler, None, 0, False)


_checked_inits: weakref.WeakSet[Callable[..., None]] = weakref.WeakSet()
"""The constructors whose signature was found to be the one read (checked once each)."""


WORKAROUNDS = (
    Workaround("server_process", "fivetowers/compat/asyncssh.py", "asyncssh", ASYNCSSH,
               ("SSHServerProcess.__init__ (positional)",),
               "asyncssh lets a server choose its SSHServerProcess class"),
)
