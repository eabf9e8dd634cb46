"""A random legal player for store tests and scripts/bench_store.py.

Action number ``i`` of a game is drawn from an RNG seeded by (game seed, i),
so a game's whole action list is fixed by its seed however often the
process that plays it is killed and restarted: a test can recompute what
the store must hold.
"""

from __future__ import annotations

import random
from itertools import combinations

from fivetowers.games.five_towers.rules.actions import Action, Bid, Pass
from fivetowers.games.five_towers.rules.cards import TYPES, TowerType
from fivetowers.games.five_towers.rules.errors import IllegalBuild
from fivetowers.games.five_towers.rules.game import Game, Phase


def random_action(game: Game, rng: random.Random) -> Action:
    """A legal action for the player to move (bids and passes, or a whole build)."""
    seat = game.to_move
    assert seat is not None and game.phase is not Phase.OVER
    if game.phase is Phase.BID:
        choices: list[Action] = [Bid(seat, b) for b in game.legal_bids()]
        if game.may_pass():
            choices += [Pass(seat)] * 2  # pass often, so games do not stall at bid 0
        return rng.choice(choices)
    session = game.build_session()
    tree = session.start.towers[TowerType.TREE]
    pays = range(len(tree) + 1) if session.powers and tree and tree[-1] != 0 else [0]
    options = [(take, pay, teardown)
               for pay in pays if 0 <= session.bid - pay <= len(session.display)
               for take in combinations(session.display, session.bid - pay)
               for teardown in (None, *TYPES)]
    rng.shuffle(options)
    for take, pay, teardown in options:
        try:
            session.choose(take, pay, teardown)
        except IllegalBuild:
            continue
        while not session.done:
            session.place(rng.choice(session.completable_steps()))
        return session.finish(seat)
    raise AssertionError("a buildable bid with no build")


def step_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"{seed}:{index}")


def play_to_end(game: Game, seed: int, limit: int | None = None) -> None:
    """Play ``game`` on with :func:`random_action` (up to ``limit`` actions)."""
    while game.phase is not Phase.OVER and (limit is None or limit > 0):
        game.apply(random_action(game, step_rng(seed, len(game.actions))))
        if limit is not None:
            limit -= 1
