"""No SSH_MSG_IGNORE before each packet under AEAD ciphers (compat.ignore_packets)."""

from __future__ import annotations

import asyncio

import pytest
from asyncssh.connection import SSHConnection

from fivetowers.compat import ignore_packets
from fivetowers.compat.ignore_packets import (UPSTREAM_SOURCE, no_ignore_packets_with_aead,
                                              upstream_send_packet, upstream_source_digest)
from tests.conftest import script_module

WRITES = 5
SIZE = 480


def packets(cipher: str) -> tuple[int, int, bytes]:
    """(packets, bytes) the server sent for each of WRITES writes of SIZE
    bytes to a session's stdout (scripts/bench_ssh_writes.py's real
    connection on 127.0.0.1), and what the client read."""
    figures, read = asyncio.run(script_module("bench_ssh_writes").run(WRITES, SIZE, cipher))
    return round(figures["packets"] * WRITES), round(figures["bytes"] * WRITES), read


def test_the_method_wrapped_is_asyncssh_s() -> None:
    assert upstream_source_digest() == UPSTREAM_SOURCE


@pytest.mark.parametrize("cipher", ["chacha20-poly1305@openssh.com", "aes128-gcm@openssh.com"])
def test_an_aead_connection_sends_one_packet_a_write(cipher: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Each write to a session is one packet (asyncssh's: two, an empty
    ignore packet first); the client reads the same bytes."""
    assert no_ignore_packets_with_aead()
    sent, size, read = packets(cipher)
    assert sent == WRITES
    assert len(read) == SIZE * WRITES
    monkeypatch.setattr(SSHConnection, "send_packet", upstream_send_packet())
    their_packets, their_size, their_read = packets(cipher)
    assert their_packets == 2 * WRITES
    assert their_read == read
    assert their_size - size == WRITES * 36  # an ignore packet: 20 bytes and a 16-byte tag


def test_a_cbc_connection_keeps_its_ignore_packets() -> None:
    """CBC's countermeasure stays where it is one (a chained IV)."""
    assert no_ignore_packets_with_aead()
    sent, _, read = packets("aes128-cbc")
    assert sent == 2 * WRITES
    assert len(read) == SIZE * WRITES


def test_a_changed_method_is_left_alone(monkeypatch: pytest.MonkeyPatch,
                                        caplog: pytest.LogCaptureFixture) -> None:
    assert no_ignore_packets_with_aead()
    upstream = upstream_send_packet()  # (taken before the record of it is emptied)
    assert SSHConnection.send_packet is not upstream
    monkeypatch.setattr(ignore_packets, "_upstream", {})
    monkeypatch.setattr(ignore_packets, "UPSTREAM_SOURCE", "changed")
    monkeypatch.setattr(SSHConnection, "send_packet", upstream)
    assert not no_ignore_packets_with_aead()
    assert SSHConnection.send_packet is upstream
    assert "send_packet changed" in caplog.text
