"""The server's garbage collection: frozen survivors are left alone until a
reclaim, which happens when sessions end."""

from __future__ import annotations

import asyncio
import gc
import logging
import weakref
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen
from textual.widget import Widget

from fivetowers.compat import freed_screens
from fivetowers.compat.freed_screens import screens_freed
from fivetowers.server import collector as collector_module
from fivetowers.server import serve as serve_module
from fivetowers.server.collector import (OLD_BY_SETTLES_ONLY, SCREEN_LEFT, SESSION_FREED,
                                         YOUNG_WHILE_STARTING, Pauses, QuietCollector)
from tests.server.server_helpers import StartServer


class Node:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()  # the process's collector as it was for the other tests
    gc.set_threshold(*thresholds)  # (a failed test may have left them raised)


def test_a_settle_freezes_survivors_until_a_reclaim() -> None:
    collector = QuietCollector()
    node = Node()
    ref = weakref.ref(node)
    collector.settle()
    assert collector.frozen and gc.get_freeze_count() > 0
    del node
    gc.collect()
    assert ref() is not None  # frozen: the full collection did not walk it
    collector.reclaim()
    assert not collector.frozen
    collector.settle()  # the first settle after a reclaim collects in full
    assert ref() is None


def test_young_cycles_are_collected_by_a_settle() -> None:
    collector = QuietCollector()
    collector.settle()
    ref = weakref.ref(Node())  # garbage at once, never frozen
    collector.settle()
    assert ref() is None


def test_the_last_session_ending_reclaims_at_once() -> None:
    collector = QuietCollector()
    collector.settle()
    collector.session_ended(live=3)
    assert collector.frozen and collector.ended == 1  # three others still play
    collector.session_ended(live=0)
    assert not collector.frozen and collector.ended == 0


def test_many_ended_sessions_reclaim_but_not_more_than_once_a_minute() -> None:
    collector = QuietCollector(reclaim_sessions=10)
    collector.settle()
    collector.last_reclaim -= 120  # the last reclaim was two minutes ago
    for _ in range(9):
        collector.session_ended(live=15)
    assert collector.frozen  # 9 of max(10, 15 // 2) needed
    collector.session_ended(live=15)
    assert not collector.frozen
    collector.settle()
    for _ in range(30):  # a crowd leaving right after: waits for the minute
        collector.session_ended(live=20)
    assert collector.frozen and collector.ended == 30


def test_a_start_settles_young_cycles_and_freezes_what_it_made() -> None:
    collector = QuietCollector()
    collector.settle()
    made = Node()  # what a start made and keeps
    kept = weakref.ref(made)
    dropped = weakref.ref(Node())  # garbage the start left
    collector.app_started()
    assert dropped() is None
    del made
    gc.collect()
    assert kept() is not None  # frozen: later collections do not walk it


async def test_the_full_collection_after_the_last_session_runs_soon() -> None:
    collector = QuietCollector(when_empty=0.01)
    collector.settle()
    node = Node()
    ref = weakref.ref(node)
    collector.settle()  # frozen with the session it belonged to
    del node
    collector.session_ended(live=0)
    assert not collector.frozen
    for _ in range(200):  # not left for the next start to pay
        await asyncio.sleep(0.01)
        if collector.frozen:
            break
    assert collector.frozen and ref() is None


async def test_an_app_still_held_when_the_last_session_ended_is_not_frozen() -> None:
    """Something may hold a finished session's App a moment longer than its
    session (a cancelled timer keeps the App's context until its time). The
    collection after the last session must not freeze it for good: on an
    empty server no reclaim would ever come to free it."""
    sessions: list[Node] = []
    collector = QuietCollector(every=3600, when_empty=0.01, live=lambda: len(sessions))
    sessions.append(Node())
    collector.app_started()  # the session's App, frozen while it plays
    app = sessions.pop()
    ref = weakref.ref(app)
    collector.session_ended(live=0)
    for _ in range(100):  # the collection a moment after the last session ended
        await asyncio.sleep(0.01)
        if collector.empty_collected:
            break
    assert collector.empty_collected
    collector.settle()  # and the periodic ones, while nobody plays
    del app  # what held it lets go
    gc.collect()
    assert ref() is None


def test_garbage_alive_at_a_settle_is_collected_by_the_next_walk() -> None:
    """What a screen shows until the next move is alive at one settle and
    garbage at the next: the walks between freezes must free it, not keep it
    frozen until a reclaim (that was the server's RSS growth during play)."""
    clock = Clock()
    collector = QuietCollector(freeze_every=60.0, walk_every=20.0, clock=clock)
    collector.settle()  # the first settle freezes what the server started with
    shown = Node()  # the lines a screen shows until the next move
    ref = weakref.ref(shown)
    clock.now += 5
    collector.settle()
    gc.collect(1)  # (it survived the young generations: in the oldest)
    del shown  # the next move replaced them
    clock.now += 15
    assert generations_collected(collector) == [2]  # 20 s after the last walk
    assert ref() is None and collector.freezes == 1


def test_a_settle_freezes_again_once_its_interval_passed() -> None:
    collector = QuietCollector(freeze_every=60.0)
    collector.settle()
    collector.last_freeze -= 61  # a minute went by
    kept = Node()
    ref = weakref.ref(kept)
    collector.settle()
    del kept
    collector.settle()
    assert ref() is not None  # frozen: settles do not walk the frozen heap


def test_a_reclaim_s_full_collection_tells_what_it_freed(
        caplog: pytest.LogCaptureFixture) -> None:
    # What each reclaim frees is the figure a trigger in memory would be
    # chosen from (the lead's load runs read it in the server's log).
    collector = QuietCollector()
    collector.settle()
    died_frozen = [Node() for _ in range(1000)]
    collector.settle(freeze=True)
    del died_frozen
    collector.reclaim()
    with caplog.at_level(logging.INFO, logger="fivetowers.server"):
        collector.settle()
    assert collector.last_full is not None
    objects, blocks = collector.last_full
    assert objects >= 1000 and blocks >= 1000
    assert f"full collection: {objects} objects, {blocks} blocks" in caplog.text


def test_screens_left_reclaim_like_ended_sessions() -> None:
    # Game after game at a table nobody leaves: the screens of the finished
    # games are the garbage, two of them as much as an ended session.
    collector = QuietCollector(reclaim_sessions=10)
    collector.settle()
    collector.last_reclaim -= 120
    for _ in range(19):
        collector.screen_left(live=20)
    assert collector.frozen  # 9.5 of max(10, 20 // 2)
    collector.screen_left(live=20)
    assert not collector.frozen and collector.ended == 0


def test_where_removed_widgets_die_by_reference_counting_left_screens_count_nothing() -> None:
    # compat.freed_screens: a left screen is not frozen garbage, an ended
    # session leaves only its App's own few cycles (SESSION_FREED of one).
    collector = QuietCollector(reclaim_sessions=10, screens_freed=lambda: True)
    collector.settle()
    collector.last_reclaim -= 120
    for _ in range(100):
        collector.screen_left(live=20)
    assert collector.frozen and collector.ended == 0
    for _ in range(199):
        collector.session_ended(live=20)
    assert collector.frozen  # 9.95 of max(10, 20 // 2)
    collector.session_ended(live=20)
    assert not collector.frozen and collector.ended == 0


async def test_a_server_counts_left_screens_as_freed_once_the_workarounds_are_in(
        start_server: StartServer) -> None:
    server = await start_server()  # (it installs them before its first App does)
    assert screens_freed()  # Textual's code as read: both are in
    assert (server.collector.screen_weight, server.collector.session_weight) \
        == (0.0, SESSION_FREED)


async def test_once_textual_s_internals_are_not_the_ones_read_left_screens_count_again(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # A Textual whose internals were renamed: the first removal finds it,
    # removals end as upstream's from then on (their screens frozen until
    # a reclaim), and the server's collector counts them so again.
    server = await start_server()
    assert server.collector.session_weight == SESSION_FREED

    def renamed(widget: Widget) -> list[Any]:
        raise AttributeError("'Screen' object has no attribute '_component_styles'")

    monkeypatch.setattr(freed_screens, "held_nodes", renamed)
    monkeypatch.setattr(freed_screens, "_warned", [])
    app = App[None]()
    async with app.run_test(size=(40, 10)) as pilot:
        await app.push_screen(Screen[None]())
        await app.pop_screen()
        for _ in range(4):
            await pilot.pause()
    assert not screens_freed()
    assert (server.collector.screen_weight, server.collector.session_weight) \
        == (SCREEN_LEFT, 1.0)


def test_a_screen_no_freeze_met_is_not_counted_but_freed_by_the_next_settle() -> None:
    """An end screen shown for the few seconds to a rematch, between two
    freezes, is young garbage: counted, such screens brought a reclaim (a
    full collection of the process) every minute, game after game."""
    collector = QuietCollector(reclaim_sessions=10)
    collector.settle()
    collector.last_reclaim -= 120
    shown_at = collector.freezes
    screen = Node()  # the end screen, shown after the last freeze
    ref = weakref.ref(screen)
    for _ in range(40):
        collector.screen_left(live=20, shown_at=shown_at)
    assert collector.frozen and collector.ended == 0  # no reclaim
    del screen
    collector.settle()
    assert ref() is None  # not frozen: walked and freed with the young garbage


def test_a_screen_a_freeze_met_counts_until_a_reclaim_unfreezes_it() -> None:
    collector = QuietCollector(reclaim_sessions=10)
    collector.settle()
    shown_at = collector.freezes
    collector.app_started()  # a session's start freezes the screen with its App
    collector.screen_left(live=20, shown_at=shown_at)
    assert collector.ended == 0.5
    collector.reclaim()  # unfrozen: the next settle's full collection frees it
    collector.screen_left(live=20, shown_at=shown_at)
    assert collector.ended == 0
    collector.settle()  # frozen again, with whatever is alive then
    collector.screen_left(live=20, shown_at=shown_at)
    assert collector.ended == 0.5


async def test_a_hosted_app_stamps_each_screen_with_the_freezes_it_was_first_shown_at() -> None:
    from textual.screen import Screen

    from fivetowers.server.hosted import HostedApp

    freezes = [3]
    left: list[tuple[str, int | None]] = []

    class Shown(Screen[None]):
        pass

    class App(HostedApp):
        def on_mount(self) -> None:
            self.push_screen(Shown(name="table"))

    app = App()
    app.freezes = lambda: freezes[0]
    app.on_screen_left = lambda shown_at: left.append((app.screen.name or "", shown_at))
    async with app.run_test() as pilot:
        await pilot.pause()
        freezes[0] = 4
        await app.push_screen(Shown(name="end"))
        freezes[0] = 5
        await app.pop_screen()  # the end screen, shown at 4
        await app.switch_screen(Shown(name="lobby"))  # the table, shown at 3
        assert left == [("end", 4), ("table", 3)]


async def test_a_hosted_app_tells_each_screen_it_leaves_for_good() -> None:
    from textual.screen import ModalScreen, Screen

    from fivetowers.server.hosted import HostedApp

    left: list[str] = []

    class Shown(Screen[None]):
        pass

    class Dialog(ModalScreen[None]):
        pass

    class App(HostedApp):
        def on_mount(self) -> None:
            self.push_screen(Shown(name="table"))

    app = App()
    app.on_screen_left = lambda shown_at: left.append(app.screen.name or "")
    async with app.run_test() as pilot:
        await pilot.pause()
        await app.switch_screen(Shown(name="end"))  # the game is over: the table left
        app.install_screen(Shown(name="kept"), "kept")
        await app.push_screen("kept")
        await app.pop_screen()  # installed: kept, not garbage
        await app.switch_screen(app.screen)  # the same screen: nothing left
        await app.push_screen(Shown(name="leaderboard"))
        await app.pop_screen()
        await app.push_screen(Dialog(name="help"))  # a few widgets: not counted
        await app.pop_screen()
        assert left == ["table", "leaderboard"]


def test_young_collections_wait_while_apps_start_and_come_back_after() -> None:
    """What a start allocates lives as long as its session: walked by young
    collections during the start it would be walked three times, not once."""
    collector = QuietCollector()
    thresholds = gc.get_threshold()
    young: list[int] = []

    def heard(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] < 2:
            young.append(info["generation"])

    try:
        collector.start_began()
        collector.start_began()  # two Apps start at once
        gc.callbacks.append(heard)  # (after: a young collection may be due until then)
        made = [Node() for _ in range(20 * thresholds[0])]  # a start's objects
        assert young == []
        collector.start_ended()
        assert gc.get_threshold()[0] >= YOUNG_WHILE_STARTING  # the other still starts
        collector.start_ended()
        assert gc.get_threshold() == thresholds and collector.starting == 0
        more = [Node() for _ in range(20 * thresholds[0])]
        assert young  # the interpreter's own schedule again
        collector.start_ended()  # an extra end changes nothing
        assert gc.get_threshold() == thresholds and collector.starting == 0
    finally:
        if heard in gc.callbacks:
            gc.callbacks.remove(heard)
        gc.set_threshold(*thresholds)
    del made, more


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def generations_collected(collector: QuietCollector) -> list[int]:
    """The generations collected while ``collector.settle()`` ran (the
    interpreter's own would be heard too; none is due in so few allocations)."""
    heard: list[int] = []

    def listen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            heard.append(info["generation"])

    gc.callbacks.append(listen)
    try:
        collector.settle()
    finally:
        gc.callbacks.remove(listen)
    return heard


def test_settles_freeze_once_an_interval_on_the_collectors_clock() -> None:
    clock = Clock()
    collector = QuietCollector(freeze_every=15.0, clock=clock)
    collector.settle()
    assert collector.freezes == 1
    for _ in range(2):  # settles every five seconds
        clock.now += 5
        collector.settle()
    assert collector.freezes == 1
    clock.now += 5
    collector.settle()
    assert collector.freezes == 2


def test_between_freezes_settles_collect_the_young_and_a_freeze_all_that_is_unfrozen() -> None:
    """What survived the young generations waits for the next walk (at most
    ``walk_every``; here the next freeze's), which frees it if it died:
    the settles in between walk only what is new."""
    clock = Clock()
    collector = QuietCollector(freeze_every=15.0, clock=clock, walk_every=3600.0)
    collector.settle()  # the first walks everything and freezes
    assert collector.frozen
    node = Node()
    ref = weakref.ref(node)
    gc.collect(1)  # survived the young collections: in the oldest generation
    del node
    clock.now += 5
    assert generations_collected(collector) == [1]
    assert ref() is not None  # not walked between freezes
    clock.now += 10
    assert generations_collected(collector) == [2]
    assert ref() is None  # the freeze's walk freed it before freezing
    assert collector.freezes == 2


def test_settles_walk_all_that_is_unfrozen_once_a_walk_interval() -> None:
    clock = Clock()
    collector = QuietCollector(freeze_every=60.0, walk_every=20.0, clock=clock)
    collector.settle()
    walks = []
    for _ in range(12):  # settles every five seconds up to the next freeze
        clock.now += 5
        walks.append(generations_collected(collector) == [2])
    assert walks == [False, False, False, True] * 3
    assert collector.freezes == 2  # the last walk, at 60 s, froze too
    collector = QuietCollector(walk_every=0.0, clock=clock)  # every settle walks
    collector.settle()
    clock.now += 5
    assert generations_collected(collector) == [2]


async def test_while_settles_run_the_interpreter_never_walks_the_oldest_generation() -> None:
    thresholds = gc.get_threshold()
    collector = QuietCollector(every=3600)
    running = asyncio.get_running_loop().create_task(collector.run())
    await asyncio.sleep(0)
    try:
        assert gc.get_threshold()[:2] == thresholds[:2]
        assert gc.get_threshold()[2] >= 1_000_000
    finally:
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
    assert gc.get_threshold() == thresholds


def test_the_pauses_are_counted_by_kind() -> None:
    collector = QuietCollector()
    collector.settle()  # nothing frozen yet: a walk of everything
    collector.settle()
    collector.app_started()
    taken = collector.pauses.taken
    assert {kind: len(ms) for kind, ms in taken.items()} == {"full": 1, "settle": 1, "start": 1}
    summary = collector.pauses.summary()
    assert summary.startswith("collector pauses: ") and "full 1 " in summary


async def test_a_settle_waits_for_a_burst_of_work_to_end() -> None:
    """A collection in the middle of a burst (a move's redraws for every
    viewer, keys queued) holds up all of it: the regular settle waits until
    the loop naps on time."""
    import time

    from fivetowers.server.collector import quiet_moment

    loop = asyncio.get_running_loop()
    burst = 60
    done: list[int] = []

    def redraw() -> None:
        time.sleep(0.003)  # a viewer's redraw, the loop busy
        done.append(1)
        if len(done) < burst:
            loop.call_soon(redraw)

    loop.call_soon(redraw)
    found = await quiet_moment(longest=60.0)
    assert found and len(done) == burst


async def _running(collector: QuietCollector) -> asyncio.Task[None]:
    running = asyncio.get_running_loop().create_task(collector.run())
    await asyncio.sleep(0)  # it has begun: its thresholds are held
    return running


async def _stopped(running: asyncio.Task[None]) -> None:
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running


async def test_a_server_stopped_during_a_start_gives_the_thresholds_back() -> None:
    """The start ends after the collector stopped (the server cancels it
    before its sessions end): each saving and restoring the thresholds on
    its own left the process at (700, 10, 1000000), no collector running."""
    thresholds = gc.get_threshold()
    collector = QuietCollector(every=3600)
    running = await _running(collector)
    collector.start_began()
    await _stopped(running)
    collector.start_ended()
    assert gc.get_threshold() == thresholds


async def test_two_collectors_stopped_in_the_order_they_started_give_the_thresholds_back() -> None:
    thresholds = gc.get_threshold()
    first, second = QuietCollector(every=3600), QuietCollector(every=3600)
    first_running = await _running(first)
    second_running = await _running(second)
    await _stopped(first_running)
    assert gc.get_threshold() == (*thresholds[:2], OLD_BY_SETTLES_ONLY)  # the second runs
    await _stopped(second_running)
    assert gc.get_threshold() == thresholds


def test_starts_on_two_servers_ending_in_the_order_they_began_give_the_thresholds_back() -> None:
    thresholds = gc.get_threshold()
    first, second = QuietCollector(), QuietCollector()
    first.start_began()
    second.start_began()
    first.start_ended()
    assert gc.get_threshold()[0] >= YOUNG_WHILE_STARTING  # the second's start goes on
    second.start_ended()
    assert gc.get_threshold() == thresholds


def test_an_empty_server_still_walks_what_reached_the_oldest_generation() -> None:
    """With the interpreter no longer walking the oldest generation, what
    outlives two middle collections and then dies while nobody plays (a
    login, a refused connection) stayed for good: 40,000 objects a round."""
    clock = Clock()
    collector = QuietCollector(live=lambda: 0, walk_every=20.0, clock=clock)
    collector.settle()  # nobody plays: everything walked, nothing frozen
    assert collector.empty_collected and not collector.frozen
    login = Node()
    ref = weakref.ref(login)
    gc.collect(1)
    gc.collect(1)  # it outlived the middle generation: in the oldest
    del login
    clock.now += 5
    assert generations_collected(collector) == []  # not a walk_every since the last walk
    assert ref() is not None
    clock.now += 15
    assert generations_collected(collector) == [2]
    assert ref() is None and not collector.frozen
    clock.now += 20
    assert generations_collected(collector) == []  # nothing reached it since


async def test_the_regular_settle_comes_after_the_quiet_moment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``run`` waits for the loop to idle before each settle (see
    ``test_a_settle_waits_for_a_burst_of_work_to_end``) and counts the
    waits that gave up."""
    burst_over = asyncio.Event()
    waits: list[bool] = []

    async def quiet_moment(longest: float = 1.0) -> bool:
        await burst_over.wait()  # a burst of redraws, keys queued
        waits.append(len(waits) > 0)  # the first wait gives up
        return waits[-1]

    monkeypatch.setattr(collector_module, "quiet_moment", quiet_moment)
    collector = QuietCollector(every=0.0)
    running = await _running(collector)
    try:
        for _ in range(20):
            await asyncio.sleep(0)
        assert collector.pauses.counts == {}  # no settle in the middle of the burst
        burst_over.set()
        for _ in range(100):
            await asyncio.sleep(0)
            if sum(collector.pauses.counts.values()) >= 2:
                break
        assert sum(collector.pauses.counts.values()) == len(waits) >= 2
        assert collector.pauses.not_quiet == 1
        assert "1 settles found no idle moment" in collector.pauses.summary()
    finally:
        await _stopped(running)


def test_the_pauses_summary_counts_them_all_not_only_those_kept() -> None:
    pauses = Pauses(kept=2)
    for ms in (1.0, 2.0, 3.0, 4.0, 5.0):
        pauses.add("settle", ms)
    assert len(pauses.taken["settle"]) == 2
    assert "settle 5 (" in pauses.summary()


def test_a_start_right_after_a_reclaim_leaves_the_full_collection_to_the_settle() -> None:
    """The full collection a reclaim brings is not run in a start's first
    frame (starts come in bursts as games end); the next regular settle
    runs it, and freezes the start's App with the rest."""
    collector = QuietCollector()
    collector.settle()
    node = Node()
    ref = weakref.ref(node)
    collector.settle(freeze=True)  # frozen with the session it belonged to
    del node
    collector.reclaim()
    freezes = collector.freezes
    collector.app_started()
    assert collector.pauses.counts == {"full": 1, "start": 1}  # the start did not collect
    assert collector.freezes == freezes and not collector.frozen
    assert ref() is not None  # still waiting for the full collection
    collector.settle()
    assert ref() is None and collector.frozen
    assert collector.pauses.counts == {"full": 2, "start": 1}
    collector.app_started()  # once it ran, starts settle again
    assert collector.pauses.counts == {"full": 2, "start": 2}


async def _first_waits(monkeypatch: pytest.MonkeyPatch, collector: QuietCollector,
                       found: Callable[[int], bool] = lambda wait: True
                       ) -> list[tuple[float, int]]:
    """``collector.run``'s first three quiet waits: each one's longest, and
    the full collections before it; ``found(n)``: whether the n-th wait
    found an idle moment."""
    waits: list[tuple[float, int]] = []

    async def quiet_moment(longest: float = 1.0) -> bool:
        waits.append((longest, collector.pauses.counts.get("full", 0)))
        await asyncio.sleep(0)
        return found(len(waits))

    monkeypatch.setattr(collector_module, "quiet_moment", quiet_moment)
    running = await _running(collector)
    try:
        for _ in range(100):
            await asyncio.sleep(0)
            if len(waits) >= 3:
                break
    finally:
        await _stopped(running)
    return waits[:3]


async def test_the_full_collection_after_a_reclaim_waits_longer_for_an_idle_moment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    collector = QuietCollector(every=0.0)
    collector.settle()
    collector.reclaim()
    waits = await _first_waits(monkeypatch, collector)
    full, regular = collector_module.QUIET_WAIT_FULL, collector_module.QUIET_WAIT
    assert full > regular
    # The first settle is the reclaim's full collection; the ones after are regular.
    assert waits == [(full, 1), (regular, 2), (regular, 2)]


async def test_a_reclaim_during_the_regular_wait_gets_the_full_collection_s_longer_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A session ends while ``run`` waits the regular second for an idle
    moment, in a burst: the full collection its reclaim brings waits up to
    ``QUIET_WAIT_FULL`` in all, like one known when the wait began."""
    collector = QuietCollector(every=0.0)
    collector.settle()

    def found(wait: int) -> bool:
        if wait > 1:
            return True
        collector.reclaim()  # the last session ended meanwhile
        return False  # a burst all along: no idle moment

    waits = await _first_waits(monkeypatch, collector, found)
    full, regular = collector_module.QUIET_WAIT_FULL, collector_module.QUIET_WAIT
    # The regular wait, then the rest of the longer one, then the full collection.
    assert waits == [(regular, 1), (full - regular, 1), (regular, 2)]
    assert collector.pauses.not_quiet == 0


async def test_the_reclaim_due_by_time_gets_the_full_collection_s_longer_wait(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The reclaim that comes at the latest every reclaim_after seconds.
    clock = Clock()
    collector = QuietCollector(every=0.0, reclaim_after=1800.0, clock=clock)
    collector.settle()
    clock.now += 1800
    waits = await _first_waits(monkeypatch, collector)
    full, regular = collector_module.QUIET_WAIT_FULL, collector_module.QUIET_WAIT
    assert waits == [(full, 1), (regular, 2), (regular, 2)]


def test_an_ended_app_that_does_not_die_counts_as_a_whole_session() -> None:
    class Plain:
        """An App that dies by reference counting."""

    collector = QuietCollector(screens_freed=lambda: True, live=lambda: 15)
    collector.settle()
    held = Node()  # its cycle keeps it: it would wait frozen for a reclaim
    collector.session_ended(live=15, app=held)
    collector.session_ended(live=15, app=Plain())  # dies at once
    assert collector.ended == pytest.approx(2 * SESSION_FREED)
    collector.count_survivors()
    assert collector.ended == pytest.approx(1 + SESSION_FREED)
    assert collector.ended_apps == []
    collector.count_survivors()  # counted once
    assert collector.ended == pytest.approx(1 + SESSION_FREED)


async def _settles(collector: QuietCollector, n: int) -> None:
    """Until ``collector.run`` (running) has settled ``n`` more times."""
    before = sum(collector.pauses.counts.values())
    for _ in range(1000):
        await asyncio.sleep(0.01)
        if sum(collector.pauses.counts.values()) >= before + n:
            return
    raise AssertionError("the collector did not settle")


async def test_an_ended_app_the_settle_s_collection_frees_is_not_counted_whole() -> None:
    # Counted before the settle's collection, an ended App in cycles never
    # frozen (it ended before its first frame, or after a reclaim) was
    # alive and counted whole, though that collection freed it.
    collector = QuietCollector(every=0.0, walk_every=0.0, screens_freed=lambda: True,
                               live=lambda: 15)
    collector.settle()
    running = await _running(collector)
    gc.disable()  # (the interpreter's own collections would free it first)
    try:
        app = Node()  # in a cycle, young: only a collection frees it
        ref = weakref.ref(app)
        collector.session_ended(live=15, app=app)
        del app
        await _settles(collector, 2)
    finally:
        gc.enable()
        await _stopped(running)
    assert ref() is None
    assert collector.ended == pytest.approx(SESSION_FREED)


class EndedSession:
    """What GameServer.session_ended reads of a Session."""

    def __init__(self, app: object | None) -> None:
        self.app = app


class Plain:
    """An App that dies by reference counting once its session lets go."""


async def test_a_server_counts_an_ended_app_whole_only_if_it_outlives_the_next_settle(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # The wiring: GameServer.session_ended gives the collector the session's
    # App, and the collector's run counts the survivors at its settles.
    monkeypatch.setattr(serve_module, "QuietCollector", partial(QuietCollector, every=0.01))
    server = await start_server()
    collector = server.collector
    server.sessions.add(EndedSession(Plain()))  # type: ignore[arg-type]  # (live: no reclaim)
    try:
        held = Plain()  # held on purpose, as a cycle frozen with it would
        session = EndedSession(held)
        server.session_ended(session)  # type: ignore[arg-type]
        await _settles(collector, 2)
        assert collector.ended == pytest.approx(1.0)  # a whole ended session
        session = EndedSession(Plain())
        server.session_ended(session)  # type: ignore[arg-type]
        session.app = None  # (as Session.run does at its end)
        await _settles(collector, 2)
        assert collector.ended == pytest.approx(1.0 + SESSION_FREED)
        assert held is not None
    finally:
        server.sessions.clear()  # (stopped, the server would stop them)
