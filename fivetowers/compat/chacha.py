"""chacha20-poly1305 packets with one ChaCha20 keystream for the key and the
payload, from a context made once per key (checked against asyncssh 2.24.1).

See :func:`one_keystream_per_packet`; ``tests/compat/test_chacha.py`` pins it down.
"""

from __future__ import annotations

from typing import Any, Callable

from asyncssh.crypto import chacha
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.ciphers import Cipher
from cryptography.hazmat.primitives.ciphers.algorithms import ChaCha20
from cryptography.hazmat.primitives.poly1305 import Poly1305

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

ASYNCSSH = "2.24.1"
"""The asyncssh version the cipher was read in."""

UPSTREAM_SOURCE = "3bd42862e417f285"
"""The first 16 hex digits of the SHA-256 of the source of asyncssh's
``crypto/chacha.py``: the methods below compute what its methods compute
only while it is that code."""

_BLOCK_ZERO = bytes(64)
"""ChaCha20's first block, encrypted to give the Poly1305 key (its first 32 bytes)."""

_upstream: dict[str, Callable[..., Any]] = {}


def upstream_source_digest() -> str:
    """The digest of asyncssh's chacha module, as UPSTREAM_SOURCE records it."""
    return source_digest(chacha)


_COUNTER_ZERO = bytes(8)
"""ChaCha20's block counter at 0, as asyncssh's ``chacha20`` puts it before the nonce."""
_STREAMS = "_fivetowers_keystreams"
"""The attribute of a ChachaCipher that holds its two ChaCha20 contexts."""


def _keystream(self: chacha.ChachaCipher, payload: bool, data: bytes, nonce: bytes) -> bytes:
    """``chacha.chacha20(key, data, nonce, 0)`` for the cipher's payload key
    (else its length key), from a context made once per key and reset to
    the nonce (the same bytes: ChaCha20 from block 0 of that key and nonce)."""
    streams: Any = self.__dict__.get(_STREAMS)
    if streams is None:
        streams = (Cipher(ChaCha20(self._adkey, bytes(16)), mode=None).encryptor(),
                   Cipher(ChaCha20(self._key, bytes(16)), mode=None).encryptor())
        setattr(self, _STREAMS, streams)
    stream = streams[payload]
    stream.reset_nonce(_COUNTER_ZERO + nonce)
    return bytes(stream.update(data))


def _encrypt_and_sign(self: chacha.ChachaCipher, header: bytes, data: bytes,
                      nonce: bytes) -> tuple[bytes, bytes]:
    header = _keystream(self, False, header, nonce)
    stream = _keystream(self, True, _BLOCK_ZERO + data, nonce)
    data = stream[64:]
    return header + data, Poly1305.generate_tag(stream[:32], header + data)


def _decrypt_header(self: chacha.ChachaCipher, header: bytes, nonce: bytes) -> bytes:
    return _keystream(self, False, header, nonce)


def _verify_and_decrypt(self: chacha.ChachaCipher, header: bytes, data: bytes,
                        nonce: bytes, tag: bytes) -> bytes | None:
    stream = _keystream(self, True, _BLOCK_ZERO + data, nonce)
    try:
        Poly1305.verify_tag(stream[:32], header + data, tag)
    except InvalidSignature:
        return None  # the decrypted bytes are dropped unseen, as upstream never makes them
    return stream[64:]


def one_keystream_per_packet() -> bool:
    """Make each chacha20-poly1305 packet take one ChaCha20 run less; True if it does.

    OpenSSH's chacha20-poly1305 (PROTOCOL.chacha20poly1305) takes the
    Poly1305 key from ChaCha20's block 0 and encrypts the payload from block
    1 on, under the same key and nonce. asyncssh's ``ChachaCipher`` makes a
    ChaCha20 cipher for each (``Cipher(ChaCha20(...)).encryptor()``: a few
    Python layers and an OpenSSL context each time), so every packet sent
    or received ran three ChaCha20 setups (length, Poly1305 key, payload):
    ~6% of a session start's server CPU, and a share of every screen update
    sent. These methods run block 0 and the payload as one keystream from
    counter 0: the same bytes, the same tag, the same checks (a packet whose
    tag is wrong is refused, its decryption dropped), two runs a packet.
    And a run needs no new cipher: each key's ChaCha20 context is made once
    per connection and reset to the packet's nonce (``reset_nonce``,
    cryptography 43 and later; before, the methods are left as asyncssh has
    them): the same keystream, 3-4 µs a run where a new context took some
    30 Python calls and 25 µs (64 runs in a lobby start: ~6% of its Python
    calls). The cipher and the key exchange are unchanged. Installed only while
    asyncssh's chacha module is the source read (its digest is recorded).
    Retire it when asyncssh derives the Poly1305 key and the payload in one
    run: not reported upstream yet.
    """
    if _upstream:
        return True
    if not source_unchanged(upstream_source_digest(), UPSTREAM_SOURCE, "asyncssh's "
                            "chacha20-poly1305 changed: each packet runs ChaCha20 three times"):
        return False
    if not hasattr(Cipher(ChaCha20(bytes(32), bytes(16)), mode=None).encryptor(),
                   "reset_nonce"):  # (cryptography before 43)
        return False
    for name, method in (("encrypt_and_sign", _encrypt_and_sign),
                         ("decrypt_header", _decrypt_header),
                         ("verify_and_decrypt", _verify_and_decrypt)):
        _upstream[name] = getattr(chacha.ChachaCipher, name)
        setattr(chacha.ChachaCipher, name, method)
    return True


def upstream_chacha_method(name: str) -> Callable[..., Any]:
    """``ChachaCipher``'s method ``name`` as asyncssh has it (for tests)."""
    return _upstream.get(name) or getattr(chacha.ChachaCipher, name)


WORKAROUNDS = (
    Workaround("one_keystream_per_packet", "fivetowers/compat/chacha.py", "asyncssh", ASYNCSSH,
               ("asyncssh.crypto.chacha", "ChachaCipher._key", "ChachaCipher._adkey",
                "ChachaCipher.decrypt_header"),
               "asyncssh derives the Poly1305 key and the payload in one ChaCha20 run"),
)
