"""``fivetowers serve --processes N``: N servers on one port sharing the
PostgreSQL store and one host key; refused in one line with SQLite."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import asyncssh
import pytest

from fivetowers.cli import main

from tests.server.server_helpers import serve_processes


def test_processes_with_the_sqlite_store_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FIVETOWERS_STORE", raising=False)
    code = main(["serve", "--processes", "2", "--port", "0", "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "--processes needs the PostgreSQL store" in err
    assert not (tmp_path / "ssh_host_ed25519_key").exists()  # nothing started


async def test_two_processes_share_one_port_and_one_host_key(
        postgres_url: str, tmp_path: Path) -> None:
    server, port = await serve_processes(postgres_url, tmp_path)
    assert server.stdout is not None
    try:
        keys: list[str] = []
        while len(keys) < 2:  # each child prints its own banner
            line = (await asyncio.wait_for(server.stdout.readline(), 120)).decode()
            assert line, "the server stopped before both processes listened"
            if "host key fingerprint:" in line:
                keys.append(line.split(":", 1)[1].strip())
        assert keys[0] == keys[1]  # one host key for both
        player = asyncssh.generate_private_key("ssh-ed25519")
        for _ in range(4):  # every connection is served, whichever process takes it
            async with asyncssh.connect("127.0.0.1", port, username="p", client_keys=[player],
                                        known_hosts=None) as conn:
                assert conn.get_server_host_key() is not None
                assert conn.get_server_host_key().get_fingerprint("sha256") == keys[0]
    finally:
        server.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(server.communicate(), 60)
    assert server.returncode == 0, err.decode()
    assert "Traceback" not in err.decode()


def test_a_process_of_many_names_itself_in_its_ssh_version_and_log() -> None:
    import io
    import logging

    from fivetowers.server.process_name import process_of, server_version
    from fivetowers.server.serve import configure_logging

    assert process_of("SSH-2.0-" + server_version(2)) == 2
    assert process_of("SSH-2.0-" + server_version(None)) is None  # one process says nothing
    assert server_version(None) == f"AsyncSSH_{asyncssh.__version__}"
    assert process_of(None) is None and process_of("SSH-2.0-OpenSSH_9.6") is None
    out = io.StringIO()
    logger = logging.getLogger("fivetowers")
    asyncssh_logger = logging.getLogger("asyncssh")
    handlers = list(logger.handlers)
    # configure_logging is the server's, for its whole process: what it sets
    # is put back, or later tests in this worker (caplog) hear no log lines.
    kept = (logger.level, logger.propagate, asyncssh_logger.level)
    try:
        configure_logging(out, 3)
        logging.getLogger("fivetowers.server").info("serving")
    finally:
        for handler in logger.handlers[len(handlers):]:
            logger.removeHandler(handler)
            asyncssh_logger.removeHandler(handler)
        logger.level, logger.propagate, asyncssh_logger.level = kept
    assert " process 3 INFO serving" in out.getvalue()

