"""What a workaround of a library's internals was checked against."""

from __future__ import annotations

import hashlib
import inspect
import logging
import platform
from dataclasses import dataclass
from functools import cache
from importlib.metadata import version
from typing import Any


@dataclass(frozen=True, slots=True)
class Workaround:
    """One reach into a library's internals, as recorded next to its code."""

    name: str
    """The function or class in fivetowers.compat that holds it."""
    module: str
    """Its module's file, for the message that asks for a re-check."""
    library: str
    """The distribution whose internals it touches (textual, rich, asyncssh),
    or "python" for the standard library."""
    checked: str
    """The library version it was read against and tested with."""
    internals: tuple[str, ...]
    """The private names it touches."""
    retire_when: str
    """The upstream change after which it can go."""


def installed_version(library: str) -> str:
    """The version of ``library`` in use ("python" for the interpreter)."""
    if library == "python":
        return platform.python_version()
    return version(library)


@cache  # an App's start asks again each time; the source of a loaded module stays
def source_digest(*code: Any) -> str:
    """The first 16 hex digits of the SHA-256 of the sources of ``code``
    (functions, classes, modules): a workaround that replays upstream's code
    records it, and is installed only while upstream is still that code."""
    try:
        source = "".join(inspect.getsource(each) for each in code)
    except (OSError, TypeError):
        return ""  # no source shipped (a .pyc-only install): nothing to check, so no workaround
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def source_unchanged(digest: str, recorded: str, changed: str) -> bool:
    """Whether ``digest`` is the one ``recorded`` (else ``changed`` is logged)."""
    if digest == recorded:
        return True
    if changed not in _warned:  # once a process, not once a session
        _warned.add(changed)
        logging.getLogger("fivetowers.server").warning(changed)
    return False


_warned: set[str] = set()
