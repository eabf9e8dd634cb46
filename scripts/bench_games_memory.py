"""What stays alive game after game at hosted tables: a fixed workload, in process.

    python scripts/bench_games_memory.py [--tables 3] [--seats 2] [--games 6]
        [--watchers 1] [--holders Strip]

Hosts ``--tables`` tables of ``--seats`` players (the real LobbyApp and
table screens on fake SSH channels, as ``scripts/bench_sessions.py``), plus
``--watchers`` spectators at each, and plays ``--games`` games at each: a
random bot chooses each seat's move, submitted to the table as a player's
key would, and at the end every player says yes to the rematch (``n``, as
the load test's players do) and the watchers watch the next game. After
each round of games (every table's game over, the rematch started and
drawn) a full collection runs and it prints the objects alive, the drawn
lines (Strips), the blocks Python's allocator holds, and the types that
grew since the round the warm-up ended (``--warmup``, default 2 games).
The load test's RSS growth a minute depends on the machine and the pace;
the objects alive after each game do not, so "memory stays flat" is: after
the warm-up, no growth per game (``tests/server/test_games_memory.py``
checks a short run of it). ``--holders TYPE`` also prints what holds the
objects of that type (scripts/load_memory.py's chains).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fivetowers.games import game_kind  # noqa: E402
from fivetowers.lobby.app import LobbyApp  # noqa: E402
from fivetowers.lobby.model import HostedTable, Lobby  # noqa: E402
from fivetowers.server.driver import SessionTerminal  # noqa: E402
from fivetowers.server.session import Visitor, prepare_app  # noqa: E402
from fivetowers.tables.seats import Seat  # noqa: E402

SIZE = (80, 24)


class _Stdout:
    def __init__(self) -> None:
        self.writes = 0

    def write(self, data: bytes) -> None:
        self.writes += 1


class _Stdin:
    async def read(self, n: int) -> bytes:
        await asyncio.Event().wait()  # no keys: the bench moves through the table
        return b""


class _Channel:
    def get_write_buffer_size(self) -> int:
        return 0


class _Process:
    def __init__(self) -> None:
        self.stdout = _Stdout()
        self.stdin = _Stdin()
        self.channel = _Channel()


async def _quiet(apps: list[LobbyApp], rounds: int = 400) -> None:
    """Until every App has nothing left to do (its screen drawn)."""
    for _ in range(rounds):
        await asyncio.sleep(0.01)
        if all(not app._message_queue.qsize() for app in apps):
            await asyncio.sleep(0.05)
            if all(not app._message_queue.qsize() for app in apps):
                return


def alive() -> Counter[str]:
    """The objects the collector tracks, by type, after a full collection
    (and "screens left": screens no longer on any App's stack)."""
    from textual.screen import Screen

    gc.collect()
    objects = gc.get_objects()
    counts = Counter(type(o).__qualname__ for o in objects)
    counts["screens left"] = sum(1 for o in objects
                                 if isinstance(o, Screen) and not o.is_attached)
    return counts


def _over(game: Any) -> bool:
    over = getattr(game, "over", None)  # GoTown's; 5 Towers' has a phase
    return bool(over) if over is not None else game.phase.name == "OVER"


class Bench:
    """Tables played game after game by random bots through hosted sessions."""

    def __init__(self, tables: int = 3, seats: int = 2, watchers: int = 1,
                 seed: int = 1, hints: bool = False, game: str = "fivetowers") -> None:
        self.lobby = Lobby(hints=hints, bot_delay=0.0, absence_bot_after=3600.0,
                           rng=random.Random(seed))
        self.codes = [f"GM{t:03d}" for t in range(tables)]
        self.seats, self.watchers = seats, watchers
        self.rng = random.Random(seed)
        self.kind = game_kind(game)
        self.options = {"variant": "base"} if game == "fivetowers" else {"floors": "5"}
        self.bot = self.kind.make_bot("random")
        self.players: dict[str, list[LobbyApp]] = {code: [] for code in self.codes}
        self.spectators: dict[str, list[LobbyApp]] = {code: [] for code in self.codes}
        self.tasks: list[asyncio.Task[Any]] = []
        self.games = 0

    @property
    def apps(self) -> list[LobbyApp]:
        return [app for code in self.codes
                for app in self.players[code] + self.spectators[code]]

    def _open(self, name: str, code: str) -> LobbyApp:
        visitor = Visitor(identity=f"key-{name}", name=name, address="127.0.0.1",
                          join_code=code, term="xterm-256color", colorterm="")
        process = _Process()
        terminal = SessionTerminal(process, SIZE, name=name)  # type: ignore[arg-type]
        app = LobbyApp(self.lobby, visitor)
        prepare_app(app, terminal, visitor, sys.stdout, sys.stderr)
        self.tasks.append(asyncio.create_task(app.run_async(size=SIZE)))
        return app

    async def start(self) -> None:
        for code in self.codes:
            self.lobby.tables[code] = HostedTable(
                code, f"bench {code}", self.kind, self.options, False,
                [Seat("", None) for _ in range(self.seats)])
            for s in range(self.seats):
                self.players[code].append(self._open(f"p{code}{s}", code))
                await asyncio.sleep(0.02)
        await self._started()
        for code in self.codes:
            for w in range(self.watchers):
                self.spectators[code].append(self._open(f"w{code}{w}", code))
        await _quiet(self.apps)

    async def _started(self) -> None:
        for _ in range(1000):
            if all(self.lobby.tables[code].table is not None for code in self.codes):
                break
            await asyncio.sleep(0.02)
        else:
            raise RuntimeError("the tables' games did not start within 20 s")
        await _quiet(self.apps)

    async def play_round(self, each_round: Callable[[], None] | None = None) -> None:
        """One game at every table, then every player says yes to the rematch
        and each watcher leaves for the lobby and watches the next game.
        ``each_round`` is called after each round of moves (every table's)."""
        playing = await self.play_to_the_end(each_round)
        await self.rematch(playing)
        self.games += 1

    async def play_to_the_end(self, each_round: Callable[[], None] | None = None) -> list[Any]:
        """Every table's game played to its end (the end screens drawn); the
        tables played, in the order of ``codes``."""
        playing = [self.lobby.tables[code] for code in self.codes]
        while True:
            moved = False
            for hosted in playing:
                table = hosted.table
                assert table is not None
                game = table.game
                if _over(game) or game.to_move is None:
                    continue
                seat = game.to_move
                await table.submit(seat, self.bot.choose(game.view(seat), self.rng))
                moved = True
            if not moved:
                unfinished = [code for code, h in zip(self.codes, playing)
                              if h.table is None or not _over(h.table.game)]
                if unfinished:
                    raise RuntimeError(f"no one to move, but not over, at {unfinished}")
                break
            await asyncio.sleep(0)
            await _quiet(self.apps, rounds=50)
            if each_round is not None:
                each_round()
        await _quiet(self.apps)
        return playing

    async def rematch(self, playing: list[Any]) -> None:
        """Every player says yes to the rematch of ``playing`` (the tables'
        games, in the order of ``codes``); each watcher leaves for the lobby
        and watches the next game."""
        for code, old in zip(self.codes, playing):
            for app in self.players[code]:
                app.call_later(app.play_again, old)
            for app in self.spectators[code]:
                app.call_later(app.back_to_lobby)
        await _quiet(self.apps)
        await self._started()
        for code in self.codes:
            for app in self.spectators[code]:
                app.call_later(app.open_table, code, None)
        await _quiet(self.apps)

    async def close(self) -> None:
        for app in self.apps:
            app.exit()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.lobby.close()


async def run(args: argparse.Namespace) -> None:
    from load_memory import holders

    bench = Bench(args.tables, args.seats, args.watchers)
    await bench.start()
    base: Counter[str] | None = None
    print(f"{args.tables} tables of {args.seats} players and {args.watchers} watcher(s), "
          f"5 Towers, random bots' moves, {SIZE[0]}x{SIZE[1]}; objects after each game")
    for _ in range(args.games):
        await bench.play_round()
        counts = alive()
        line = (f"game {bench.games}: objects {sum(counts.values())}, Strips {counts['Strip']}, "
                f"screens left {counts['screens left']}, blocks {sys.getallocatedblocks()}")
        if bench.games == args.warmup:
            base = counts
        elif base is not None:
            grown = counts.copy()
            grown.subtract(base)
            line += f"; grew since game {args.warmup}: " + ", ".join(
                f"{kind} {n:+d}" for kind, n in grown.most_common(8) if n)
        print(line, flush=True)
        if args.holders:
            objects = gc.get_objects()
            for chain, n in holders(objects, args.holders)[:8]:
                print(f"    {n:4d} {chain}")
            del objects
    await bench.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--watchers", type=int, default=1)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--holders", default="", help="a type: print what holds its objects")
    args = parser.parse_args()
    if args.warmup < 1:
        parser.error("--warmup: the growth is counted from a game's end, so 1 or more")
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
