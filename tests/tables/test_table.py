"""The live table and its clients: one validator, persistence before events,
bots off the loop, hot-seat turns."""

from __future__ import annotations

import asyncio
import contextvars
import gc
import threading

import pytest

from fivetowers.games.five_towers.rules import (
    Bid, Game, IllegalBid, NotYourTurn, Pass, Phase, Position, Record, Variant, replay,
)
from fivetowers.games.five_towers.client import LocalClient, TableClient, new_local_game
from fivetowers.games.five_towers.bots.random_bot import RandomBot
from fivetowers.games.five_towers.solver import exhaustive_hint
from fivetowers.games.protocol import ActionRefused
from fivetowers.tables.seats import Seat
from fivetowers.user_text import clean_name
from fivetowers.tables.table import ActionNotKept, Table, TableEvent
from fivetowers.tables.workers import Workers


def two_humans(seed: int = 3) -> Table:
    game = Game(["Ann", "Bo"], Variant.BASE, seed=seed)
    return Table(game, [Seat("Ann"), Seat("Bo")], bot_delay=0)


async def test_persists_before_telling_anyone() -> None:
    order: list[str] = []
    table = two_humans()
    table.on_action = lambda game: order.append(f"store {game.actions[-1].to_json()}")
    table.subscribe(lambda event: order.append(f"event {event.version}"))
    await table.submit(0, Bid(0, 1))
    assert order == ["store {'seat': 0, 'bid': 1}", "event 1"]
    assert table.version == 1


async def test_a_refused_action_changes_nothing_and_tells_nobody() -> None:
    events: list[TableEvent] = []
    stored: list[object] = []
    table = two_humans()
    table.on_action = stored.append
    table.subscribe(events.append)
    with pytest.raises(IllegalBid):
        await table.submit(0, Pass(0))  # the starting player cannot pass
    with pytest.raises(NotYourTurn):
        await table.submit(1, Bid(1, 1))
    with pytest.raises(ActionRefused, match="your own seat"):
        await table.submit(1, Bid(0, 1))  # acting for somebody else's seat
    assert (events, stored, table.version, table.game.actions) == ([], [], 0, [])


async def test_bots_play_a_whole_game_and_the_record_replays() -> None:
    game = Game(["A", "B", "C"], Variant.GREAT_POWERS, seed=11)
    seats = [Seat(n, bot="random") for n in "ABC"]
    stored: list[Game] = []
    table = Table(game, seats, bot_delay=0, on_action=stored.append,
                  bots={i: RandomBot() for i in range(3)})
    threads: set[int] = set()
    inner = RandomBot.choose

    def spy(bot: RandomBot, view, rng):  # type: ignore[no-untyped-def]
        threads.add(threading.get_ident())
        return inner(bot, view, rng)

    RandomBot.choose = spy  # type: ignore[method-assign]
    try:
        table.start()
        await table.wait_idle()
    finally:
        RandomBot.choose = inner  # type: ignore[method-assign]
    assert table.bot_error is None
    assert table.over
    assert threading.get_ident() not in threads  # bots thought off the event loop
    assert [g.actions[-1].to_json() for g in stored] == \
        [a.to_json() for a in table.game.actions]
    again, error = replay(Record.from_json(table.record()))
    assert error is None
    assert again.outcome() == table.game.outcome()


async def test_same_seed_same_bot_game() -> None:
    results = []
    for _ in range(2):
        client = new_local_game(2, 2, Variant.BASE, seed=5, bot_delay=0,
                                bots_by_seat={0: RandomBot(), 1: RandomBot()})
        client.table.start()
        await client.table.wait_idle()
        results.append([a.to_json() for a in client.table.game.actions])
    assert results[0] == results[1]


async def test_a_broken_bot_is_reported_not_swallowed() -> None:
    class Broken:
        def choose(self, view, rng):  # type: ignore[no-untyped-def]
            raise RuntimeError("boom")

    game = Game(["A", "B"], Variant.BASE, seed=1)
    table = Table(game, [Seat("A", bot="x"), Seat("B")], bot_delay=0, bots={0: Broken()})
    events: list[TableEvent] = []
    table.subscribe(events.append)
    table.start()
    await table.wait_idle()
    assert isinstance(table.bot_error, RuntimeError) and events


async def test_hot_seat_follows_the_human_to_move() -> None:
    client = new_local_game(2, 0, Variant.BASE, seed=2, bot_delay=0)
    assert isinstance(client, LocalClient) and client.hot_seat
    assert client.seat == 0 and client.view().my_turn
    await client.submit(Bid(0, 1))
    view = client.view()
    if view.phase is Phase.BID:  # seat 1 may raise: it is now their screen
        assert client.seat == 1 and client.view().my_turn
        assert client.view().own_teardown == ()
    names = [s.name for s in client.seats()]
    assert names == ["Player 1", "Player 2"]


async def test_hint_runs_in_a_thread_for_the_viewer() -> None:
    seen: list[tuple[int, Position]] = []

    def hinter(position: Position) -> object:
        seen.append((threading.get_ident(), position))
        return exhaustive_hint(position)

    table = two_humans()
    client = TableClient(table, 0, hinter)
    hint = await client.hint()
    again = await client.hint()  # same position: cached
    assert hint is again and len(seen) == 1
    assert seen[0][0] != threading.get_ident()
    assert seen[0][1].display == list(table.game.display)
    assert hint.max_bid == table.game.max_bid(0)
    assert await TableClient(table, None).hint() is None  # spectators get none


def test_names_lose_escape_sequences_and_control_characters() -> None:
    assert clean_name("\x1b[31mEvil\x1b[0m\n") == "Evil"
    assert clean_name("a\u202eb\u200bc") == "abc"
    assert clean_name("[b]Bo") == "bBo"  # names carry no markup brackets (one cleaner)
    assert clean_name("  a   b ") == "a b"
    assert clean_name("\x07\x1b") == "player"
    assert len(clean_name("x" * 100)) == 16


def test_local_game_arguments_are_checked() -> None:
    with pytest.raises(ValueError):
        new_local_game(6, 1)
    with pytest.raises(ValueError):
        new_local_game(3, 4)
    client = new_local_game(3, 2, seed=1, names=["Ann", "Ann", "Ann"], bot_kind="random")
    assert [s.name for s in client.seats()] == ["Ann", "Ann 2", "Ann 3"]
    assert [s.bot for s in client.seats()] == [None, "random", "random"]


async def test_advice_is_the_advisers_move_on_your_turn_only() -> None:
    asked: list[int] = []

    class Adviser:
        def choose(self, view, rng):  # type: ignore[no-untyped-def]
            asked.append(threading.get_ident())
            return Bid(view.seat, max(view.legal_bids))

    table = two_humans()
    mine, theirs = TableClient(table, 0, adviser=Adviser()), TableClient(table, 1,
                                                                         adviser=Adviser())
    advice = await mine.advice()
    assert advice == Bid(0, table.game.max_bid(0))
    assert await mine.advice() == advice and len(asked) == 1  # once per version
    assert await theirs.advice() is None  # not their turn
    assert threading.get_ident() not in asked
    assert await TableClient(table, 0).advice() is None  # no adviser, no advice


async def test_advice_asked_again_while_on_its_way_is_the_same_search() -> None:
    """A screen's fetch restarted at the same version (a redraw before the
    hint came, hints toggled) waits for the search on its way, not a second."""
    asked: list[int] = []
    release = threading.Event()

    class Adviser:
        def choose(self, view, rng):  # type: ignore[no-untyped-def]
            asked.append(view.seat)
            release.wait(10)
            return Bid(view.seat, max(view.legal_bids))

    table = two_humans()
    mine = TableClient(table, 0, adviser=Adviser())
    first = asyncio.ensure_future(mine.advice())
    await asyncio.sleep(0.05)
    first.cancel()  # the screen's fetch restarts
    again = asyncio.ensure_future(mine.advice())
    await asyncio.sleep(0)
    release.set()
    assert await again == Bid(0, table.game.max_bid(0)) and asked == [0]


@pytest.mark.parametrize("moved_on", [True, False], ids=["table-moved-on", "same-version"])
async def test_advice_nobody_waits_for_any_more_is_not_searched(moved_on: bool) -> None:
    """Queued behind a busy pool, the adviser's search is dropped once its
    screen stops waiting: the table moved past the bid, or the player left
    the table screen or turned hints off (before, it ran for nobody). At
    the same version, asked again later, it searches again."""
    asked: list[int] = []

    class Adviser:
        def choose(self, view, rng):  # type: ignore[no-untyped-def]
            asked.append(view.seat)
            return Bid(view.seat, max(view.legal_bids))

    table = two_humans()
    table.workers = Workers(1, threads=True)
    table.workers.width = 1
    try:
        release = threading.Event()
        busy = table.workers.submit(release.wait, 10.0)
        mine = TableClient(table, 0, adviser=Adviser())
        fetch = asyncio.ensure_future(mine.advice())
        await asyncio.sleep(0)
        if moved_on:
            await table.submit(0, Bid(0, 0))
        fetch.cancel()  # the screen's fetch
        await asyncio.sleep(0)
        await asyncio.sleep(0)  # (a turn for someone to ask again)
        release.set()
        await busy
        await asyncio.sleep(0.05)
        assert asked == [] and table.workers.stats.dropped == {"advice": 1}
        if not moved_on:
            assert await mine.advice() == Bid(0, table.game.max_bid(0)) and asked == [0]
    finally:
        table.workers.close()


async def test_advice_is_searched_in_a_context_of_its_own() -> None:
    # Asked from a screen's worker, its task's context held the worker, and
    # so the screen owning the client, in a cycle.
    asker: contextvars.ContextVar[str] = contextvars.ContextVar("asker")

    class Adviser:
        def choose(self, view, rng):  # type: ignore[no-untyped-def]
            return Bid(view.seat, max(view.legal_bids))

    table = two_humans()
    seen: list[str | None] = []
    choose = table.workers.choose

    async def choose_seen(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(asker.get(None))
        return await choose(*args, **kwargs)

    table.workers.choose = choose_seen  # type: ignore[method-assign]
    mine = TableClient(table, 0, adviser=Adviser())
    asker.set("a screen's worker")
    assert await mine.advice() == Bid(0, table.game.max_bid(0))
    assert seen == [None]


async def test_advice_that_failed_is_asked_again_not_remembered() -> None:
    # The workers restarted (BrokenProcessPool) or the adviser failed: the
    # next ask at the same version searches again instead of the same error.
    asked: list[int] = []

    class Adviser:
        def choose(self, view, rng):  # type: ignore[no-untyped-def]
            asked.append(view.seat)
            if len(asked) == 1:
                raise ValueError("the adviser failed")
            return Bid(view.seat, max(view.legal_bids))

    table = two_humans()
    mine = TableClient(table, 0, adviser=Adviser())
    with pytest.raises(ValueError):
        await mine.advice()
    await asyncio.sleep(0)  # (the search's end is told a turn later)
    assert await mine.advice() == Bid(0, table.game.max_bid(0)) and asked == [0, 0]


async def test_advice_that_failed_after_its_screen_stopped_waiting_is_not_logged() -> None:
    # Its screen's fetch cancelled in the turn the search failed: nobody
    # takes its error but the client.
    reported: list[str] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _, context: reported.append(context["message"]))
    try:
        table = two_humans()
        table.workers = Workers(1, threads=True)  # (not the process's: its choose replaced)
        outcome: asyncio.Future[Bid] = loop.create_future()

        async def choose(*args, **kwargs):  # type: ignore[no-untyped-def]
            return await outcome

        table.workers.choose = choose  # type: ignore[method-assign]
        mine = TableClient(table, 0, adviser=object())  # type: ignore[arg-type]
        fetch = asyncio.ensure_future(mine.advice())
        await asyncio.sleep(0)
        assert mine._advice is not None
        search = mine._advice.task
        fetch.cancel()
        outcome.set_exception(ValueError("the adviser failed"))
        for _ in range(3):
            await asyncio.sleep(0)
        assert search.done() and not search.cancelled() and mine._advice is None
        del search, mine, fetch
        gc.collect()
        await asyncio.sleep(0)
        assert reported == []
    finally:
        loop.set_exception_handler(None)
        table.workers.close()


async def test_a_stand_in_bot_plays_an_absent_seat_until_it_is_given_back() -> None:
    table = two_humans()
    events: list[TableEvent] = []
    table.subscribe(events.append)
    table.stand_in(0, RandomBot())
    await table.wait_idle()
    assert table.game.actions and table.game.actions[0].seat == 0 and events
    table.stand_in(0, None)
    assert not table.is_bot(0)
    bots = Table(Game(["A", "B"], Variant.BASE, seed=1), [Seat("A", bot="random"), Seat("B")],
                 bot_delay=0, bots={0: RandomBot()})
    bots.stand_in(0, None)  # a bot's own seat keeps its bot
    assert bots.is_bot(0)


async def test_a_store_failure_leaves_the_game_as_it_was() -> None:
    table = two_humans()
    events: list[TableEvent] = []
    table.subscribe(events.append)

    def broken_store(game: Game) -> None:
        raise OSError("disk full")

    table.on_action = broken_store
    with pytest.raises(ActionNotKept, match="cannot save moves right now") as refused:
        await table.submit(0, Bid(0, 1))
    assert isinstance(refused.value.__cause__, OSError)  # the cause, for the log
    assert (table.game.actions, table.game.high_bid, table.version) == ([], None, 0)
    assert table.cannot_save and len(events) == 1  # every screen is told, once
    table.on_action = None
    await table.submit(0, Bid(0, 1))  # and the table goes on
    assert table.version == 1 and not table.cannot_save


async def test_the_default_hint_is_the_solvers_and_its_plans_are_legal() -> None:
    table = Table(Game(["Ann", "Bo"], Variant.GREAT_POWERS, seed=6), [Seat("Ann"), Seat("Bo")],
                  bot_delay=0)
    client = TableClient(table, 0)  # the hinter the app uses unless told otherwise
    hint = await client.hint()
    assert hint.max_bid == table.game.max_bid(0)
    await client.submit(Bid(0, hint.max_bid))  # the whole display: nobody can raise
    assert table.game.phase is Phase.BUILD
    await client.submit(hint.plans[hint.max_bid].to_build(0))
    assert table.game.round == 2


def slow_store_table() -> tuple[Table, list[TableEvent], asyncio.Event, list[int]]:
    """Two humans at a table whose store keeps an action only once ``release``
    is set; ``kept`` lists the action counts it has kept."""
    table = two_humans()
    events: list[TableEvent] = []
    table.subscribe(events.append)
    release = asyncio.Event()
    kept: list[int] = []

    async def slow_store(game: Game) -> None:
        await release.wait()
        kept.append(len(game.actions))

    table.on_action = slow_store
    return table, events, release, kept


async def test_an_async_commit_shows_nothing_until_it_is_kept() -> None:
    """The hook awaits the disk: meanwhile the table shows the game before,
    tells nobody, and takes the next action only once this one is kept."""
    table, events, release, kept = slow_store_table()
    first = asyncio.create_task(table.submit(0, Bid(0, 1)))
    await asyncio.sleep(0.01)
    assert (table.game.actions, table.version, events, kept) == ([], 0, [], [])
    second = asyncio.create_task(table.submit(1, Bid(1, 2)))  # waits its turn
    await asyncio.sleep(0.01)
    assert table.version == 0
    release.set()
    await first
    await second
    assert kept == [1, 2] and table.version == 2 and len(events) == 2
    assert [a.to_json() for a in table.game.actions] == \
        [{"seat": 0, "bid": 1}, {"seat": 1, "bid": 2}]


async def test_a_failed_async_commit_refuses_a_bot_move_and_the_bot_tries_again() -> None:
    game = Game(["A", "B"], Variant.BASE, seed=1)
    table = Table(game, [Seat("A", bot="random"), Seat("B")], bot_delay=0,
                  bots={0: RandomBot()})
    table.save_retry_first = table.save_retry_max = 0.001
    tries: list[int] = []

    async def full_then_freed(game: Game) -> None:
        tries.append(len(game.actions))
        assert table.game.actions == []  # nothing was applied meanwhile
        if len(tries) <= 3:
            raise OSError("disk full")

    table.on_action = full_then_freed
    table.start()
    await asyncio.wait_for(table.wait_idle(), 30)
    assert tries == [1, 1, 1, 1] and table.bot_error is None and not table.cannot_save
    assert len(table.game.actions) == 1 and table.version == 1


async def test_bot_tasks_do_not_inherit_the_callers_context() -> None:
    """A session's context (Textual's active App) must not ride along in a
    bot task that outlives the session."""
    session_var: contextvars.ContextVar[str] = contextvars.ContextVar("session_var")
    seen: list[str] = []

    async def store(game: Game) -> None:
        seen.append(session_var.get("none"))

    game = Game(["A", "B"], Variant.BASE, seed=2)
    table = Table(game, [Seat("A", bot="random"), Seat("B", bot="random")], bot_delay=0,
                  bots={0: RandomBot(), 1: RandomBot()}, on_action=store)
    session_var.set("a session's App")
    table.start()
    await table.wait_idle()
    assert table.over and seen and set(seen) == {"none"}


async def test_a_submitter_gone_mid_commit_leaves_table_and_store_agreeing() -> None:
    """The session closes while its action is being kept: the store keeps it,
    so the table takes it too (and tells everyone)."""
    table, events, release, kept = slow_store_table()
    submit = asyncio.create_task(table.submit(0, Bid(0, 1)))
    await asyncio.sleep(0.01)
    submit.cancel()
    await asyncio.sleep(0.01)
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await submit
    assert kept == [1] and table.version == 1 and len(events) == 1
    assert [a.to_json() for a in table.game.actions] == [{"seat": 0, "bid": 1}]


async def test_a_clients_view_is_made_once_per_move_and_follows_every_move(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = two_humans()
    made: list[int | None] = []
    view_of = Game.view

    def counted(game: Game, seat: int | None):  # type: ignore[no-untyped-def]
        made.append(seat)
        return view_of(game, seat)

    monkeypatch.setattr(Game, "view", counted)
    client = TableClient(table, 1)
    first = client.view()
    assert client.view() is first and client.view() is first  # a redraw's reads: one view
    # The watcher's view, once a move for the whole table: each seat's comes from it.
    assert made == [None]
    assert TableClient(table, 0).view().seats is first.seats and made == [None]
    first_seat = table.game.to_move
    await table.submit(first_seat, Bid(first_seat, 1))
    after = client.view()
    assert after.bids[-1].amount == 1 and after is not first and len(made) == 2
    # A game changed in place without the table (a local game's engine): read again.
    table.game.apply(Pass(table.game.to_move) if table.game.may_pass()
                     else Bid(table.game.to_move, max(table.game.legal_bids())))
    assert client.view() is not after and len(made) == 3
