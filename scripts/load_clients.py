"""The load test's SSH clients: players, spectators, flooders, arrivals.

No terminal emulator: each client searches the raw bytes it receives. What
a player did reaches every screen at its table as a log line ("NAME: bid 1",
"NAME: pass", "NAME: build ..."), and Textual writes a line of one style as
one run of text, so the bytes hold that text whole. A screen counts as
updated for an action when that text arrives after the key, not when just
any bytes arrive (bots move and hints arrive all the time). The game is
turn-based, so the next log line a table shows after a key is that key's
action: an older "NAME: pass" cannot show up in between.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

import asyncssh

from fivetowers.server.process_name import process_of

TERM = ("xterm-256color", (80, 24))
BID_TURN = b"YOUR TURN to bid"
BUILD_TURN = b"YOUR TURN to build"
OTHERS = (b" is bidding", b" is building", b"game over")
STARTERS = (b"(you start", b"start: no")
"""The bidding panel's "(you start: no pass)", which its 28 columns may wrap
at any of its spaces ("(you" / "start: no pass)" is common): one of these
two is whole on a line whichever space it wraps at."""
REFUSED = "✗".encode()  # the bidding panel's mark for a bid the rules refused
THINKING = b"still thinking"  # `a` before the hint is ready
LOWEST = re.compile(rb"You may bid (?:\x1b\[[0-9;]*m)*(\d+)")
ROUND = re.compile(rb"Round (\d+) ")  # the status line
ROUND_OVER = (b"nobody builds", b"the game is over")
"""Log lines that end a round. At 80x24 the log shows four lines: the key
that ends a round can scroll its own line out at once (a pass, then "nobody
builds; the display is discarded" and the next round's two reveal lines),
so a screen showing the round's end (or the next round's reveal) shows it."""
RETRY_AFTER = 3.0
"""Seconds without an answer before a key is pressed again."""
MISSED_AFTER = 10.0
"""An action no screen showed within this is counted as missed."""
END_SCREEN = b"look at the table"
"""The end screen's key line (both games: "n play again  b look at the table"):
every screen at the table shows it once the game is over, so it also shows
the key that ended the game, whose log line the end screen covers at once."""
LOBBY_TITLE = b"lobby \xe2\x80\x94 you are"
"""The lobby screen's title ("5 Towers lobby — you are NAME"): a spectator
whose ``join`` was refused stays in the lobby, which draws it; a table's
screen never shows it."""
NOT_STARTED = (b"not started yet", b"There is no table", LOBBY_TITLE)
"""What tells a spectator's ``join`` was refused (the rematch not started
yet). The lobby's "table CODE has no free seat" (a forming rematch's
seats all taken) is not a sign of it: at a running full table the same
words start the note that the spectator joins as a watcher, which a toast
may wrap. Either refusal leaves the session in the lobby, whose title is
the sign that survives any toast."""
REJOIN_AFTER = 2.0
"""Seconds a spectator waits before joining the next game (or trying again)."""
SETTLED = 1.5
"""Seconds after a spectator's first output without a refusal: it watches."""


MISS_LOG = os.environ.get("LOADTEST_MISSES", "")
HISTORY = 256 * 1024
ESCAPE = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-B]|\x1b[=>]")
CURSOR = re.compile(rb"\x1b\[(\d+);(\d+)H")


def log_miss(action: Action, now: float) -> None:
    """What each screen that missed ``action`` received since the key."""
    with open(MISS_LOG, "a", encoding="utf-8") as out:
        out.write(f"=== MISS {action.kind} by {action.actor.name} markers {action.markers} "
                  f"waited {now - action.t0:.1f}s\n")
        for viewer in action.waiting:
            role = "actor" if viewer is action.actor else (
                "seat" if isinstance(viewer, Player) else "spectator")
            since = viewer.total - action.at.get(viewer.name, viewer.total)
            got = bytes(viewer.history[-since:]) if since else b""
            text = CURSOR.sub(lambda m: b"\n@" + m.group(1) + b"," + m.group(2) + b" ", got)
            text = ESCAPE.sub(b"", text)
            out.write(f"--- {viewer.name} ({role}) got {since} bytes since the key; "
                      f"history {len(viewer.history)}\n")
            out.write(text.decode("utf-8", "replace")[-6000:] + "\n")


@dataclass(eq=False)
class Action:
    markers: tuple[bytes, ...]
    t0: float
    actor: Viewer
    waiting: set[Viewer]
    measured: bool
    kind: str = ""
    at: dict[str, int] = field(default_factory=dict)
    """Each viewer's output offset when the key was pressed (for LOADTEST_MISSES)."""
    own: tuple[bytes, ...] = ()
    """Markers only the actor's screen counts ("You bid 2": the bidding panel
    speaks to its own seat in the second person)."""
    elsewhere: float = 0.0
    """When the last screen on another process than the actor's showed it."""
    last_shown: float = 0.0
    """When the last screen so far showed it (0: none yet)."""


@dataclass
class Results:
    actor: list[float] = field(default_factory=list)
    everyone: list[float] = field(default_factory=list)
    pressed_at: list[float] = field(default_factory=list)
    """When each key of ``everyone`` was pressed (monotonic), for LOADTEST_TIMES."""
    who: list[str] = field(default_factory=list)
    """Each key of ``everyone``: its kind and who pressed it (for --slowest)."""
    kinds: dict[str, int] = field(default_factory=dict)
    """Measured actions by kind: bid, pass, build."""
    crossing: list[float] = field(default_factory=list)
    """Key-to-every-screen of the keys of ``everyone`` pressed at a table
    whose screens are on more than one server process (``--processes``)."""
    elsewhere: list[float] = field(default_factory=list)
    """For those keys: until every screen on another process than the
    actor's showed the action (issue 15's "reaches a viewer on the other")."""
    retries: int = 0
    missed: int = 0
    missed_at_end: int = 0
    """Of ``missed``: the actions still unseen when the measurement ended
    (pressed in its last seconds, mostly), not ones a screen did not show
    for ``MISSED_AFTER`` seconds mid-run."""
    since: float = float("inf")
    """Keys pressed before this (monotonic time) are not measured."""
    open: set[Action] = field(default_factory=set)

    def sweep(self, now: float, after: float = MISSED_AFTER, at_end: bool = False) -> None:
        """Actions some screen has not shown for ``after`` seconds: missed
        (``at_end``: the measurement is over). They count against p99 with
        the time waited so far (a lower bound)."""
        for action in [a for a in self.open if now - a.t0 > after]:
            if action.measured:
                self.missed += 1
                self.missed_at_end += at_end
                self.shown(action, now, " (missed at the end)" if at_end else " (missed)")
                if MISS_LOG:
                    log_miss(action, now)
            self.close(action)

    def shown(self, action: Action, now: float, note: str = "") -> None:
        """A measured action is on every screen (or counted missed) at ``now``."""
        self.everyone.append(now - action.t0)
        actor = action.actor
        if len({viewer.process for viewer in actor.table}) > 1:
            self.crossing.append(now - action.t0)
            late = any(v.process != actor.process for v in action.waiting)  # missed
            self.elsewhere.append((now if late else action.elsewhere) - action.t0)
        self.pressed_at.append(action.t0)
        self.who.append(f"{action.kind} by {action.actor.name}{note}")

    def close(self, action: Action) -> None:
        self.open.discard(action)
        for viewer in action.waiting:
            viewer.pending.discard(action)
        action.waiting.clear()


class Viewer:
    """A screen at a table: it waits for the actions of that table."""

    def __init__(self, name: str, results: Results) -> None:
        self.name = name
        self.results = results
        self.table: list[Viewer] = []
        self.process: int | None = None
        """The server process its connection reached (``--processes``)."""
        self.pending: set[Action] = set()
        self.tail = b""
        self.total = 0
        self.history = bytearray()
        self.received = asyncio.Event()
        """Set by the first output (the session is up)."""
        self.present = True
        """Its screen shows the table: actions wait for it (a spectator
        between two games is not)."""
        self.end_at = -1
        """Where in the output the last end screen showed (-1: none yet)."""
        self.turned_away_at = -1
        """Where the lobby last refused it the table (a rematch not started)."""
        self.woken = asyncio.Event()
        """Set by any output: a player looks at its screen again."""

    async def glance(self) -> None:
        """Until new output, or a quarter second (for the retry timers): no
        polling, so hundreds of screens cost this process little."""
        try:
            await asyncio.wait_for(self.woken.wait(), 0.25)
        except asyncio.TimeoutError:
            pass
        self.woken.clear()

    def expect(self, action: Action) -> None:
        self.pending.add(action)
        self.tail = b""  # bytes from before the key never count for it

    def on_output(self, data: bytes, now: float) -> None:
        scan = self.tail + data
        # The bidding panel styles the name apart from "bids 2": read as text.
        plain = ESCAPE.sub(b"", scan)
        for action in list(self.pending):
            marks = action.markers + action.own if action.actor is self else action.markers
            if any(m in scan or m in plain for m in marks):
                self.pending.discard(action)
                action.waiting.discard(self)
                action.last_shown = max(action.last_shown, now)
                if self.process != action.actor.process:
                    action.elsewhere = max(action.elsewhere, now)
                if action.measured:
                    if action.actor is self:
                        self.results.actor.append(now - action.t0)
                    if not action.waiting:
                        self.results.shown(action, now)
                if not action.waiting:
                    self.results.open.discard(action)
        base = self.total - len(self.tail)
        if (found := scan.rfind(END_SCREEN)) >= 0:
            self.end_at = base + found
        for refusal in NOT_STARTED:
            if (found := scan.rfind(refusal)) >= 0:
                self.turned_away_at = max(self.turned_away_at, base + found)
        self.scan(scan, base)
        if MISS_LOG:
            self.history += data
            del self.history[:-HISTORY]
        self.total += len(data)
        self.tail = scan[-40:]
        self.received.set()
        self.woken.set()

    def scan(self, data: bytes, base: int) -> None:
        """What a player reads on its screen: nothing for a spectator."""

    def leave(self, measuring: bool = True) -> None:
        """Its session ends: no action waits for its screen any more. One it
        was the last to wait for counts as on every screen when the last
        screen still there showed it; none counts once the run has stopped
        (``measuring`` false: nobody may have shown it)."""
        self.present = False
        for action in list(self.pending):
            action.waiting.discard(self)
            if not action.waiting:
                if action.measured and measuring and action.last_shown:
                    self.results.shown(action, action.last_shown)
                self.results.close(action)
        self.pending.clear()


class Player(Viewer):
    def __init__(self, name: str, results: Results, pace: float, play: str,
                 raise_chance: float, rematch: bool = False) -> None:
        super().__init__(name, results)
        self.rematch = rematch
        self.again_at = -1
        """Where the output was when I last said yes to a rematch."""
        self.games = 0
        """Games I finished (said yes to the next one after)."""
        self.pace = pace
        self.play = play
        self.raise_chance = raise_chance
        self.rng = random.Random(name)
        self.bid_at = self.build_at = self.other_at = self.start_at = -1
        self.refused_at = self.thinking_at = self.lowest_at = -1
        self.lowest = 0
        self.round = 0
        self.mine: Action | None = None
        """My last action, until my own screen shows it."""
        self.key_at = -1
        """Where the output was when I pressed my last key."""
        self.key_time = 0.0
        self.turn = -1
        """The turn (offset of its status line) my last key answered."""
        self.fallback: bytes | None = None
        self.last_key = b""
        self.resent = 0

    def scan(self, data: bytes, base: int) -> None:
        def last(marker: bytes, old: int) -> int:
            found = data.rfind(marker)
            return base + found if found >= 0 else old
        self.bid_at = last(BID_TURN, self.bid_at)
        self.build_at = last(BUILD_TURN, self.build_at)
        for marker in OTHERS:
            self.other_at = max(self.other_at, last(marker, -1))
        for marker in STARTERS:
            self.start_at = max(self.start_at, last(marker, -1))
        self.refused_at = last(REFUSED, self.refused_at)
        self.thinking_at = last(THINKING, self.thinking_at)
        for match in ROUND.finditer(data):
            self.round = int(match.group(1))
        for match in LOWEST.finditer(data):
            self.lowest, self.lowest_at = int(match.group(1)), base + match.start()

    def my_turn(self) -> tuple[str, int] | None:
        turn = max(self.bid_at, self.build_at)
        if turn <= self.other_at:
            return None
        return ("bid" if self.bid_at > self.build_at else "build"), turn

    def choose(self, kind: str) -> tuple[bytes, bytes | None]:
        """The key for this turn, and the one to press if the rules refuse it.

        Every bid or pass has a fallback: a key the rules refuse changes no
        other screen, and without another key the table would wait for this
        player for ever (and the refused key would count as missed)."""
        starter = self.start_at > self.other_at
        fresh = self.lowest_at > self.other_at
        lowest = str(self.lowest).encode() if fresh else b"0"
        if self.play == "bids":
            return (b"0", b"p") if starter else (b"p", lowest)
        if kind == "build":
            return b"a\r", None  # lay out the hint's plan, then build it
        if starter:
            return b"1", b"0"
        if fresh and self.lowest and self.rng.random() < self.raise_chance:
            return lowest, b"p"
        return b"p", lowest

    def markers(self, key: bytes) -> tuple[tuple[bytes, ...], str]:
        me = self.name.encode()
        ended = ((b"round %d:" % (self.round + 1),) + ROUND_OVER if self.round else ()) \
            + (END_SCREEN,)
        if key == b"a\r":
            return (me + b": build", me + b": tear", me + b": pay") + ended, "build"
        # The log line, or the bidding panel's: when an automatic pass follows
        # at once, the log (one line high while the hints are long) scrolls the
        # key's own line out, and it came back only when the layout changed,
        # a second or two later: the tail of key-to-every-screen was that.
        if key == b"p":
            return (me + b": pass", me + b" passes") + ended, "pass"
        # A bid no other seat can raise ends the bidding at once: every other
        # seat's "pass (cannot raise)" comes in the same frame, scrolls the
        # bid's log line out of the log's three or four lines (the wheel
        # brings it back) and the building panel replaces the bidding one.
        # What every screen shows of the bid then is its bidder building
        # (only a bid can make this seat the builder of a round it bids in).
        return (me + b": bid " + key, me + b" bids " + key, me + b" is building") + ended, "bid"

    @staticmethod
    def own_markers(key: bytes) -> tuple[bytes, ...]:
        """What the actor's own screen says for ``key``: its bidding panel's
        "You bid 2", or its build turn once the bid ended the bidding."""
        if key == b"a\r":
            return ()
        return (b"You pass",) if key == b"p" else (b"You bid " + key, BUILD_TURN)

    def press(self, process: Any, key: bytes, turn: int) -> None:
        markers, kind = self.markers(key)
        now = time.monotonic()
        measured = now >= self.results.since
        screens = self.screens()
        action = Action(markers, now, self, screens, measured, kind,
                        {v.name: v.total for v in screens}, self.own_markers(key))
        for viewer in screens:
            viewer.expect(action)
        self.results.open.add(action)
        if measured:
            self.results.kinds[kind] = self.results.kinds.get(kind, 0) + 1
        self.mine, self.turn = action, turn
        self.key_at, self.key_time = self.total, now
        self.last_key, self.resent = key, 0
        process.stdin.write(key)

    def screens(self) -> set[Viewer]:
        """The screens at my table now (a spectator between games is not)."""
        return {viewer for viewer in self.table if viewer.present}

    def over(self) -> bool:
        """My end screen came since I last said yes to a rematch."""
        return self.rematch and self.end_at > self.again_at

    async def play_again(self, process: Any, stop: asyncio.Event) -> None:
        """Read the scores a moment, then ``n``: yes to the rematch (unmeasured:
        the new game's first screens are what the next keys wait for)."""
        await asyncio.sleep(self.pace * self.rng.uniform(0.8, 1.2))
        if stop.is_set():
            return
        self.again_at = self.total
        self.games += 1
        if self.mine is not None and self in self.mine.waiting:
            self.withdraw()  # its end screen came instead (a lost race): not counted
            self.results.retries -= 1
        self.mine = None
        process.stdin.write(b"n")

    def withdraw(self) -> None:
        """My last key did nothing (refused, or the hint was not ready)."""
        if self.mine is not None:
            self.results.close(self.mine)
            self.results.retries += 1
            self.mine = None

    async def play_table(self, process: Any, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await self.glance()
            if self.over():
                await self.play_again(process, stop)
                continue
            turn = self.my_turn()
            mine = self.mine
            if mine is not None and self in mine.waiting:  # my key is not on my screen yet
                waited = time.monotonic() - self.key_time
                if self.refused_at > self.key_at and self.fallback is not None:
                    self.withdraw()
                    key, self.fallback = self.fallback, None
                    self.press(process, key, turn[1] if turn else self.turn)
                elif self.thinking_at > self.key_at and waited > 0.5:
                    self.withdraw()  # the hint is not ready: `a` again in a moment
                    if turn is not None:
                        self.press(process, b"a\r", turn[1])
                elif waited > RETRY_AFTER and self.resent < 3:
                    # No answer: press the key again, as a player would, but the
                    # wait counts from the first press (a late key is ignored
                    # once it is not this player's turn any more).
                    self.resent += 1
                    self.key_time = time.monotonic()
                    process.stdin.write(self.last_key)
                continue
            if turn is None or turn[1] <= self.turn:
                continue
            await asyncio.sleep(self.pace * self.rng.uniform(0.8, 1.2))  # think first
            turn = self.my_turn()
            if turn is None or stop.is_set():
                continue
            key, self.fallback = self.choose(turn[0])
            self.press(process, key, turn[1])


async def connect(port: int, name: str, key: asyncssh.SSHKey) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  client_keys=[key], agent_path=None)


async def pump(process: Any, viewer: Viewer, stop: asyncio.Event) -> None:
    while not stop.is_set():
        try:
            data = await asyncio.wait_for(process.stdout.read(65536), 0.5)
        except asyncio.TimeoutError:
            continue
        if not data:
            break
        viewer.on_output(data, time.monotonic())


async def run_viewer(port: int, code: str, viewer: Viewer, stop: asyncio.Event,
                     rejoin: bool = False) -> None:
    """A player (or spectator: the table has no free seat) at table ``code``.

    With ``rejoin`` a spectator leaves when the game is over (its session
    ends) and joins the table's next game as a new session (a new key: a
    new visitor to the server), again and again until ``stop``."""
    sessions = 0
    while not stop.is_set() and sessions < 10_000:
        sessions += 1
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with await connect(port, viewer.name, key) as conn:
            viewer.process = process_of(conn.get_extra_info("server_version"))
            joined = viewer.total
            process = await conn.create_process(f"join {code}", term_type=TERM[0],
                                                term_size=TERM[1], encoding=None)
            tasks = [asyncio.create_task(pump(process, viewer, stop))]
            if isinstance(viewer, Player):
                tasks.append(asyncio.create_task(viewer.play_table(process, stop)))
            if not rejoin or isinstance(viewer, Player):
                await stop.wait()
            else:
                await watch_one_game(viewer, joined, stop)
            viewer.leave(measuring=not stop.is_set())
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if not rejoin:
            return
        try:
            await asyncio.wait_for(stop.wait(), REJOIN_AFTER)
        except asyncio.TimeoutError:
            pass


async def watch_one_game(viewer: Viewer, joined: int, stop: asyncio.Event) -> None:
    """A spectator's session: until its end screen, or the lobby's refusal
    (the rematch has not started yet: it tries again in a moment)."""
    settled: float | None = None
    while not stop.is_set():
        await viewer.glance()
        if viewer.turned_away_at > joined or viewer.end_at > joined:
            return
        if viewer.total > joined and not viewer.present:
            if settled is None:
                settled = time.monotonic()
            elif time.monotonic() - settled >= SETTLED:
                viewer.present = True  # at the table: the next keys wait for it


# -- flooders -----------------------------------------------------------------
BURST = 100 * 1024


def flood_bursts(rng: random.Random) -> list[bytes]:
    """100 KB of 'x'; 100 KB of invalid UTF-8; 100 KB of broken escapes.

    None of it quits (no q, ^C, ^D, ^Q) or opens a bracketed paste.
    """
    invalid = bytes(rng.choice(b"\x80\x8f\x9b\xc0\xc3\xe2\xf0\xf8\xfe\xff")
                    for _ in range(BURST))
    pieces = [b"\x1b[", b"\x1b[1;", b"\x1b[<0;", b"\x1b]", b"\x1bO", b"\x1b[99999999999",
              b"\x1b\x1b", b"\x1b[M", b"\x1b[?"]
    broken = b""
    while len(broken) < BURST:
        broken += rng.choice(pieces) + bytes(rng.choice(b"0123456789;") for _ in range(5))
    return [b"x" * BURST, invalid, broken[:BURST]]


@dataclass
class FloodReport:
    sent: int = 0
    dropped_by_server: bool = False
    error: str = ""
    ended: float = 0.0
    """When it stopped flooding (monotonic): the end of the measurement."""
    connections: int = 0
    dropped: int = 0
    """Times the server disconnected it (it connects again each time)."""
    refused: int = 0
    """Connections it tried again that the server refused."""


async def run_flooder(port: int, index: int, code: str | None, start: asyncio.Event,
                      stop: asyncio.Event, report: FloodReport) -> None:
    """Connect (to the lobby, or to watch ``code``), wait for ``start``, then
    flood until ``stop``: each burst waits for the SSH window (drain), so the
    flooder sends as fast as the server takes it, no faster. A persistent
    flooder: dropped by the server, it connects again and floods again."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    rng = random.Random(index)
    bursts = flood_bursts(rng)
    try:
        while not stop.is_set():
            connections = report.connections
            try:
                await _flood_once(port, index, code, start, stop, report, bursts, key)
            except (OSError, asyncssh.Error, asyncio.TimeoutError, BrokenPipeError) as exc:
                report.error = type(exc).__name__
            if stop.is_set():
                break
            if report.connections == connections:
                report.refused += 1  # not let in (its address waits after a flood)
            else:
                report.dropped += 1
                report.dropped_by_server = True
            await asyncio.sleep(0.2)  # then back at it
    finally:
        report.ended = time.monotonic()


async def _flood_once(port: int, index: int, code: str | None, start: asyncio.Event,
                      stop: asyncio.Event, report: FloodReport, bursts: list[bytes],
                      key: asyncssh.SSHKey) -> None:
    async with await connect(port, f"flood{index:03d}", key) as conn:
        command = f"join {code}" if code else None
        process = await conn.create_process(command, term_type=TERM[0],
                                            term_size=TERM[1], encoding=None)
        report.connections += 1
        sink = Viewer(f"flood{index:03d}", Results())
        drain = asyncio.create_task(pump(process, sink, stop))
        await start.wait()
        i = 0
        stopped = asyncio.create_task(stop.wait())
        try:
            while not stop.is_set() and not drain.done():
                process.stdin.write(bursts[i % len(bursts)])
                # as fast as the server reads it, and no longer than the measurement
                draining = asyncio.ensure_future(process.stdin.drain())
                await asyncio.wait([draining, stopped, drain],
                                   return_when=asyncio.FIRST_COMPLETED)
                if not draining.done():
                    draining.cancel()
                    break
                draining.result()
                report.sent += BURST
                i += 1
                await asyncio.sleep(0.01)
        finally:
            stopped.cancel()
            drain.cancel()


# -- arrivals -------------------------------------------------------------------
LOBBY_MARKERS = (LOBBY_TITLE, b"Share a table", b"ratings")


@dataclass
class Arrivals:
    took: list[float] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    count: int = 0

    def record(self, took: float | None, why: str = "") -> None:
        if took is None:
            self.failed.append(why)
        else:
            self.took.append(took)
        if len(self.took) + len(self.failed) >= self.count:
            self.done.set()


async def arrive(port: int, name: str, key: asyncssh.SSHKey, go: asyncio.Event,
                 codes: tuple[bytes, ...], leave: asyncio.Event, into: Arrivals) -> None:
    """Seconds from connecting to a first full lobby screen: title, help line,
    keys and the newest table's row seen. Then stay until ``leave``: a crowd."""
    await go.wait()
    t0 = time.monotonic()
    try:
        async with await connect(port, name, key) as conn:
            process = await conn.create_process(None, term_type=TERM[0], term_size=TERM[1],
                                                encoding=None)
            wanted = set(LOBBY_MARKERS + codes)
            seen = b""
            while wanted:
                data = await asyncio.wait_for(process.stdout.read(65536), 60)
                if not data:
                    raise ConnectionError("the server closed before the lobby showed")
                seen = seen[-64:] + data
                wanted = {m for m in wanted if m not in seen}
            into.record(time.monotonic() - t0)
            await leave.wait()
    except (OSError, asyncssh.Error, asyncio.TimeoutError) as exc:
        into.record(None, f"{type(exc).__name__}: {exc}")
