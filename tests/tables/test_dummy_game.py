"""Hosting needs nothing game-specific: a tiny game defined here, registered,
played at a live table into a real store, restored after a restart and
played to its end, result and ratings kept.

The game, *Count*: two players take turns naming 1, 2 or 3; the running
total starts at 0 and whoever brings it to the target (10, or 15) wins.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import pytest

from fivetowers.games import register, unregister
from fivetowers.games.protocol import (
    ActionRefused, Bot, GameOption, NoScreens, RecordError, Result, check_options,
)
from fivetowers.lobby.model import Lobby
from fivetowers.tables.restore import restore
from fivetowers.tables.seats import Seat
from fivetowers.tables.sqlite_store import SqliteStore
from fivetowers.tables.store import ActionHook, PendingAction, StoredSeat
from fivetowers.tables.store_writer import StoreWriter
from fivetowers.tables.table import Table

FORMAT = "count-record/1"


@dataclass(frozen=True, slots=True)
class CountView:
    total: int
    target: int
    to_move: int | None
    seat: int | None


class Count:
    def __init__(self, players: Sequence[str], target: int, seed: int) -> None:
        self.players, self.target, self.seed = list(players), target, seed
        self.said: list[int] = []

    @property
    def player_count(self) -> int:
        return 2

    @property
    def to_move(self) -> int | None:
        return None if self.is_terminal() else len(self.said) % 2

    def is_terminal(self) -> bool:
        return sum(self.said) >= self.target

    def apply(self, action: Any) -> None:
        if self.is_terminal():
            raise ActionRefused("the game is over")
        if action not in (1, 2, 3) or sum(self.said) + action > self.target:
            raise ActionRefused(f"you cannot say {action!r} now")
        self.said.append(action)

    def clone(self) -> Count:
        new = Count(self.players, self.target, self.seed)
        new.said = list(self.said)
        return new

    def view(self, seat: int | None) -> CountView:
        return CountView(sum(self.said), self.target, self.to_move, seat)

    def progress(self) -> str:
        return f"at {sum(self.said)} of {self.target}"

    def result(self) -> Result | None:
        if not self.is_terminal():
            return None
        winner = (len(self.said) - 1) % 2
        return Result(tuple(int(s == winner) for s in range(2)), (winner,))

    def action_count(self) -> int:
        return len(self.said)

    def action_json(self, index: int) -> dict[str, Any]:
        return {"say": self.said[index]}

    def setup_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "target": self.target, "seed": self.seed}

    def record_json(self) -> dict[str, Any]:
        return {**self.setup_json(), "players": list(self.players),
                "actions": [self.action_json(i) for i in range(len(self.said))]}


class Cautious:
    """Always says 1."""

    def choose(self, view: CountView, rng: random.Random) -> int:
        return 1


class Canny:
    """Leaves the total a multiple of four short of the target when it can."""

    def choose(self, view: CountView, rng: random.Random) -> int:
        left = view.target - view.total
        return left % 4 if left % 4 else rng.randint(1, min(3, left))


class CountKind:
    name = "count"
    title = "Count"
    record_format = FORMAT
    min_players = max_players = 2
    score_unit = "points"
    options = (GameOption("target", "Target", (("10", "ten"), ("15", "fifteen"))),)
    bot_kinds = ("cautious", "canny")
    late_bot = "cautious"
    preload = ()

    def players_problem(self, count: int) -> str | None:
        return None if count == 2 else f"Count is for 2 players, not {count}"

    def new_match(self, players: Sequence[str], options: Mapping[str, str],
                  seed: int) -> Count:
        return Count(players, int(check_options(self, options)["target"]), seed)

    def match_from_record(self, record: Mapping[str, Any]) -> Count:
        if record.get("format") != FORMAT or record.get("target") not in (10, 15):
            raise RecordError("not a Count record")
        match = Count(record["players"], record["target"], record["seed"])
        for raw in record.get("actions", []):
            match.apply(self.action_from_json(raw))
        return match

    def action_from_json(self, data: Any) -> int:
        if not isinstance(data, dict) or not isinstance(data.get("say"), int):
            raise RecordError(f"not a Count action: {data!r}")
        return int(data["say"])

    def make_bot(self, kind: str) -> Bot:
        bots: dict[str, Bot] = {"cautious": Cautious(), "canny": Canny()}
        if kind not in bots:
            raise ValueError(f"no {kind!r} bot for Count")
        return bots[kind]

    def options_of(self, setup: Mapping[str, Any]) -> dict[str, str]:
        return {"target": str(setup["target"])}

    def screens(self) -> Any:
        raise NoScreens("Count is played in tests only")


COUNT = CountKind()
SEATS = [StoredSeat("Ann", fingerprint="SHA256:ann"), StoredSeat("Robo (bot)", bot="canny")]


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    register(COUNT)
    yield
    unregister(COUNT.name)


def keeper(writer: StoreWriter, table_id: int) -> ActionHook:
    """A live table's commit, as the lobby's: off the loop, durable before shown."""
    known: dict[str, Any] | None = None

    async def keep(match: Any) -> None:
        nonlocal known
        item = PendingAction.last_of(table_id, match, known)
        await writer.append(item)
        if item.setup is not None:
            known = dict(item.setup)
    return keep


def seats_of(stored: Sequence[StoredSeat]) -> list[Seat]:
    return [Seat(s.name, bot=s.bot, identity=s.fingerprint) for s in stored]


async def test_a_tiny_game_plays_through_a_table_a_store_and_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    writer = StoreWriter(SqliteStore(path))
    match = COUNT.new_match([s.name for s in SEATS], {"target": "10"}, seed=3)
    table_id = await writer.call(writer.store.create_table, code="COUNT", name="count",
                                 kind=COUNT.name, setup=match.setup_json(), seats=SEATS)
    # No kind given: the table finds the game by its record format in the registry.
    table = Table(match, seats_of(SEATS), bot_delay=0, on_action=keeper(writer, table_id))
    assert table.kind is COUNT
    for _ in range(2):
        await table.submit(0, 1)
        await table.wait_idle()  # the canny bot answers
    with pytest.raises(ActionRefused):
        await table.submit(0, 7)
    with pytest.raises(ActionRefused, match="own seat"):
        await table.submit(1, 1)  # not Robo's turn, and not Ann's seat
    assert table.game.said == [1, 1, 1, 3] and not table.over
    await table.close()
    await writer.close()  # a restart

    store = SqliteStore(path)
    report = restore(store)
    assert report.broken == [] and report.finished == []
    [live] = report.live
    assert live.kind is COUNT and live.info.kind == "count"
    assert live.info.options == {"target": "10"} and live.info.actions == 4
    assert live.game.record_json() == table.record()
    writer = StoreWriter(store)
    table = Table(live.game, seats_of(live.info.seats), kind=live.kind, bot_delay=0,
                  on_action=keeper(writer, table_id))
    await table.submit(0, 1)
    await table.wait_idle()
    assert table.over and table.game.said == [1, 1, 1, 3, 1, 3]
    result = table.game.result()
    assert result == Result((0, 1), (1,))  # Robo brought it to ten
    assert await writer.call(store.finish_table, table_id, list(result.scores),
                             list(result.winners))
    await table.close()
    await writer.close()

    store = SqliteStore(path)
    stored = store.load_table(table_id)
    assert stored.info.finished is not None
    assert stored.info.scores == (0, 1) and stored.info.winners == (1,)
    assert stored.record == table.record()
    assert COUNT.match_from_record(stored.record).result() == result
    board = {r.identity: r for r in store.leaderboard()}
    assert set(board) == {"key:SHA256:ann", "bot:canny"}
    assert board["bot:canny"].wins == 1 and board["key:SHA256:ann"].wins == 0
    assert board["bot:canny"].rating > board["key:SHA256:ann"].rating
    assert store.unfinished_tables() == [] and restore(store).live == []
    store.close()


def test_a_table_of_a_game_this_server_does_not_know_is_set_aside(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "store.sqlite3")
    count = COUNT.new_match(["Ann", "Bo"], {}, seed=1)
    count.apply(2)
    table_id = store.create_table(code="ODD", name="odd", kind="count",
                                  setup=count.setup_json(), actions=[count.action_json(0)],
                                  seats=[StoredSeat("Ann"), StoredSeat("Bo")])
    unregister(COUNT.name)
    report = restore(store)
    assert report.live == [] and [b[0] for b in report.broken] == [table_id]
    reason = report.broken[0][1]
    assert "unknown game 'count'" in reason and "\n" not in reason
    [kept] = store.unfinished_tables()  # left in the store, untouched
    assert kept.info.kind == "count" and kept.info.options == {} and kept.info.actions == 1
    store.close()


async def _play_to_the_end(table: Table[Any], seat: int) -> None:
    while not table.over:
        if table.game.to_move == seat:
            left = table.game.target - sum(table.game.said)
            await table.submit(seat, min(left, 1 + len(table.game.said) % 3))
        await table.wait_idle()


async def test_the_lobby_hosts_a_tiny_game_keeps_it_and_serves_it_after_a_restart(
        tmp_path: Path) -> None:
    """The lobby above the tables is game-free too: a Count table is created,
    started, kept move by move, served again by the next server and finished."""
    path = tmp_path / "store.sqlite3"
    lobby = Lobby(bot_kind="canny", bot_delay=0.0, hints=False, store=SqliteStore(path))
    hosted = lobby.create("SHA256:ann", "Ann", title="to fifteen", players=2, bots=1,
                          private=False, kind="count", options={"target": "15"})
    assert hosted.kind is COUNT and hosted.options == {"target": "15"}
    seat = lobby.sit(hosted, "SHA256:ann", "Ann")
    table = hosted.table
    assert table is not None and isinstance(table.game, Count)
    assert hosted.status().startswith("playing, at 0 of 15")
    await table.submit(seat, 3)
    await table.wait_idle()  # the canny bot answers
    said = list(table.game.said)
    assert len(said) == 2 and hosted.status().startswith(f"playing, at {sum(said)} of 15")
    await lobby.close()

    again = Lobby(bot_kind="canny", bot_delay=0.0, hints=False, store=SqliteStore(path))
    report = again.restore()
    assert not report.broken
    (served,) = again.tables.values()
    assert served.kind is COUNT and served.options == {"target": "15"}
    assert served.table is not None and served.table.game.said == said
    assert again.sit(served, "SHA256:ann", "Ann") == seat
    await _play_to_the_end(served.table, seat)
    table_id = served.table_id
    await again.close()

    kept = SqliteStore(path)
    info = kept.load_table(table_id).info if table_id is not None else None
    assert info is not None and info.kind == "count" and info.finished is not None
    assert info.scores is not None and info.winners is not None
    assert {r.identity for r in kept.leaderboard()} == {"key:SHA256:ann", "bot:canny"}
    kept.close()


async def test_a_stand_in_is_of_the_tables_game_whatever_the_lobbys_bot(
        tmp_path: Path) -> None:
    """The lobby's bot (strong) is not one of Count's: an away player's
    stand-in is Count's strongest, as the table's own bots are."""
    lobby = Lobby(bot_kind="strong", bot_delay=0.0, absence_bot_after=0.0, hints=False)
    hosted = lobby.create("SHA256:ann", "Ann", title="t", players=2, bots=1, private=False,
                          kind="count")
    assert [s.bot for s in hosted.seats] == [None, "canny"]
    table = hosted.table
    assert table is not None and table.game.to_move == 0
    lobby.away(hosted, "SHA256:ann")
    for _ in range(100):
        if table.over:
            break
        await asyncio.sleep(0.01)
    assert table.over  # Ann's stand-in and the canny bot played it out
    await lobby.close()
