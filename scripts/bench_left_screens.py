"""What a left screen and an ended session leave to the cyclic collector.

    python scripts/bench_left_screens.py [--tables 2] [--seats 2] [--watchers 1]

Hosts tables as ``scripts/bench_games_memory.py`` does (the real LobbyApp
and table screens on fake SSH channels, random bots' moves), plays a warm-up
game, then with the collector disabled:

- the rematch: every player's end screen and table screen are left (each
  watcher goes back to the lobby and watches the next game); it prints how
  many of the left screens are already freed (a weak reference dead without
  a collection) and the objects ``gc.collect()`` then finds unreachable, per
  viewer;
- an ended session: one player's App exits (another session sits in the
  lobby); whether it is freed without a collection, and the objects a
  collection then finds;
- a watcher's session ends, a toast shown: the same;
- with hints on (``--hints``, a table of its own, 5 Towers then GoTown): a
  player leaves a finished game for the lobby; how many of its left screens are freed without a
  collection (its table screen's finished ``fetch_hint`` workers held it).

The server freezes what survives a while (``fivetowers/server/collector.py``):
what a left screen leaves to the cyclic collector, frozen, waits for a
reclaim's full collection. These counts do not depend on the machine.
``--types`` prints the garbage's most common types.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import weakref
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_games_memory import Bench, _quiet  # noqa: E402

from fivetowers.compat.ended_app import let_go_of_app  # noqa: E402


def garbage(types: bool) -> int:
    """Collect; the objects found unreachable (and their types, if asked)."""
    if not types:
        return gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        found = gc.collect()
        print("    " + ", ".join(f"{kind} {n}" for kind, n in Counter(
            type(o).__qualname__ for o in gc.garbage).most_common(12)))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.collect()  # (saved, the cycles stayed: freed now, not counted again)
    return found


async def end_session(bench: Bench, app: Any, let_go: bool) -> weakref.ref[Any]:
    """``app``'s session ends as on the server: the App exits, its task
    ends, the session lets go of it (``compat/ended_app.py``; not with
    ``--keep-cycles``). The caller keeps no other reference to it."""
    ended = weakref.ref(app)
    app.exit()
    done, _ = await asyncio.wait(bench.tasks, return_when=asyncio.FIRST_COMPLETED)
    bench.tasks = [task for task in bench.tasks if task not in done]
    if let_go:
        let_go_of_app(app)
    del app, done  # (a done task's context holds its App)
    return ended


def _still(ended: weakref.ref[Any]) -> str:
    return "" if ended() is None else " (the App still alive: held, not garbage)"


async def run(args: argparse.Namespace) -> dict[str, Any]:
    bench = Bench(args.tables, args.seats, args.watchers)
    await bench.start()
    await bench.play_round()  # the warm-up: caches fill, styles are parsed
    viewers = len(bench.apps)
    print(f"{args.tables} tables of {args.seats} players and {args.watchers} watcher(s), "
          "5 Towers; with the cyclic collector disabled:")
    results: dict[str, Any] = {}
    lobby: Any = None
    gc.collect()
    gc.disable()
    try:
        playing = await bench.play_to_the_end()
        gc.collect()  # the game's own garbage is not counted
        left = [weakref.ref(screen) for app in bench.apps for screen in app.screen_stack[1:]]
        await bench.rematch(playing)
        await _quiet(bench.apps)
        # (a player's table screen is kept for the rematch: not left)
        left = [ref for ref in left
                if not any(ref() in app.screen_stack for app in bench.apps)]
        freed = sum(ref() is None for ref in left)
        found = garbage(args.types)
        results["screens left"], results["freed"] = len(left), freed
        results["rematch garbage per viewer"] = found / viewers
        print(f"rematch: {freed} of {len(left)} left screens freed without a collection; "
              f"a collection then finds {found} objects, {found / viewers:.0f} a viewer")
        # Another session in the lobby: a change the ending ones make is
        # posted to its lobby screen (garbage of its start not counted).
        lobby = bench._open("lobby", None)
        await _quiet([*bench.apps, lobby])
        gc.collect()
        ended = await end_session(bench, bench.players[bench.codes[0]].pop(0), args.let_go)
        await _quiet([*bench.apps, lobby])
        freed = ended() is None  # (before a collection: it would free it)
        found = garbage(args.types)
        results["session freed"], results["session garbage"] = freed, found
        print(f"ended session: App {'freed' if freed else 'not freed'} without "
              f"a collection; a collection then finds {found} objects{_still(ended)}")
        if not bench.spectators[bench.codes[0]]:
            return results
        # A watcher leaves, with a toast still shown (its expiry timer, stopped,
        # waits in the loop's schedule with the App's context until its time).
        watcher = bench.spectators[bench.codes[0]].pop(0)
        watcher.notify("bye", timeout=3600)
        await _quiet([*bench.apps, watcher, lobby])
        ended = await end_session(bench, watcher, args.let_go)
        del watcher
        await _quiet([*bench.apps, lobby])
        freed = ended() is None
        found = garbage(args.types)
        results["watcher freed"], results["watcher garbage"] = freed, found
        print(f"a watcher leaves, a toast shown: App {'freed' if freed else 'not freed'} "
              f"without a collection; a collection then finds {found} objects{_still(ended)}")
    finally:
        gc.enable()
        if lobby is not None:
            lobby.exit()
        await bench.close()
    return results


async def left_with_hints(game: str = "fivetowers") -> tuple[int, int]:
    """A player with hints leaves a finished game for the lobby, the cyclic
    collector disabled from the game's start: (its left screens, how many of
    them are freed without a collection)."""
    bench = Bench(1, 2, 0, hints=True, game=game)
    await bench.start()
    gc.collect()
    gc.disable()
    try:
        await bench.play_to_the_end()
        app = bench.players[bench.codes[0]][0]
        left = [weakref.ref(screen) for screen in app.screen_stack[1:]]
        app.call_later(app.back_to_lobby)
        await _quiet(bench.apps)
        freed = sum(ref() is None for ref in left)
        print(f"{game}, with hints, back to the lobby: {freed} of {len(left)} left screens freed "
              "without a collection")
    finally:
        gc.enable()
    await bench.close()
    return len(left), freed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--watchers", type=int, default=1)
    parser.add_argument("--keep-cycles", dest="let_go", action="store_false",
                        help="an ended session's App not let go of (as before ended_app.py)")
    parser.add_argument("--types", action="store_true", help="the garbage's commonest types")
    parser.add_argument("--hints", action="store_true",
                        help="also a player with hints leaving a finished game")
    args = parser.parse_args()
    asyncio.run(run(args))
    if args.hints:
        for game in ("fivetowers", "gotown"):
            asyncio.run(left_with_hints(game))
    return 0


if __name__ == "__main__":
    sys.exit(main())
