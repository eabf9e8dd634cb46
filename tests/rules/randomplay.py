"""Random legal play and a brute-force build oracle, for the engine's tests.

The oracle walks ``BuildSession.legal_steps`` (the step-by-step validator)
and never calls ``fivetowers.games.five_towers.rules.search``, so it checks the fast search
independently.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Iterator

from fivetowers.games.five_towers.rules import (
    TYPES, Action, Bid, Board, BuildSession, Card, Game, IllegalBuild, Pass, Phase, TowerType,
)


def build_options(session: BuildSession) -> Iterator[tuple[list[Card], int, TowerType | None]]:
    """Every (take, pay, teardown) the rules allow to be chosen, buildable or not."""
    display = session.display
    bid = session.bid
    tree = session.start.towers[TowerType.TREE]
    pays = [0]
    if session.powers and tree and tree[-1] != 0:
        pays += list(range(1, len(tree) + 1))
    for pay in pays:
        k = bid - pay
        if not 0 <= k <= len(display):
            continue
        seen: set[tuple[Card, ...]] = set()
        for idxs in combinations(range(len(display)), k):
            take = sorted(display[i] for i in idxs)
            key = tuple(take)
            if key in seen:
                continue
            seen.add(key)
            for td in (None, *TYPES):
                yield take, pay, td


def _finishable(session: BuildSession) -> bool:
    if session.done:
        return True
    for step in session.legal_steps():
        session.place(step)
        ok = _finishable(session)
        session.undo()
        if ok:
            return True
    return False


def brute_buildable(board: Board, display: list[Card], powers: bool, bid: int) -> bool:
    """Is ``bid`` buildable, by trying every choice and every order of steps?"""
    probe = BuildSession(board, display, powers, bid)
    for take, pay, td in build_options(probe):
        session = BuildSession(board, display, powers, bid)
        try:
            session.choose(take, pay, td, check=False)
        except IllegalBuild:
            continue
        if _finishable(session):
            return True
    return False


def brute_max_bid(board: Board, display: list[Card], powers: bool) -> int:
    tree = board.towers[TowerType.TREE]
    top = len(display) + (len(tree) if powers else 0)
    for bid in range(top, 0, -1):
        if brute_buildable(board, display, powers, bid):
            return bid
    return 0


def random_build(game: Game, rng: random.Random) -> BuildSession:
    """A uniformly chosen buildable choice, then random legal steps to the end."""
    choices = []
    for take, pay, td in build_options(game.build_session()):
        session = game.build_session()
        try:
            session.choose(take, pay, td, check=True)
        except IllegalBuild:
            continue
        choices.append((take, pay, td))
    assert choices, "the engine let a player win a bid they cannot build"
    take, pay, td = rng.choice(choices)
    session = game.build_session()
    session.choose(take, pay, td)
    while True:
        steps = session.completable_steps()
        if session.done and (not steps or rng.random() < 0.5):
            return session
        assert steps, "a chosen build became impossible to finish"
        session.place(rng.choice(steps))


def random_action(game: Game, rng: random.Random) -> Action:
    if game.phase is Phase.BUILD:
        assert game.to_move is not None
        return random_build(game, rng).finish(game.to_move)
    actions = game.legal_actions()
    # Lean towards higher bids so games end in a sensible number of rounds.
    bids = [a for a in actions if isinstance(a, Bid)]
    if bids and rng.random() < 0.7:
        return max(bids, key=lambda a: a.amount) if rng.random() < 0.5 else rng.choice(bids)
    return rng.choice(actions)


def play_random_game(game: Game, rng: random.Random, max_actions: int = 2000) -> Game:
    for _ in range(max_actions):
        if game.is_terminal():
            break
        game.apply(random_action(game, rng))
    return game


def card_places(game: Game) -> Counter[Card]:
    """Every card of the game wherever it lies: deck, display, discard, towers, piles."""
    where: Counter[Card] = Counter(game.draw) + Counter(game.display) + Counter(game.discard)
    for p in game.players:
        where += Counter(p.board.teardown)
        for t in TYPES:
            where.update(Card(t, v) for v in p.board.towers[t])
    return where
