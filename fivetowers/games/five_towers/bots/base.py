"""What every bot shares: the ``Bot`` protocol, the board it sees, async thinking."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
from typing import Protocol

from fivetowers.games import protocol
from fivetowers.games.five_towers.rules import Action, BuildSession, PlayerView, full_deck


class Bot(protocol.Bot, Protocol):
    """The platform's :class:`~fivetowers.games.protocol.Bot` as 5 Towers'
    bots are: named, and typed with the game's view and actions."""

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The action for ``view.seat``, which must be to move (bid, pass or build)."""
        ...


def build_session(view: PlayerView) -> BuildSession:
    """A building session for the viewer, who must have won the bid."""
    if view.high_bid is None or view.high_seat != view.seat:
        raise ValueError("this player is not building now")
    return BuildSession(view.own_board(), view.display, view.variant.powers, view.high_bid)


def cards_left(view: PlayerView) -> int:
    """Cards still to be revealed before the game ends, as far as the viewer knows.

    In the first pass that is the deck plus everything that will be discarded
    before the reshuffle; the discard pile now is the best cheap estimate of
    the second deck's size.
    """
    if view.pass_number == 1:
        return view.draw_count + len(view.discard) + len(view.display)
    return view.draw_count


async def think(bot: Bot, view: PlayerView, rng: random.Random,
                executor: concurrent.futures.Executor | None = None) -> Action:
    """``bot.choose`` off the event loop, so a loop serving players never waits.

    By default in a worker thread: the views are immutable snapshots, so the
    thread reads nothing that changes. The bots are pure Python and hold the
    GIL while they think, so a server with many bot seats should pass a
    ``ProcessPoolExecutor``: the bot and view are pickled to a worker, which
    thinks with an RNG seeded from ``rng`` (the caller's RNG advances the same
    way whichever executor runs it, so seeded games stay reproducible).
    """
    seed = rng.getrandbits(64)
    loop = asyncio.get_running_loop()
    if executor is None:
        return await asyncio.to_thread(_choose_seeded, bot, view, seed)
    return await loop.run_in_executor(executor, _choose_seeded, bot, view, seed)


def _choose_seeded(bot: Bot, view: PlayerView, seed: int) -> Action:
    return bot.choose(view, random.Random(seed))


def future_share(view: PlayerView) -> float:
    """The share (0..1) of a whole game's reveals still to come, roughly."""
    total = len(full_deck(len(view.seats)))
    return min(1.0, cards_left(view) / total)
