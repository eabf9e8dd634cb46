"""The server's cost of sending one screen update over SSH, with and without
``compat.ignore_packets`` (asyncssh's SSH_MSG_IGNORE before each packet).

    python scripts/bench_ssh_writes.py [--frames 400] [--size 3700] [--cipher NAME]

A real asyncssh server and client on 127.0.0.1 in this process; the
server's session writes ``--frames`` updates of ``--size`` bytes (the
realistic bench's bytes per write, scripts/bench_sessions.py) to its
stdout, one at a time, each drained by the client before the next, as a
screen's frames go out. Prints per update: the server's SSH packets, bytes
on the wire, Python calls in the write (machine-independent) and CPU time
(the whole process, both ends; noisy on a busy machine), for asyncssh's own
``send_packet`` and for the workaround, and their ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncssh  # noqa: E402
from asyncssh.connection import SSHConnection, SSHServerConnection  # noqa: E402

from fivetowers.compat.ignore_packets import no_ignore_packets_with_aead  # noqa: E402


class Open(asyncssh.SSHServer):
    def begin_auth(self, username: str) -> bool:
        return False


async def run(frames: int, size: int, cipher: str) -> tuple[dict[str, float], bytes]:
    """The server's figures per update (packets, bytes, calls, cpu_us) and
    what the client read."""
    sent: list[int] = []
    upstream_send = SSHConnection._send

    def counting(self: SSHConnection, data: bytes) -> None:
        if isinstance(self, SSHServerConnection):
            sent.append(len(data))
        upstream_send(self, data)

    calls = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    figures: dict[str, float] = {}
    unit = b"\x1b[38;5;123mframe \x1b[0m"
    frame = (unit * (size // len(unit) + 1))[:size]

    async def session(process: asyncssh.SSHServerProcess[bytes]) -> None:
        nonlocal calls
        await process.stdout.drain()
        packets, on_wire, cpu = len(sent), sum(sent), time.process_time()
        calls = 0
        for _ in range(frames):
            sys.setprofile(profile)
            process.stdout.write(frame)
            sys.setprofile(None)
            await process.stdout.drain()
            await asyncio.sleep(0)  # the client reads it
        figures.update(packets=(len(sent) - packets) / frames,
                       bytes=(sum(sent) - on_wire) / frames, calls=calls / frames,
                       cpu_us=(time.process_time() - cpu) / frames * 1e6)
        process.exit(0)

    SSHConnection._send = counting  # type: ignore[method-assign]
    try:
        server = await asyncssh.create_server(
            Open, "127.0.0.1", 0, server_host_keys=[asyncssh.generate_private_key("ssh-ed25519")],
            process_factory=session, encoding=None, encryption_algs=[cipher])
        port = server.sockets[0].getsockname()[1]
        async with asyncssh.connect("127.0.0.1", port, username="ann", known_hosts=None,
                                    client_keys=None, encryption_algs=[cipher]) as conn:
            result = await conn.run(encoding=None)
        server.close()
        await server.wait_closed()
    finally:
        SSHConnection._send = upstream_send  # type: ignore[method-assign]
    out: Any = result.stdout
    return figures, bytes(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=400)
    parser.add_argument("--size", type=int, default=3700)
    parser.add_argument("--cipher", default="chacha20-poly1305@openssh.com")
    args = parser.parse_args()
    theirs, read = asyncio.run(run(args.frames, args.size, args.cipher))
    assert no_ignore_packets_with_aead(), "asyncssh's send_packet changed: nothing to compare"
    ours, our_read = asyncio.run(run(args.frames, args.size, args.cipher))
    assert our_read == read
    print(f"{args.frames} updates of {args.size} bytes, {args.cipher}; per update:")
    for name, figures in (("asyncssh", theirs), ("no ignore packets", ours)):
        print(f"  {name:18s} {figures['packets']:.2f} packets, {figures['bytes']:.0f} bytes, "
              f"{figures['calls']:.0f} Python calls in the write, {figures['cpu_us']:.0f} µs CPU"
              " (both ends; busy machine: noisy)")
    print("  ratios: " + ", ".join(f"{key} {ours[key] / theirs[key]:.2f}x" for key in theirs))


if __name__ == "__main__":
    main()
