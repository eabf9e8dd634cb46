"""The process test_store_kill.py kills: random games written to a store.

``python -m tests.tables.store_kill_writer DATA_DIR [async|paced]`` restores
every unfinished table from the store by replaying its record (as the server
does at start), then plays random legal actions on a few tables at once,
forever: on one thread with a commit per action, or (``async``) as asyncio
tasks committing through the StoreWriter thread, in groups. ``paced`` is the
one-thread writer that, after each line, waits for a line on stdin before it
writes again, so a kill it is given while waiting falls between two writes.
Each line on stdout is written only after the store call it reports has
returned (committed):

- ``C <table> <seed>``: a table was created;
- ``A <table> <index>``: action ``index`` of a table was committed;
- ``F <table>``: a table was marked finished (results and ratings); a
  table restored with its game over (killed between its last action and
  this) is finished at start, as the server must do too.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from fivetowers.games.five_towers.rules.cards import shuffled_deck
from fivetowers.games.five_towers.rules.game import Game, Phase
from fivetowers.games.five_towers.rules.record import Record
from fivetowers.tables.restore import restore
from fivetowers.games.five_towers.rules.variant import Variant
from fivetowers.tables.store import (
    PendingAction, Store, StoredSeat, action_hook, open_store,
)
from fivetowers.tables.store_writer import StoreWriter
from tests.tables.random_play import random_action, step_rng
from tests.tables.kept import kept

LIVE_TABLES = 3


def seats_for(seed: int) -> list[StoredSeat]:
    count = 2 + seed % 4
    return [StoredSeat(f"P{i}", bot="random") if i % 2 else
            StoredSeat(f"P{i}", fingerprint=f"SHA256:kill{i}") for i in range(count)]


def variant_for(seed: int) -> Variant:
    return Variant.GREAT_POWERS if seed % 3 == 0 else Variant.BASE


def new_game(seed: int) -> Game:
    """The game a table of this seed plays.

    The deck is passed in, not shuffled by the game: a game given only a seed
    draws its reshuffle from an RNG that has shuffled the deck, while its
    replay (deck and seed) draws it from a fresh one, so a restored table
    would reshuffle differently from the table before the kill.
    """
    count = len(seats_for(seed))
    return Game([f"P{i}" for i in range(count)], variant_for(seed),
                deck=shuffled_deck(count, random.Random(seed)), seed=seed)


def new_table(store: Store, rng: random.Random) -> tuple[int, Game]:
    seed = rng.randrange(1 << 30)
    seats = seats_for(seed)
    game = new_game(seed)
    table_id = store.create_table(code=f"K{seed}", name="kill test", seats=seats,
                                  **kept(game))
    say(f"C {table_id} {seed}")
    return table_id, game


def finish(store: Store, table_id: int, game: Game) -> None:
    outcome = game.outcome()
    store.finish_table(table_id, [s.total for s in outcome.scores], outcome.winners)
    say(f"F {table_id}")


PACED = False


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    if PACED:
        sys.stdin.readline()


def restored(store: Store) -> dict[int, Game] | None:
    report = restore(store)  # as the server does at start
    if report.broken:
        print(f"tables that do not replay: {report.broken}", file=sys.stderr)
        return None
    for table_id in report.finished:
        say(f"F {table_id}")
    return {r.info.id: r.game for r in report.live if isinstance(r.game, Game)}


def main(data_dir: str) -> int:
    """Tables share the store on one thread, each action its own commit."""
    store = open_store(Path(data_dir))
    rng = random.Random()
    live = restored(store)
    if live is None:
        return 3
    while len(live) < LIVE_TABLES:
        table_id, game = new_table(store, rng)
        live[table_id] = game
    hooks = {t: action_hook(store, t) for t in live}
    while True:
        table_id = rng.choice(sorted(live))
        game = live[table_id]
        assert game.seed is not None
        action = random_action(game, step_rng(game.seed, len(game.actions)))
        game.apply(action)
        hooks[table_id](game)
        say(f"A {table_id} {len(game.actions) - 1}")
        if game.phase is Phase.OVER:
            finish(store, table_id, game)
            del live[table_id], hooks[table_id]
            new_id, new_game = new_table(store, rng)
            live[new_id], hooks[new_id] = new_game, action_hook(store, new_id)


async def main_async(data_dir: str) -> int:
    """Tables as asyncio tasks committing through StoreWriter (group commit),
    the way the server does: apply to a copy, await the commit, then swap."""
    store = open_store(Path(data_dir))
    writer = StoreWriter(store)
    rng = random.Random()
    live = await writer.call(restored, store)
    if live is None:
        return 3

    async def table(table_id: int, game: Game) -> None:
        while True:
            await asyncio.sleep(0)
            assert game.seed is not None
            after = game.clone()
            after.apply(random_action(game, step_rng(game.seed, len(game.actions))))
            await writer.append(PendingAction.last_of(table_id, after))
            game = after
            say(f"A {table_id} {len(game.actions) - 1}")
            if game.is_terminal():
                await writer.call(finish, store, table_id, game)
                table_id, game = await writer.call(new_table, store, rng)

    while len(live) < LIVE_TABLES:
        table_id, game = await writer.call(new_table, store, rng)
        live[table_id] = game
    await asyncio.gather(*(table(t, g) for t, g in live.items()))
    return 0


if __name__ == "__main__":
    if sys.argv[2:] == ["async"]:
        sys.exit(asyncio.run(main_async(sys.argv[1])))
    PACED = sys.argv[2:] == ["paced"]
    sys.exit(main(sys.argv[1]))
