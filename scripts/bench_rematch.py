"""What one game's end and one rematch cost the serving process, per viewer.

    python scripts/bench_rematch.py [--tables 3] [--seats 4] [--watchers 1]
        [--games 3] [--calls] [--profile FILE]

Hosts tables as ``scripts/bench_games_memory.py`` does (the real LobbyApp
and table screens on fake SSH channels, random bots' moves submitted as a
player's key would be) and plays ``--games`` games at each. It measures
three phases separately, per viewer (every player and spectator):

- a move: every move of the game but the last, drawn at every screen (mean);
- the end: the last move, drawn, and the end screen it brings;
- the rematch: every player says yes (``n``), every spectator goes back to
  the lobby and watches the next game, until every screen is drawn.

For each: the server's CPU (ms, noisy on a shared machine), and counts that
do not depend on the machine: layouts (``Compositor.reflow``), full
repaints (``Compositor.render_full_update``), repaints of any size
(``Screen._compositor_refresh``), screens composed, widgets
mounted; ``--calls`` adds Python function calls (cProfile with a clock that
counts calls; its CPU figures are then the profiler's too). The first game
is a warm-up and is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import itertools
import pstats
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_games_memory import Bench, _quiet  # noqa: E402
from textual._compositor import Compositor  # noqa: E402
from textual.screen import Screen  # noqa: E402
from textual.widget import Widget  # noqa: E402

COUNTED = {
    "layouts": (Compositor, "reflow"),
    "full repaints": (Compositor, "render_full_update"),
    "repaints": (Screen, "_compositor_refresh"),
    "screens composed": (Screen, "_compose"),
    "widgets mounted": (Widget, "_post_mount"),
}
"""What is counted: a name, and the method whose calls count it."""

PHASES = ("move", "end", "rematch")


@dataclass
class Phase:
    """One phase's totals over the games counted."""

    times: int = 0
    cpu: float = 0.0
    calls: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    stats: pstats.Stats | None = None


class Meter:
    """Counts the methods in COUNTED and the process's CPU while it is on."""

    def __init__(self, calls: bool) -> None:
        self.counts: Counter[str] = Counter()
        self.on = False
        self.calls = calls
        self.phases = {name: Phase() for name in PHASES}
        self._originals: list[tuple[type, str, Callable[..., Any]]] = []

    def install(self) -> None:
        for name, (cls, method) in COUNTED.items():
            original = getattr(cls, method)
            self._originals.append((cls, method, original))
            setattr(cls, method, self._counting(name, original))

    def uninstall(self) -> None:
        for cls, method, original in self._originals:
            setattr(cls, method, original)

    def _counting(self, name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        meter = self
        if asyncio.iscoroutinefunction(original):
            async def counted_async(*args: Any, **kwargs: Any) -> Any:
                if meter.on:
                    meter.counts[name] += 1
                return await original(*args, **kwargs)
            return counted_async

        def counted(*args: Any, **kwargs: Any) -> Any:
            if meter.on:
                meter.counts[name] += 1
            return original(*args, **kwargs)
        return counted

    def measure(self, phase: str) -> "Measuring":
        return Measuring(self, phase)


class Measuring:
    """One measurement, added to ``phase`` (which may change before it ends)."""

    def __init__(self, meter: Meter, phase: str) -> None:
        self.meter, self.phase = meter, phase

    def __enter__(self) -> "Measuring":
        self.meter.counts.clear()
        self.meter.on = True
        self.profiler: cProfile.Profile | None = None
        if self.meter.calls:
            # Its clock counts calls and returns: the same on any machine.
            self.profiler = cProfile.Profile(itertools.count().__next__, 1e-6)
            self.profiler.enable()
        self.cpu = time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        cpu = time.process_time() - self.cpu
        self.meter.on = False
        phase = self.meter.phases[self.phase]
        phase.times += 1
        phase.cpu += cpu
        phase.counts.update(self.meter.counts)
        if self.profiler is not None:
            self.profiler.disable()
            stats = pstats.Stats(self.profiler)
            phase.calls += stats.total_calls  # type: ignore[attr-defined]
            if phase.stats is None:
                phase.stats = stats
            else:
                phase.stats.add(stats)


async def play_game(bench: Bench, meter: Meter | None) -> None:
    """One game at every table, measured a move at a time, then the rematch."""
    playing = [bench.lobby.tables[code] for code in bench.codes]
    while True:
        moved = False
        for hosted in playing:
            table = hosted.table
            assert table is not None
            game = table.game
            if game.phase.name == "OVER" or game.to_move is None:
                continue
            seat = game.to_move
            move = bench.bot.choose(game.view(seat), bench.rng)
            # One table moves at a time, so what is drawn is that move's.
            with Measuring(meter, "move") if meter is not None else _nothing() as measuring:
                await table.submit(seat, move)
                if measuring is not None and table.game.phase.name == "OVER":
                    measuring.phase = "end"
                await asyncio.sleep(0)
                await _quiet(bench.apps, rounds=50)
            moved = True
        if not moved:
            break
    await _quiet(bench.apps)
    with Measuring(meter, "rematch") if meter is not None else _nothing():
        await bench.rematch(playing)
    bench.games += 1


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None



async def run(args: argparse.Namespace) -> dict[str, Phase]:
    meter = Meter(args.calls)
    bench = Bench(args.tables, args.seats, args.watchers)
    meter.install()
    try:
        await bench.start()
        await play_game(bench, None)  # the warm-up: caches fill, styles are parsed
        for _ in range(args.games):
            await play_game(bench, meter)
        await bench.close()
    finally:
        meter.uninstall()
    for name, phase in meter.phases.items():
        if args.profile and phase.stats is not None:
            phase.stats.dump_stats(f"{args.profile}.{name}")
    viewers = args.tables * (args.seats + args.watchers)
    print(f"{args.tables} tables of {args.seats} players and {args.watchers} watcher(s), "
          f"5 Towers, {args.games} games counted after one warm-up; per viewer:")
    names = list(COUNTED)
    print(f"{'phase':8} {'n':>4} {'CPU ms':>8}" + (f" {'calls':>8}" if args.calls else "")
          + "".join(f" {n:>16}" for n in names))
    for name, phase in meter.phases.items():
        n = max(phase.times, 1)
        # a move is drawn by every viewer of its table; the end and the rematch too
        per = n * (args.seats + args.watchers) if name != "rematch" else n * viewers
        line = f"{name:8} {phase.times:4d} {1000 * phase.cpu / per:8.2f}"
        if args.calls:
            line += f" {phase.calls / per:8.0f}"
        line += "".join(f" {phase.counts[c] / per:16.2f}" for c in names)
        print(line)
    return meter.phases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--watchers", type=int, default=1)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--calls", action="store_true",
                        help="count Python calls per viewer (a clock that counts calls)")
    parser.add_argument("--profile", default=None, help="with --calls: write each phase's stats to FILE.PHASE")
    args = parser.parse_args()
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
