"""SASLprep of plain ASCII names answered at once (checked against asyncssh 2.24.1).

See :func:`ascii_names_prepared_at_once`; ``tests/compat/test_saslprep.py`` pins it down.
"""

from __future__ import annotations

from typing import Callable

from asyncssh import auth, connection, saslprep

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

ASYNCSSH = "2.24.1"
"""The asyncssh version the profile was read in."""

UPSTREAM_SOURCE = "b2f8c2c78b58d736"
"""The first 16 hex digits of the SHA-256 of the source of asyncssh's
``saslprep`` module: printable ASCII comes out of it unchanged only while it
is that code."""

_USERS = (connection, auth)
"""The modules that imported ``saslprep`` by name (each holds its own reference)."""
_upstream: Callable[[str], str] | None = None


def upstream_source_digest() -> str:
    """The digest of asyncssh's saslprep module, as UPSTREAM_SOURCE records it."""
    return source_digest(saslprep)


def _saslprep(text: str) -> str:
    assert _upstream is not None
    if text.isascii() and text.isprintable():
        return text
    return _upstream(text)


def ascii_names_prepared_at_once() -> bool:
    """Answer SASLprep of printable ASCII text at once; True if it does.

    asyncssh runs every user name a client logs in with through SASLprep
    (RFC 4013) three times during a login (the request, the auth, the
    connection's name), each a dozen stringprep table lookups per
    character, Python functions all: about 1.5% of the Python calls of a
    lobby session's start. Printable ASCII (U+0020 to U+007E, what
    ``str.isascii() and str.isprintable()`` accept) is in none of the
    tables that map (B.1, C.1.2), prohibit (C.1.2 to C.9) or make a
    string right-to-left (D.1), is assigned (A.1) and is its own NFKC
    form, so SASLprep returns it unchanged: such text is returned at once;
    any other goes through asyncssh's ``saslprep`` as before, errors and
    all. Installed only while asyncssh's module is the code read (its
    digest is recorded). Retire it when asyncssh has an ASCII fast path:
    not reported upstream yet.
    """
    global _upstream
    if _upstream is not None:
        return True
    if not source_unchanged(upstream_source_digest(), UPSTREAM_SOURCE, "asyncssh's saslprep "
                            "changed: each login's name goes through every stringprep table"):
        return False
    _upstream = saslprep.saslprep
    if any(getattr(user, "saslprep", None) is not _upstream for user in _USERS):
        _upstream = None  # imported otherwise than read: left as it is
        return False
    for user in _USERS:
        setattr(user, "saslprep", _saslprep)
    return True


def upstream_saslprep() -> Callable[[str], str]:
    """asyncssh's ``saslprep`` (for tests)."""
    return _upstream or saslprep.saslprep


WORKAROUNDS = (
    Workaround("ascii_names_prepared_at_once", "fivetowers/compat/saslprep.py", "asyncssh",
               ASYNCSSH, ("asyncssh.connection.saslprep", "asyncssh.auth.saslprep"),
               "asyncssh answers SASLprep of printable ASCII without the stringprep tables"),
)
