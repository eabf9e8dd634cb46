"""Kill ``fivetowers serve`` with SIGKILL mid-game, again and again: nothing shown is lost.

Starts the real server as a subprocess on a free port with a data directory,
connects SSH clients (a pty read into a pyte screen, as a player's terminal),
each playing its own table against two bots by pressing keys (every other
client a GoTown table, the others 5 Towers: see scripts/gotown_keys.py for
GoTown's keys), then SIGKILLs
the server at a random moment (a seeded RNG), sometimes right after a
client's key press, reads the store, restarts the server and reconnects every
client with the same key. Checked each time (issue 7, "Resume"):

* every screen a client read is a state of its table's stored record: the turn
  banner, the clock line (GoTown: the turn count) and the bottom of the game
  log are those of some prefix of the stored actions, so an action whose
  effect any screen showed is in the store (nothing shown is lost);
* the stored record replays with no error (no half-written action) and the
  server serves every table again (no "cannot be served again" in its log);
* the first screen after the restart is at or after the stored state (the
  table is exactly where it was, not earlier), and a record only ever grows:
  each kill's record starts with the previous one.

Prints the figures: kills, restarts, actions checked, time. Exit status 0 when
every check passed, 1 on a broken check (what, on stderr).

    .venv/bin/python scripts/kill_server.py --kills 20 --seed 1
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh
import pyte

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fivetowers.games.five_towers.rules import Game, Phase, Record  # noqa: E402
from fivetowers.games.five_towers.rules.actions import action_from_json  # noqa: E402
from fivetowers.tables.store import open_store  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
from gotown_keys import GoTownKeys, my_turn  # noqa: E402

CLOCK = re.compile(r"Round \d+ · (?:game over|deck \d+ · pass \d/2(?: · LAST ROUND| · reshuffle next)?)")
BANNER = re.compile(r"YOUR TURN to (?:bid|build)|\S.*? is (?:bidding|building)…|game over")
GOTOWN_CLOCK = re.compile(r"turn \d+ of at most \d+")
GOTOWN_BANNER = re.compile(r"YOUR TURN(?: \(.*?\))?|\S.*? is playing…(?: \(.*?\))?|game over")
"""GoTown's top line: whose turn, with why when it is not plain rotation."""
WIDTH, HEIGHT = 120, 40


class CheckFailed(AssertionError):
    """A kill test check did not hold."""


@dataclass(frozen=True)
class Seen:
    """What a client's table screen showed: the turn, the clock, the log's bottom."""

    banner: str
    clock: str
    log: str | None
    """The visible log lines, whitespace removed (wrapping does not matter);
    None while something (a notification) covers part of the log."""


@dataclass
class Player:
    """One SSH client with its own key, at its own table (1 human, 2 bots)."""

    name: str
    key: asyncssh.SSHKey
    rng: random.Random
    game: str = "fivetowers"
    """The game of the tables it opens: fivetowers or gotown."""
    conn: asyncssh.SSHClientConnection | None = None
    process: asyncssh.SSHClientProcess[bytes] | None = None
    screen: pyte.Screen = field(default_factory=lambda: pyte.Screen(WIDTH, HEIGHT))
    seen: list[Seen] = field(default_factory=list)
    """Table screens read since the last (re)start, in order."""
    stored: list[dict[str, object]] | None = None
    """Its table's stored actions at the last kill."""
    table_id: int | None = None
    pressed: int = 0
    keys: GoTownKeys = field(default_factory=GoTownKeys)
    """Its next key at a GoTown table."""

    @property
    def fingerprint(self) -> str:
        return str(self.key.get_fingerprint("sha256"))

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def press(self, keys: bytes) -> None:
        if self.process is not None:
            try:
                self.process.stdin.write(keys)
                self.pressed += 1
            except (OSError, asyncssh.Error, BrokenPipeError):
                pass

    def read_table(self) -> Seen | None:
        """The table screen's state, or None if another screen is up."""
        lines = self.screen.display
        top = lines[0]
        if self.game == "gotown":
            clock, banner = GOTOWN_CLOCK.search(top), GOTOWN_BANNER.search(top)
            table_shown = "Your hand (" in self.text()
        else:
            clock, banner = CLOCK.search(top), BANNER.search(top)
            table_shown = " — your towers" in self.text()
        if clock is None or banner is None or not table_shown:
            return None
        log_rows: list[str] = []
        covered = False
        for row, line in enumerate(lines):
            start = line.find("╭─ Log")
            if start < 0:
                continue
            end = line.find("╮", start)
            for below in lines[row + 1:]:
                if below[start] == "╰" and below[end] == "╯":
                    break
                if below[start] != "│" or below[end] != "│":
                    covered = True  # something (a notification) covers the log
                    break
                log_rows.append(below[start + 1:end])
            break
        if covered or not log_rows:
            return Seen(banner.group(0), clock.group(0), None)
        # Without whitespace and the scrollbar's glyphs (drawn inside the box).
        log = re.sub(r"[\s▁▂▃▄▅▆▇█▀▔▐▌▏▕]+", "", "".join(log_rows))
        # A stand-in bot's move is marked on screen, not in the record.
        log = log.replace("(stand-inbot)", "")
        return Seen(banner.group(0), clock.group(0), log)


async def start_server(data: Path, away: float, store: str | None = None,
                       *options: str) -> tuple[asyncio.subprocess.Process, int]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "fivetowers.cli", "serve", "--port", "0", "--data-dir", str(data),
        "--away", str(away), *(["--store", store] if store else []), *options, cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    banner = ""
    while "Ctrl+C" not in banner:
        line = await asyncio.wait_for(proc.stdout.readline(), 60)
        if not line:
            err = (await proc.stderr.read()).decode() if proc.stderr else ""
            raise CheckFailed(f"the server did not start: {banner}{err}")
        banner += line.decode()
    found = re.search(r"port (\d+)", banner)
    assert found is not None
    return proc, int(found.group(1))


async def pump(player: Player) -> None:
    assert player.process is not None
    stream = pyte.ByteStream(player.screen)
    try:
        while True:
            data = await player.process.stdout.read(65536)
            if not data:
                return
            stream.feed(data)
            seen = player.read_table()
            if seen is not None and (not player.seen or player.seen[-1] != seen):
                player.seen.append(seen)
    except (asyncssh.Error, OSError):
        return


async def connect(player: Player, port: int) -> asyncio.Task[None]:
    player.conn = await asyncssh.connect(
        "127.0.0.1", port, username=player.name, known_hosts=None, agent_path=None,
        client_keys=[player.key])
    player.screen = pyte.Screen(WIDTH, HEIGHT)
    player.process = await player.conn.create_process(
        term_type="xterm-256color", term_size=(WIDTH, HEIGHT), encoding=None)
    player.seen = []
    return asyncio.create_task(pump(player))


async def wait_for(player: Player, needle: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while needle not in player.text():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def new_table(player: Player) -> None:
    """From the lobby: a table of three seats, two of them bots (it starts at
    once): the player's game, GoTown's short game."""
    player.press(b"n")
    if not await wait_for(player, "New table", 5):
        return
    # The form opens on the name; the game's drop-down (5 Towers first) is
    # above it (shift+tab, enter, down, enter, then tab back to the name).
    keys: tuple[bytes, ...] = (b"\x1b[Z", b"\r", b"\x1b[B", b"\r", b"\t") \
        if player.game == "gotown" else ()
    keys += (b"\t", b"\x7f", b"3", b"\t", b"\x7f", b"2")
    if player.game == "gotown":
        keys += (b"\t", b" ", b"\x1b[Z")  # the short game on, back to the bots field
    for key in (*keys, b"\r"):
        player.press(key)
        await asyncio.sleep(0.2)
    await wait_for(player, "Your hand (" if player.game == "gotown" else " — your towers", 5)


async def play(player: Player, until: float) -> None:
    """Press keys like a player: a new table from the lobby, bids, the hint's build."""
    last_action = 0.0
    while time.monotonic() < until:
        await asyncio.sleep(0.05)
        text, top = player.text(), player.screen.display[0]
        now = time.monotonic()
        if top.strip().startswith("5 Towers lobby"):
            await new_table(player)
        elif "The game is over" in text:
            if now - last_action > 1:
                player.press(b"n")  # play again: back to the lobby
                last_action = now
        elif player.game == "gotown":
            key = player.keys.key(player.screen.display)
            if key is not None and now - last_action > 0.3:
                player.press(key.encode())
                last_action = now
        elif "YOUR TURN to bid" in top and now - last_action > 0.6:
            bids = re.search(r"You may bid ([0-9 ]+)", text)
            options = [int(b) for b in bids.group(1).split()] if bids else [1]
            if "you start" not in text and player.rng.random() < 0.4:
                player.press(b"p")
            else:
                player.press(str(player.rng.choice([b for b in options if b < 10])).encode())
            last_action = now
        elif "YOUR TURN to build" in top and now - last_action > 0.6:
            player.press(b"a")  # the hint's plan, laid out (if the hint is ready)
            await asyncio.sleep(0.1)
            if "plan is laid out" in player.text():
                player.press(b"\r")
            last_action = now


def prefix_states(record: Record, seat: int) -> list[Seen]:
    """What seat ``seat``'s screen shows after each prefix of ``record``."""
    from fivetowers.games.five_towers.tui.widgets.status_bar import game_clock

    game = record.new_game()
    states = [_state(game, seat, game_clock)]
    for raw in record.actions:
        game.apply(action_from_json(raw))  # raises on a half-written or illegal action
        states.append(_state(game, seat, game_clock))
    return states


def _state(game: Game, seat: int, game_clock: object) -> Seen:
    view = game.view(seat)
    if view.phase is Phase.OVER or view.to_move is None:
        banner = "game over"
    elif view.to_move == seat:
        banner = f"YOUR TURN to {'bid' if view.phase is Phase.BID else 'build'}"
    else:
        doing = "bidding" if view.phase is Phase.BID else "building"
        banner = f"{view.seats[view.to_move].name} is {doing}…"
    log = re.sub(r"\s+", "", "".join(entry.text for entry in view.log))
    return Seen(banner, game_clock(view), log)  # type: ignore[operator]


def gotown_prefix_states(record: dict[str, object], seat: int) -> list[Seen]:
    """What seat ``seat``'s GoTown screen shows after each prefix of ``record``:
    its top line as the status bar writes it, and the log as the chronicle
    tells it to that seat."""
    from fivetowers.games.gotown.chronicle import Chronicle
    from fivetowers.games.gotown.kind import GAME as GOTOWN
    from fivetowers.games.gotown.tui.widgets.status_bar import turn_text

    from fivetowers.games.gotown.rules import Game as GoTownGame

    game = GOTOWN.match_from_record({**record, "actions": []})
    # The registry's kind answers a protocol Match; the chronicle needs GoTown's own game.
    assert isinstance(game, GoTownGame)
    chronicle = Chronicle(game)
    names = [p.name for p in game.players]

    def state() -> Seen:
        view = game.view(seat)
        top = turn_text(view, names, (seat,), chronicle.reason).plain \
            + f"  turn {view.turn} of at most {view.turn_limit}"
        banner, clock = GOTOWN_BANNER.search(top), GOTOWN_CLOCK.search(top)
        assert banner is not None and clock is not None, top
        log = re.sub(r"\s+", "", "".join(e.text_for(seat) for e in chronicle.entries))
        return Seen(banner.group(0), clock.group(0), log)

    states = [state()]
    actions = record.get("actions", [])
    assert isinstance(actions, list)
    for raw in actions:
        # raises on a half-written or illegal action
        game.apply(GOTOWN.action_from_json(raw), recorded=True)
        chronicle.follow(game)
        states.append(state())
    return states


def states_of(stored_record: dict[str, object], kind: str, seat: int) -> list[Seen]:
    """What a seat's screen shows after each prefix of a kept game's record."""
    if kind == "gotown":
        return gotown_prefix_states(stored_record, seat)
    return prefix_states(Record.from_json(stored_record), seat)


def found_at(seen: Seen, states: list[Seen]) -> int | None:
    """The latest prefix whose top line a screen showed, or None if what it
    showed is not kept.

    The top line and the log are matched each on its own: a frame may be read
    half drawn (the log already shows a bid the top line does not yet), and
    the log may be read before it scrolled to its end, so its visible lines
    need only be a part of the kept log (which only ever grows)."""
    top = [k for k, s in enumerate(states) if (s.banner, s.clock) == (seen.banner, seen.clock)]
    if not top or (seen.log is not None and seen.log not in (states[-1].log or "")):
        return None
    return top[-1]


def check(player: Player, data: Path, kill: int, url: str | None = None) -> int:
    """Compare what ``player`` saw since the last start with the stored record
    (the data directory's, or the PostgreSQL store at ``url``)."""
    store = open_store(data, create=False, url=url)
    try:
        tables = [t for t in store.games_of(player.fingerprint, limit=5)]
        if not player.seen:
            return 0
        if not tables:
            raise CheckFailed(f"kill {kill}: {player.name} saw a table the store does not have")
        # The table it saw: its newest one, and the one before should a game
        # have ended meanwhile (the end screen's "play again" makes a new one).
        stored = store.load_table(tables[0].id)
        before = store.load_table(tables[1].id) if len(tables) > 1 else None
    finally:
        store.close()
    seat = next(i for i, s in enumerate(stored.info.seats) if s.fingerprint == player.fingerprint)
    actions = list(stored.record["actions"])
    if player.table_id == stored.info.id and player.stored is not None:
        if actions[:len(player.stored)] != player.stored:
            raise CheckFailed(f"kill {kill}: {player.name}'s table lost or changed kept actions")
    try:
        states = states_of(stored.record, stored.info.kind, seat)
    except ValueError as exc:  # the rules' FormatError and IllegalAction among them
        raise CheckFailed(f"kill {kill}: {player.name}'s stored record does not replay "
                          f"(a half-written action?): {exc}") from None
    at = 0 if player.table_id != stored.info.id or player.stored is None else len(player.stored)
    earlier: list[Seen] = []
    if before is not None and before.info.finished is not None:
        earlier = states_of(before.record, before.info.kind, next(
            i for i, s in enumerate(before.info.seats) if s.fingerprint == player.fingerprint))
    for n, seen in enumerate(player.seen):
        found = found_at(seen, states)
        if found is None:
            if earlier and found_at(seen, earlier) is not None:
                continue  # the last screens of the game that ended
            raise CheckFailed(f"kill {kill}: {player.name} saw {seen} but the store has "
                              f"{len(actions)} actions ending at {states[-1]}")
        if n == 0 and player.table_id == stored.info.id and found < at:
            raise CheckFailed(f"kill {kill}: after the restart {player.name} saw an older "
                              f"state than the {at} kept actions")
    player.table_id, player.stored = stored.info.id, actions
    return len(player.seen)


async def run(kills: int, players: int, seed: int, data: Path,
              verbose: bool = False, store: str | None = None) -> dict[str, float]:
    rng = random.Random(seed)
    crew = [Player(f"p{i}", asyncssh.generate_private_key("ssh-ed25519"),
                   random.Random(f"{seed}:{i}"), game="gotown" if i % 2 else "fivetowers")
            for i in range(players)]
    started = time.monotonic()
    restarts = screens = 0
    logs: list[str] = []
    for kill in range(1, kills + 1):
        proc, port = await start_server(data, away=3600, store=store)
        if kill > 1:
            restarts += 1
        pumps = [await connect(p, port) for p in crew]
        await asyncio.gather(*(play(p, time.monotonic() + rng.uniform(1.0, 4.0)) for p in crew))
        if rng.random() < 0.5:  # right after a key press: a commit may be under way
            victim = rng.choice(crew)
            if victim.game == "gotown":
                key = victim.keys.key(victim.screen.display)
                victim.press(b"e" if key is None else key.encode())
            else:
                victim.press(b"p" if "YOUR TURN to bid" in victim.screen.display[0] else b"\r")
            await asyncio.sleep(rng.uniform(0.0, 0.05))
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        assert proc.stderr is not None
        log = (await proc.stderr.read()).decode()
        logs.append(log)
        for p in crew:
            if p.conn is not None:
                p.conn.abort()
        await asyncio.gather(*pumps, return_exceptions=True)
        for line in log.splitlines():
            if "Traceback" in line or "cannot be served again" in line:
                raise CheckFailed(f"kill {kill}: the server said: {line}\n{log}")
        screens += sum(check(p, data, kill, store) for p in crew)
        if verbose:
            print(f"kill {kill}: " + ", ".join(
                f"{p.name} table {p.table_id} {len(p.stored or [])} actions" for p in crew),
                file=sys.stderr)
    # One last start: every kept table is served again.
    proc, port = await start_server(data, away=3600, store=store)
    restarts += 1
    proc.send_signal(signal.SIGTERM)
    await asyncio.wait_for(proc.wait(), 30)
    assert proc.stderr is not None
    log = (await proc.stderr.read()).decode()
    if "cannot be served again" in log or "Traceback" in log:
        raise CheckFailed(f"the last start: {log}")
    actions = sum(len(p.stored or []) for p in crew)
    return {"kills": kills, "restarts": restarts, "screens": screens, "actions": actions,
            "seconds": time.monotonic() - started,
            "keys": sum(p.pressed for p in crew)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--players", type=int, default=3,
                        help="clients, each at its own table (every other one GoTown)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-v", "--verbose", action="store_true", help="a line per kill")
    parser.add_argument("--data-dir", help="keep the store here (default: a temporary directory)")
    parser.add_argument("--store", metavar="URL",
                        help="keep games in this PostgreSQL database instead (serve --store)")
    args = parser.parse_args(argv)
    os.environ.setdefault("TEXTUAL_DISABLE_KITTY_KEY", "1")
    with tempfile.TemporaryDirectory(prefix="fivetowers-kill-") as tmp:
        data = Path(args.data_dir) if args.data_dir else Path(tmp) / "data"
        try:
            figures = asyncio.run(run(args.kills, args.players, args.seed, data, args.verbose,
                                      args.store))
        except CheckFailed as exc:
            print(f"kill_server: FAILED: {exc}", file=sys.stderr)
            return 1
    print(f"kill_server: {figures['kills']:.0f} SIGKILLs, {figures['restarts']:.0f} restarts, "
          f"{args.players} clients ({args.players // 2} at GoTown tables), "
          f"{figures['keys']:.0f} key presses, {figures['screens']:.0f} table screens "
          f"checked against the store, {figures['actions']:.0f} actions kept at the end, "
          f"{figures['seconds']:.1f} s (seed {args.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
