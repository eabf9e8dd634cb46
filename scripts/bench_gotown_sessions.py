"""Server CPU per GoTown move per viewer, without SSH (scripts/bench_sessions.py
for GoTown's table screen).

    python scripts/bench_gotown_sessions.py [--sessions 10] [--actions 60] [--calls]

Runs ``--sessions`` hosted sessions (the real LobbyApp, GoTown's table screen
and SSHDriver) on fake SSH channels, seated four a table (hints on, as
players get them, computed in one worker process). Then it plays
``--actions`` moves per table through the engine (the greedy bot's choice
for whoever is to move, submitted as the seat's own), waits until every
screen at the table drew and the loop is quiet, and prints per move per
viewer: the server CPU, the Python calls (``--calls``: cProfile with a clock
that counts calls, the same figure on a busy machine and a quiet one), and
the screen layouts (``Compositor.reflow`` runs: a re-layout of the
whole screen, which a change of one line's text should not need; counted
there, not by wrapping ``Screen._refresh_layout``, whose source
``SizedOnceScreen`` checks: wrapped, it turned that workaround off).
``--json FILE`` keeps the figures, ``--compare FILE`` prints ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import itertools
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_sessions import keep_figures, open_sessions, settled  # noqa: E402
from textual._compositor import Compositor  # noqa: E402

from fivetowers.games import game_kind  # noqa: E402
from fivetowers.games.gotown.bots import GreedyBot  # noqa: E402
from fivetowers.lobby.model import HostedTable, Lobby  # noqa: E402
from fivetowers.tables.seats import Seat  # noqa: E402
from fivetowers.tables.workers import Workers  # noqa: E402

SEATS = 4

layouts = [0]
_reflow = Compositor.reflow


def counted_layout(self: Compositor, *args: Any, **kwargs: Any) -> Any:
    layouts[0] += 1
    return _reflow(self, *args, **kwargs)


async def run(sessions: int, actions: int, size: tuple[int, int],
              profiler: cProfile.Profile | None) -> dict[str, float]:
    tables = max(sessions // SEATS, 1)
    pool = Workers(1)
    await asyncio.to_thread(pool.start)
    lobby = Lobby(hints=True, bot_delay=0.0, absence_bot_after=3600, workers=pool,
                  rng=random.Random(0))  # the same deals every run: comparable figures
    for t in range(tables):
        lobby.tables[f"GT{t:03d}"] = HostedTable(
            f"GT{t:03d}", f"load {t}", game_kind("gotown"), {"floors": "5"}, False,
            [Seat("", None) for _ in range(SEATS)])
    procs, apps, tasks = await open_sessions(lobby, sessions, "GT", tables, size)
    hosted = [lobby.tables[f"GT{t:03d}"] for t in range(tables)]
    for _ in range(600):  # until every table has started
        if all(h.table is not None for h in hosted):
            break
        await asyncio.sleep(0.1)
    await settled(apps, procs)
    gc.collect()
    bot, rng = GreedyBot(), random.Random(1)
    cpu, moves = 0.0, 0
    Compositor.reflow = counted_layout  # type: ignore[method-assign]
    if profiler is not None:
        profiler.enable()
    for _ in range(actions):
        for t, h in enumerate(hosted):
            table = h.table
            assert table is not None
            game = table.game
            if game.over or game.to_move is None:
                continue
            seat = game.to_move
            here = [i for i in range(sessions) if i % tables == t]
            c0 = time.process_time()
            await table.submit(seat, bot.choose(game.view(seat), rng))
            await settled([apps[i] for i in here], [procs[i] for i in here])
            cpu += time.process_time() - c0
            moves += 1
    if profiler is not None:
        profiler.disable()
    Compositor.reflow = _reflow  # type: ignore[method-assign]
    per_table = sessions / tables
    figures = {"cpu_ms": cpu / moves / per_table * 1000,
               "layouts": layouts[0] / moves / per_table}
    print(f"{sessions} sessions at {tables} GoTown tables of {SEATS}, {size[0]}x{size[1]}, "
          f"{moves} moves; hints on")
    print(f"server CPU per session per move {figures['cpu_ms']:.2f} ms; "
          f"screen layouts per session per move {figures['layouts']:.2f}")
    if profiler is not None:
        import pstats
        calls = pstats.Stats(profiler).total_calls  # type: ignore[attr-defined]
        figures["calls"] = calls / moves / per_table
        print(f"Python calls per session per move {figures['calls']:.0f}")
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await lobby.close()
    pool.close()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--size", default="80x24")
    parser.add_argument("--calls", action="store_true",
                        help="count the server's Python calls per viewer per move")
    parser.add_argument("--profile", default=None, help="write the --calls profile here")
    parser.add_argument("--json", default=None, help="write the figures here")
    parser.add_argument("--compare", default=None, help="an earlier --json: print ratios")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    profiler = None
    if args.calls:  # its clock counts calls and returns: the same on any machine
        ticks = itertools.count()
        profiler = cProfile.Profile(lambda: next(ticks), 1e-6)
    figures = asyncio.run(run(args.sessions, args.actions, (width, height), profiler))
    keep_figures(figures, profiler, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
