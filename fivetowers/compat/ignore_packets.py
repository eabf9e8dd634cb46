"""No SSH_MSG_IGNORE before each packet under an AEAD cipher (checked against
asyncssh 2.24.1).

See :func:`no_ignore_packets_with_aead`; ``tests/compat/test_ignore_packets.py``
pins it down.
"""

from __future__ import annotations

from typing import Any, Callable

from asyncssh.connection import SSHConnection
from asyncssh.constants import MSG_IGNORE, MSG_KEX_LAST
from asyncssh.encryption import ChachaEncryption, GCMEncryption

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

ASYNCSSH = "2.24.1"
"""The asyncssh version the method was read in."""

UPSTREAM_SOURCE = "fb9da7bec6dd395a"
"""The first 16 hex digits of the SHA-256 of ``SSHConnection.send_packet``'s
source: the wrapper below skips the one ignore packet it sends first only
while it is that code."""

AEAD = (ChachaEncryption, GCMEncryption)
"""Ciphers whose packets carry no state from one packet to the next that an
attacker could exploit (each packet its own nonce): the ignore packet is
the countermeasure for CBC's chained IV, needless with these."""

_SKIPPING = "_fivetowers_skip_ignore"
"""The connection's attribute set while its next ignore packet is skipped."""

_upstream: dict[str, Callable[..., Any]] = {}


def upstream_source_digest() -> str:
    """The digest of asyncssh's ``send_packet``, as UPSTREAM_SOURCE records it."""
    return source_digest(_upstream.get("send_packet", SSHConnection.send_packet))


def _send_packet(self: SSHConnection, pkttype: int, *args: bytes,
                 handler: Any = None) -> None:
    state = self.__dict__
    if pkttype == MSG_IGNORE and state.get(_SKIPPING):
        state[_SKIPPING] = False  # the one upstream sends first: skipped
        return
    if pkttype > MSG_KEX_LAST and isinstance(self._send_encryption, AEAD):
        state[_SKIPPING] = True
        try:
            _upstream["send_packet"](self, pkttype, *args, handler=handler)
        finally:
            state[_SKIPPING] = False
        return
    _upstream["send_packet"](self, pkttype, *args, handler=handler)


def no_ignore_packets_with_aead() -> bool:
    """Send each SSH packet without an ignore packet before it under
    chacha20-poly1305 or AES-GCM; True if installed.

    asyncssh's ``send_packet`` sends an empty SSH_MSG_IGNORE before every
    packet past the key exchange once the connection is encrypted (RFC
    4251 9.3.1's countermeasure for CBC ciphers, whose next packet's IV an
    attacker can know): every screen update went out as two packets, two
    encryptions, two random paddings and two socket writes (one system
    call each, loopback's receive side on the sender's CPU too), 36 more
    bytes an update. Under an AEAD cipher (each packet its own nonce, no
    chained IV; OpenSSH sends no such packet) it is skipped: one packet an
    update. CBC and CTR connections are left as asyncssh has them.
    Installed only while asyncssh's ``send_packet`` is the source read (its
    digest is recorded). Retire it when asyncssh sends the ignore packet
    only for CBC ciphers: not reported upstream yet.
    """
    if _upstream:
        return True
    if not source_unchanged(upstream_source_digest(), UPSTREAM_SOURCE, "asyncssh's "
                            "send_packet changed: an ignore packet goes before each packet"):
        return False
    _upstream["send_packet"] = SSHConnection.send_packet
    SSHConnection.send_packet = _send_packet  # type: ignore[method-assign]
    return True


def upstream_send_packet() -> Callable[..., Any]:
    """``SSHConnection.send_packet`` as asyncssh has it (for tests)."""
    return _upstream.get("send_packet") or SSHConnection.send_packet


WORKAROUNDS = (
    Workaround("no_ignore_packets_with_aead", "fivetowers/compat/ignore_packets.py", "asyncssh",
               ASYNCSSH, ("asyncssh.connection.SSHConnection.send_packet",
                          "SSHConnection._send_encryption", "asyncssh.encryption.ChachaEncryption",
                          "asyncssh.encryption.GCMEncryption"),
               "asyncssh sends SSH_MSG_IGNORE before a packet only under CBC ciphers"),
)
"""What a workaround of a library's internals was checked against."""
