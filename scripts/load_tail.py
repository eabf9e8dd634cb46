"""What the slowest keys of a load test waited behind: the serving loop's stalls by cause.

    FIVETOWERS_STALLS=50 LOADTEST_TIMES=keys.txt \\
        python scripts/loadtest_ssh.py --sessions 100 --seconds 60 2> server.err
    python scripts/load_tail.py keys.txt server.err [--share 0.01]

``keys.txt`` (``LOADTEST_TIMES``): one measured key a line, seconds into the
measurement, key-to-every-screen ms, the wall-clock time it was pressed and
what it was ("bid by ld012"). ``server.err``: the server's stall log
(``FIVETOWERS_STALLS``, fivetowers/server/stalls.py), one block a stall,
starting "loop stall N ms at WALL (gc G ms, ...): CULPRIT" with the stack
its longest callback's samples share below. The tail is the slowest
``--share`` of the keys (1%: the keys at and above p99). For each cause it sums, over the tail's keys, how much
of each key's wait the stalls of that cause covered (a stall overlapping a
key's wait counts for the overlap), and says how many tail keys it touched.

A stall of the collector's settle, or mostly a collection with the
settle among its callbacks, is the collector's (mostly a collection
without it: "a collection inside a callback", the interpreter's own); one
whose longest callback was under half of it is "a queue of short
callbacks" (the loop saturated: many callbacks in turn); any other is
given the first cause of ``CAUSES`` whose words its first line or its
longest callback's stack holds: game ends and rematches (end screens, the
next game, spectators coming and going), session starts, the lobby, hint
and bot results, SSH writes; whatever is left is the screens' redraws
after moves. Waits no stall covered are "not in a stall" (the loop busy in
stretches shorter than the threshold, or the keys' own round trip).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

STALL = re.compile(r"^loop stall (\d+) ms at ([0-9.]+) \(gc (\d+) ms"
                   r"(?:.*?the longest ~(\d+) ms)?")
BRANCH = re.compile(r"^ +\d+x ")
"""Where the samples went past the shared stack ("3x A > B"): not the cause."""

CAUSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("collector's settle or reclaim", ("QuietCollector",)),
    ("collection inside a callback", ()),  # by its gc share, not by words
    ("game end or rematch", ("EndScreen", "next_game", "play_again", "back_to_lobby",
                             "open_table", "WaitingScreen", "_on_screen_resume")),
    ("session start", ("app_started", "run_async", "_process_messages[LobbyApp]",
                       "LobbyApp._on_compose", "socket.accept", "Session.")),
    ("lobby", ("LobbyScreen", "Lobby.", "TableList")),
    ("hint or bot result", ("Workers.", "hint", "advice", "_bot_turns")),
    ("SSH writes", ("SSHConnection", "send_packet", "Connection._send")),
)
QUEUE = "a queue of short callbacks"
"""A stall whose longest callback was under half of it: many callbacks in
turn (the loop saturated), not one long step; its culprit says little."""
REDRAWS = "redraws after moves"
OUTSIDE = "not in a stall"


@dataclass
class Stall:
    at: float
    """Wall-clock seconds the loop last beat before it."""
    ms: float
    gc_ms: float
    longest_ms: float
    """Its longest callback's length (the stall's if not said)."""
    text: str
    """Its first line and the stack of its longest callback (not the other
    callbacks' lines: a stall of many short redraws names them all)."""
    others: str = ""
    """Its "other callbacks" line."""

    @property
    def cause(self) -> str:
        # Collections first: no sample is taken while one holds the
        # interpreter, so the "longest" callback around it says little. A
        # stall mostly in a collection is the collector's if its settle was
        # among the stall's callbacks (its full collection after a reclaim).
        collector, inside = CAUSES[0], CAUSES[1][0]
        if any(word in self.text for word in collector[1]):
            return collector[0]
        if self.gc_ms * 2 > self.ms:
            return collector[0] if "QuietCollector" in self.others else inside
        if self.longest_ms * 2 < self.ms:
            return QUEUE
        for name, words in CAUSES[2:]:
            if any(word in self.text for word in words):
                return name
        return REDRAWS


@dataclass
class Key:
    wall: float
    """Wall-clock seconds it was pressed."""
    ms: float
    what: str


def read_stalls(lines: list[str]) -> list[Stall]:
    stalls: list[Stall] = []
    block: list[str] = []
    head: re.Match[str] | None = None
    others = ""

    def close() -> None:
        if head is not None:
            ms = float(head.group(1))
            longest = float(head.group(4)) if head.group(4) else ms
            stalls.append(Stall(float(head.group(2)), ms, float(head.group(3)), longest,
                                "\n".join(block), others))

    for line in lines:
        if (match := STALL.match(line)) is not None:
            close()
            head, block, others = match, [line], ""
        elif head is not None and line.startswith(" "):
            if line.startswith("    ") and not BRANCH.match(line):
                block.append(line)  # the longest callback's stack
            elif line.lstrip().startswith("other callbacks"):
                others = line
        else:  # a log line or the summary: the block is over
            close()
            head, block, others = None, [], ""
    close()
    return stalls


def read_keys(lines: list[str]) -> list[Key]:
    """``LOADTEST_TIMES``'s lines that carry a wall-clock time (older files
    had only the first two columns)."""
    keys = []
    for line in lines:
        parts = line.split(maxsplit=3)
        if len(parts) >= 3:
            keys.append(Key(float(parts[2]), float(parts[1]), parts[3] if len(parts) > 3 else ""))
    return keys


def tail(keys: list[Key], share: float) -> list[Key]:
    """The slowest ``share`` of the keys (at least one)."""
    ordered = sorted(keys, key=lambda key: key.ms, reverse=True)
    return ordered[:max(1, round(len(ordered) * share))] if ordered else []


def blame(keys: list[Key], stalls: list[Stall]) -> dict[str, tuple[int, float]]:
    """Each cause: (tail keys it touched, ms of their waits it covered)."""
    found: dict[str, tuple[int, float]] = {}
    for key in keys:
        start, end = key.wall, key.wall + key.ms / 1000
        covered: dict[str, float] = {}
        for stall in stalls:
            overlap = min(end, stall.at + stall.ms / 1000) - max(start, stall.at)
            if overlap > 0:
                covered[stall.cause] = covered.get(stall.cause, 0.0) + overlap * 1000
        covered[OUTSIDE] = max(0.0, key.ms - sum(covered.values()))
        for cause, ms in covered.items():
            touched, total = found.get(cause, (0, 0.0))
            found[cause] = (touched + (ms > 0), total + ms)
    return found


def report(keys: list[Key], stalls: list[Stall], share: float) -> str:
    slow = tail(keys, share)
    if not slow:
        return "no keys with wall-clock times (LOADTEST_TIMES from this version of the load test)"
    waited = sum(key.ms for key in slow)
    lines = [f"{len(slow)} slowest keys of {len(keys)} (>= {slow[-1].ms:.0f} ms), "
             f"{waited:.0f} ms of waits; {len(stalls)} stalls in the log"]
    found = blame(slow, stalls)
    for cause, (touched, ms) in sorted(found.items(), key=lambda item: -item[1][1]):
        lines.append(f"  {cause:32s} {ms:8.0f} ms ({ms / waited:4.0%}), {touched} keys")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("keys", type=Path, help="LOADTEST_TIMES's file")
    parser.add_argument("stalls", type=Path, help="the server's stderr with FIVETOWERS_STALLS")
    parser.add_argument("--share", type=float, default=0.01,
                        help="the slowest share of the keys to explain (0.01: p99 and up)")
    args = parser.parse_args(argv)
    keys = read_keys(args.keys.read_text(encoding="utf-8").splitlines())
    stalls = read_stalls(args.stalls.read_text(encoding="utf-8", errors="replace").splitlines())
    print(report(keys, stalls, args.share))
    return 0


if __name__ == "__main__":
    sys.exit(main())
