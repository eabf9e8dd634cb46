"""The load test's clients play game after game (scripts/load_clients.py):
a player says yes to the rematch on its end screen, the key that ended the
game counts when the end screen shows, and a spectator that leaves between
games holds up no key."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from load_clients import Player, Results, Viewer  # noqa: E402
from load_mix import PRESETS  # noqa: E402

END_KEYS = b"\x1b[20;10H\x1b[1;32mn\x1b[0m play again   \x1b[1;32mb\x1b[0m look at the table"
BID_TURN = b"\x1b[1;1H\x1b[1m YOUR TURN to bid \x1b[0m Round 3 "


class Keys:
    def __init__(self) -> None:
        self.pressed: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.pressed.append(data)


def _seated() -> tuple[Results, Player, Viewer, Keys, asyncio.Event, asyncio.Task[None]]:
    """A player who says yes to rematches, a spectator, the player's keys
    and its play (stopped by the event)."""
    results = Results(since=0.0)
    player = Player("ld000", results, 0.0, "bids", 0.0, rematch=True)
    watcher = Viewer("ld001", results)
    player.table = watcher.table = [player, watcher]
    keys = Keys()
    stop = asyncio.Event()
    task = asyncio.create_task(player.play_table(type("Process", (), {"stdin": keys})(), stop))
    return results, player, watcher, keys, stop, task


async def _pressed(keys: Keys, count: int) -> None:
    for _ in range(200):
        if len(keys.pressed) >= count:
            return
        await asyncio.sleep(0.01)


def test_the_realistic_mix_plays_game_after_game_and_bids_only_one_game() -> None:
    assert PRESETS["realistic"].rematch and not PRESETS["bids-only"].rematch
    assert "game after game" in PRESETS["realistic"].describe()
    assert "one game a table" in PRESETS["bids-only"].describe()


def test_a_player_says_yes_to_the_rematch_once_per_end_screen() -> None:
    async def check() -> None:
        results, player, watcher, keys, stop, task = _seated()
        player.on_output(BID_TURN + b"(you start: no pass)", 0.1)
        await _pressed(keys, 1)
        assert keys.pressed == [b"0"]
        [bid] = results.open
        # The bid ends the game: the end screens cover its log line at once.
        for viewer in (player, watcher):
            viewer.on_output(END_KEYS, 0.3)
        assert not results.open and len(results.everyone) == 1 and results.missed == 0
        await _pressed(keys, 2)
        assert keys.pressed == [b"0", b"n"] and player.games == 1
        await asyncio.sleep(0.1)
        assert keys.pressed == [b"0", b"n"]  # one yes for one end screen
        player.on_output(BID_TURN.replace(b"Round 3", b"Round 1") + b"(you start: no pass)", 0.5)
        await _pressed(keys, 3)
        assert keys.pressed[2] == b"0"  # the next game is played
        player.on_output(END_KEYS, 0.7)
        await _pressed(keys, 4)
        stop.set()
        await task
        assert keys.pressed[3] == b"n" and player.games == 2
    asyncio.run(check())


def test_without_rematch_a_player_stays_at_the_end_screen() -> None:
    async def check() -> None:
        player = Player("ld000", Results(since=0.0), 0.0, "bids", 0.0)
        player.table = [player]
        keys = Keys()
        stop = asyncio.Event()
        task = asyncio.create_task(player.play_table(type("P", (), {"stdin": keys})(), stop))
        player.on_output(END_KEYS, 0.1)
        await asyncio.sleep(0.1)
        stop.set()
        await task
        assert keys.pressed == [] and player.games == 0
    asyncio.run(check())


def test_a_spectator_that_left_holds_up_no_key() -> None:
    async def check() -> None:
        results, player, watcher, keys, stop, task = _seated()
        player.on_output(BID_TURN + b"(you start: no pass)", 0.1)
        await _pressed(keys, 1)
        [bid] = results.open
        assert bid.waiting == {player, watcher}
        player.on_output(b"ld000: bid 0", 0.2)
        watcher.leave()  # its session ended before its screen showed the bid
        # On every screen still there when the player's showed it, not when
        # the spectator left.
        assert not results.open and results.everyone == [0.2 - bid.t0]
        player.on_output(b"ld002: pass" + BID_TURN + b"(you start: no pass)", 0.4)
        await _pressed(keys, 2)
        stop.set()
        await task
        [bid] = results.open
        assert bid.waiting == {player}  # the spectator between games is not waited for
        player.leave(measuring=False)  # the run stopped: nobody showed it
        assert not results.open and len(results.everyone) == 1
    asyncio.run(check())


def test_a_spectator_rejoins_after_the_game_and_after_a_refusal() -> None:
    """run_viewer's spectator: one session a game; after the lobby's refusal
    (the rematch not started yet, its seats all taken) it tries again."""
    from load_clients import watch_one_game

    async def check() -> None:
        watcher = Viewer("ld001", Results(since=0.0))
        stop = asyncio.Event()
        watcher.present = False
        joined = watcher.total
        session = asyncio.create_task(watch_one_game(watcher, joined, stop))
        watcher.on_output(b"That table has not started yet: sit down, or watch later.", 0.1)
        await asyncio.wait_for(session, 2)
        assert not watcher.present  # refused: it never watched
        joined = watcher.total
        session = asyncio.create_task(watch_one_game(watcher, joined, stop))
        watcher.on_output(b"\x1b[1;1HRound 1 ld000 is bidding", 0.2)
        await asyncio.wait_for(present(watcher), 30)  # a guard against a hang only
        assert watcher.present and not session.done()  # it watches the new game
        watcher.on_output(END_KEYS, 2.0)
        await asyncio.wait_for(session, 2)
    asyncio.run(check())


async def present(watcher: Viewer) -> None:
    """Until ``watcher`` takes itself to be at its table (it waits for the
    screen to settle first)."""
    while not watcher.present:
        await asyncio.sleep(0.01)


LOBBY_AFTER_FULL_REMATCH = (
    b"\x1b[1;1H\x1b[1m5 Towers\x1b[0m lobby \xe2\x80\x94 you are \x1b[1mld001\x1b[0m"
    b"\x1b[20;50Htable LT000 has no\x1b[21;50Hfree seat")
"""What a spectator's ``join`` shows when the forming rematch's seats are
all taken: the lobby, and a toast (wrapped) with the refusal."""


def test_a_spectator_turned_away_by_a_full_forming_rematch_tries_again() -> None:
    """The lobby's "has no free seat" toast is no sign (a running full table
    says it before "you join as a watcher"); the lobby's own title is."""
    from load_clients import watch_one_game

    async def check() -> None:
        watcher = Viewer("ld001", Results(since=0.0))
        stop = asyncio.Event()
        watcher.present = False
        session = asyncio.create_task(watch_one_game(watcher, watcher.total, stop))
        watcher.on_output(LOBBY_AFTER_FULL_REMATCH, 0.1)
        await asyncio.wait_for(session, 2)  # it leaves, to join again
        assert not watcher.present
        joined = watcher.total
        session = asyncio.create_task(watch_one_game(watcher, joined, stop))
        # A running full table: the same words, then the note, and the table.
        watcher.on_output(b"\x1b[1;1HRound 1 ld000 is bidding\x1b[20;50Htable LT000 has no"
                          b"\x1b[21;50Hfree seat: you join\x1b[22;50Has a watcher.", 0.2)
        await asyncio.wait_for(present(watcher), 30)  # a guard against a hang only
        assert watcher.present and not session.done()  # it watches
        stop.set()
        await asyncio.wait_for(session, 2)
    asyncio.run(check())
