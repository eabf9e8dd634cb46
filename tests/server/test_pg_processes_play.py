"""``fivetowers serve --processes 2`` as a host runs it: two OS processes on
one port and one throwaway PostgreSQL. Real SSH clients connect until they
have a session on each process (each process names itself in its SSH
version string); a player on each sits at one table, they play moves that
reach the other process's screen, and chat crosses."""

from __future__ import annotations

import asyncio
import re
import signal
import time
from pathlib import Path

import asyncssh
import pytest

from fivetowers.server.process_name import process_of

from tests.server.server_helpers import Screen, serve_processes
from tests.server.test_lobby_game import _act

MOVE = re.compile(r"(?:ann|bob|Hedda \(bot\)): (?:bid \d+|pass)")
"""A bid or a pass in the table's log, as every screen at it shows it."""


async def _on_process(port: int, username: str, key: asyncssh.SSHKey, wanted: set[int]
                      ) -> tuple[asyncssh.SSHClientConnection, int]:
    """A connection (as ``username``) that reached one of the ``wanted``
    processes: the kernel picks, so connect again until it picks one."""
    for _ in range(100):
        conn = await asyncssh.connect("127.0.0.1", port, username=username, known_hosts=None,
                                      client_keys=[key], agent_path=None)
        process = process_of(conn.get_extra_info("server_version"))
        assert process in (1, 2), conn.get_extra_info("server_version")
        if process in wanted:
            return conn, process
        conn.close()
        await conn.wait_closed()
    raise AssertionError(f"100 connections never reached process {wanted}")


def _moves(screen: Screen) -> list[str]:
    return MOVE.findall(screen.text)


@pytest.mark.slow
async def test_players_on_two_serve_processes_play_one_table_and_chat(
        postgres_url: str, tmp_path: Path) -> None:
    server, port = await serve_processes(postgres_url, tmp_path)
    assert server.stdout is not None
    conns: list[asyncssh.SSHClientConnection] = []
    try:
        serving: list[str] = []
        while len(serving) < 2:  # each process says which it is in its banner
            line = (await asyncio.wait_for(server.stdout.readline(), 120)).decode()
            assert line, "the server stopped before both processes listened"
            if "serving on" in line:
                serving.append(line)
        assert sorted(re.findall(r"\(process (\d)\)", "".join(serving))) == ["1", "2"]

        ann_conn, ann_at = await _on_process(port, "ann", asyncssh.generate_private_key(
            "ssh-ed25519"), {1, 2})
        bob_conn, bob_at = await _on_process(port, "bob", asyncssh.generate_private_key(
            "ssh-ed25519"), {3 - ann_at})
        conns += [ann_conn, bob_conn]
        assert {ann_at, bob_at} == {1, 2}

        # ann opens a table on her process (3 seats, one a bot); bob, on the
        # other, sits at it from his lobby while it is still forming.
        ann = await Screen.open(ann_conn, 100, 30)
        await ann.wait_for("lobby — you are ann")
        ann.press(b"n")
        await ann.wait_for("New table")
        ann.press(b"Duel\r")
        await ann.wait_for("Waiting for 1 player")
        found = re.search(r"Table ([A-Z0-9]{4,})\b", ann.text)
        assert found is not None, ann.text
        bob = await Screen.open(bob_conn, 100, 30)
        await bob.wait_for(found.group(1))  # listed on bob's process: told through PostgreSQL
        bob.press(b"\r")  # sit at it (the only table)
        await bob.wait_for("bob — your towers", timeout=60)
        await ann.wait_for("ann — your towers", timeout=60)

        # Each plays a few moves; a turn comes on the other process only
        # once the move before it crossed, and both show the same log.
        played = {"ann": 0, "bob": 0}
        deadline = time.monotonic() + 180
        while min(played.values()) < 2:
            assert time.monotonic() < deadline, f"moves did not cross:\n{ann.text}\n{bob.text}"
            for name, screen in (("ann", ann), ("bob", bob)):
                if await _act(screen):
                    played[name] += 1
            await asyncio.sleep(0.05)
        await bob.wait_until(lambda: _moves(bob) == _moves(ann) and len(_moves(bob)) >= 2,
                             "the same moves on both processes' screens", timeout=60)

        # Chat crosses, both ways.
        bob.press(b"c")
        await bob.wait_for("Say to the table")
        bob.press(b"hi ann\r")
        for screen in (ann, bob):
            await screen.wait_for("bob: hi ann")
        ann.press(b"c")
        await ann.wait_for("Say to the table")
        ann.press(b"hi bob\r")
        for screen in (ann, bob):
            await screen.wait_for("ann: hi bob")
    finally:
        for conn in conns:
            conn.close()
        server.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(server.communicate(), 60)
    assert server.returncode == 0, err.decode()[-3000:]
    assert "Traceback" not in err.decode(), err.decode()[-3000:]
    log = err.decode()
    assert "process 1 INFO" in log and "process 2 INFO" in log  # whose log line is whose
