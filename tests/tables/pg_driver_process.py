"""Server A of test_pg_remote's two-process test, as a process of its own:
opens a *Count* table on the shared store (printing its id), drives it, plays
seat 0 (says 1 whenever it is its turn), answers each chat line it hears with
``echo: <line>``, and prints its game's actions once the game is over.

Run: ``python -m tests.tables.pg_driver_process URL``.
"""

from __future__ import annotations

import asyncio
import json
import sys

from fivetowers.games import game_kind, register
from fivetowers.games.protocol import Match
from fivetowers.tables.pg_bus import Bus
from fivetowers.tables.pg_store import PgStore
from fivetowers.tables.remote import Driving, chat_payload
from fivetowers.tables.seats import Seat
from fivetowers.tables.store import PendingAction, StoredSeat
from fivetowers.tables.table import Table, TableEvent
from tests.tables.test_dummy_game import COUNT


async def main(url: str) -> None:
    register(COUNT)
    kind = game_kind(COUNT.name)
    store = PgStore(url, shared=True)
    bus = Bus(url)
    await bus.start()
    match = kind.new_match(["ann", "bo"], {}, 3)
    table_id = store.create_table(code="a2b2", name="ann's", kind=kind.name,
                                  setup=match.setup_json(),
                                  seats=[StoredSeat("ann", "fp-ann"), StoredSeat("bo", "fp-bo")])

    def keep(game: Match) -> None:
        item = PendingAction.last_of(table_id, game)
        store.append_action(item.table_id, item.index, item.action, item.setup)

    table: Table[Match] = Table(match, [Seat("ann"), Seat("bo")], kind=kind, on_action=keep)
    driving = Driving(store)
    driving.drive(table_id, table)
    bus.listen(driving.heard)
    over = asyncio.Event()
    answered = 0
    played = 0  # the version ann last moved at (a chat line redraws too)

    def changed(event: TableEvent) -> None:
        nonlocal answered, played
        for line in driving.chat[table_id][answered:]:
            store.announce(chat_payload(table_id, "ann", f"echo: {line.text}"))
        answered = len(driving.chat[table_id])
        if event.over:
            over.set()
        elif table.game.to_move == 0 and event.version != played:
            played = event.version
            asyncio.get_running_loop().create_task(table.submit(0, 1))

    table.subscribe(changed)
    print(table_id, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # B is ready
    await table.submit(0, 1)
    await over.wait()
    print(json.dumps(table.record()["actions"]), flush=True)
    await bus.close()
    store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
