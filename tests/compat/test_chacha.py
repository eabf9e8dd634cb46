"""one_keystream_per_packet: the same chacha20-poly1305 packets, one ChaCha20 run less."""

from __future__ import annotations

import os
from typing import Any

import pytest
from asyncssh.crypto import chacha

import fivetowers.compat.chacha as compat_chacha
from fivetowers.compat.chacha import (UPSTREAM_SOURCE, one_keystream_per_packet,
                                      upstream_chacha_method, upstream_source_digest)
from tests.compat.calls import python_calls

SIZES = [0, 1, 31, 32, 63, 64, 65, 200, 4096, 32768 + 7]


def test_the_cipher_replayed_is_asyncssh_s() -> None:
    assert upstream_source_digest() == UPSTREAM_SOURCE, (
        "asyncssh's crypto/chacha.py changed: re-read it, update compat/chacha.py "
        "and its digest")


@pytest.mark.parametrize("size", SIZES)
def test_packets_are_the_bytes_and_tags_upstream_makes(size: int) -> None:
    assert one_keystream_per_packet()
    cipher = chacha.ChachaCipher(os.urandom(64))
    header, data, nonce = os.urandom(4), os.urandom(size), os.urandom(8)
    sealed = cipher.encrypt_and_sign(header, data, nonce)
    assert sealed == upstream_chacha_method("encrypt_and_sign")(cipher, header, data, nonce)
    (packet, tag) = sealed
    upstream_open = upstream_chacha_method("verify_and_decrypt")
    assert cipher.verify_and_decrypt(packet[:4], packet[4:], nonce, tag) == data
    assert upstream_open(cipher, packet[:4], packet[4:], nonce, tag) == data
    assert cipher.decrypt_header(packet[:4], nonce) == header


@pytest.mark.parametrize("spoil", ["tag", "header", "data", "nonce"])
def test_a_spoiled_packet_is_refused_as_upstream_refuses_it(spoil: str) -> None:
    assert one_keystream_per_packet()
    cipher = chacha.ChachaCipher(os.urandom(64))
    nonce = os.urandom(8)
    packet, tag = cipher.encrypt_and_sign(os.urandom(4), os.urandom(100), nonce)
    header, data = packet[:4], packet[4:]
    flip = {"tag": lambda: (header, data, nonce, bytes([tag[0] ^ 1]) + tag[1:]),
            "header": lambda: (bytes([header[0] ^ 1]) + header[1:], data, nonce, tag),
            "data": lambda: (header, data[:-1] + bytes([data[-1] ^ 1]), nonce, tag),
            "nonce": lambda: (header, data, os.urandom(8), tag)}[spoil]()
    assert upstream_chacha_method("verify_and_decrypt")(cipher, *flip) is None
    assert cipher.verify_and_decrypt(*flip) is None


def test_a_packet_takes_two_chacha20_runs_each_way(monkeypatch: pytest.MonkeyPatch) -> None:
    assert one_keystream_per_packet()
    runs = 0
    run = compat_chacha._keystream
    upstream_run = chacha.chacha20

    def counted(*args: Any) -> bytes:
        nonlocal runs
        runs += 1
        return run(*args)  # type: ignore[arg-type]

    def upstream_counted(*args: Any) -> bytes:
        nonlocal runs
        runs += 1
        return upstream_run(*args)

    monkeypatch.setattr(compat_chacha, "_keystream", counted)
    monkeypatch.setattr(chacha, "chacha20", upstream_counted)
    cipher = chacha.ChachaCipher(os.urandom(64))
    nonce = os.urandom(8)
    packet, tag = cipher.encrypt_and_sign(os.urandom(4), os.urandom(100), nonce)
    assert runs == 2
    cipher.decrypt_header(packet[:4], nonce)
    cipher.verify_and_decrypt(packet[:4], packet[4:], nonce, tag)
    assert runs == 4
    upstream_chacha_method("encrypt_and_sign")(cipher, os.urandom(4), b"x", nonce)
    assert runs == 7  # asyncssh's own: three


def test_a_connection_s_packets_make_no_new_cipher_each() -> None:
    """Each key's ChaCha20 context is made once and reset to each packet's
    nonce: a packet after the first makes no Cipher (asyncssh's made two or
    three, some 30 Python calls each), and every packet is still upstream's."""
    assert one_keystream_per_packet()
    cipher = chacha.ChachaCipher(os.urandom(64))
    upstream_seal = upstream_chacha_method("encrypt_and_sign")
    upstream_open = upstream_chacha_method("verify_and_decrypt")
    cipher.encrypt_and_sign(os.urandom(4), os.urandom(10), os.urandom(8))
    for seq in range(5):
        nonce, header, data = seq.to_bytes(8, "big"), os.urandom(4), os.urandom(50 * seq)
        sealed = cipher.encrypt_and_sign(header, data, nonce)
        assert sealed == upstream_seal(cipher, header, data, nonce)
        packet, tag = sealed
        assert cipher.decrypt_header(packet[:4], nonce) == header
        assert cipher.verify_and_decrypt(packet[:4], packet[4:], nonce, tag) == data
        assert upstream_open(cipher, packet[:4], packet[4:], nonce, tag) == data
    nonce, header, data = os.urandom(8), os.urandom(4), os.urandom(200)
    ours = python_calls(lambda: cipher.encrypt_and_sign(header, data, nonce))
    theirs = python_calls(lambda: upstream_seal(cipher, header, data, nonce))
    assert ours <= 8 and theirs > 40, (ours, theirs)


def test_a_changed_cipher_is_left_alone(monkeypatch: pytest.MonkeyPatch,
                                        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(compat_chacha, "_upstream", {})
    monkeypatch.setattr(compat_chacha, "UPSTREAM_SOURCE", "changed")
    before = chacha.ChachaCipher.encrypt_and_sign
    assert not one_keystream_per_packet()
    assert chacha.ChachaCipher.encrypt_and_sign is before
    assert "chacha20-poly1305 changed" in caplog.text
