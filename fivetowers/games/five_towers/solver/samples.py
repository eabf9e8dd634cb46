"""Random positions for property tests and the hint benchmark.

Two sources, both seeded and deterministic:

* :func:`random_position` — a synthetic position: towers grown card by card by
  the building rules, a teardown pile and a display, all drawn from one deck
  for 2–3 or 4–5 players (so no card has more copies than the game has).
* :func:`game_positions` — the positions players actually meet: a game played
  by random legal moves (random bids, random builds, frequent teardowns and
  rebuilds) and the position of every seat at every bidding turn.
* :func:`large_pile_position` and :func:`with_pile` — Great Powers positions
  with a teardown pile of a chosen size (up to every unused card), where the
  scrap rebuilds make the model large (issue 18).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Iterator

from fivetowers.games.five_towers.rules.actions import Bid, Build, Pass, Source
from fivetowers.games.five_towers.rules.board import Board
from fivetowers.games.five_towers.rules.building import BuildSession
from fivetowers.games.five_towers.rules.cards import TOWER_TOP, TYPES, Card, TowerType, full_deck
from fivetowers.games.five_towers.rules.errors import IllegalBuild
from fivetowers.games.five_towers.rules.game import Game, Phase
from fivetowers.games.five_towers.rules.position import Position
from fivetowers.games.five_towers.rules.towers import can_place
from fivetowers.games.five_towers.rules.variant import Variant


def random_position(rng: random.Random, variant: Variant | None = None,
                    players: int | None = None) -> Position:
    """A random legal position (towers obey the building rules)."""
    if variant is None:
        variant = rng.choice(list(Variant))
    if players is None:
        players = rng.randint(2, 5)
    deck = full_deck(players)
    rng.shuffle(deck)
    board = Board()
    pool: dict[TowerType, list[int]] = {t: [] for t in TYPES}
    rest: list[Card] = []
    for c in deck:
        pool[c.type].append(c.value)
    for t in TYPES:
        want = rng.choice((0, 0, 1, 2, 3, 3, 4, 5, 6, 8))
        tower: list[int] = []
        values = pool[t]
        for _ in range(want):
            fits = [i for i, v in enumerate(values) if not tower or can_place(v, tower[-1])]
            if not fits:
                break
            # zeros end a tower: keep them rare so towers stay open
            fits = [i for i in fits if values[i] != 0 or rng.random() < 0.15] or fits
            tower.append(values.pop(rng.choice(fits)))
        board.towers[t] = tower
        rest += [Card(t, v) for v in values]
    rng.shuffle(rest)
    pile_size = rng.choice((0, 0, 0, 1, 1, 2, 3, 4, 6, 8))
    board.teardown = [c for c in rest[:pile_size] if c.value != 0]
    display_size = rng.choice((1, 2, 3, 4, 5, 5, 5, 5, 5))
    display = rest[pile_size:pile_size + display_size]
    return Position(variant, board, display)


def random_build(game: Game, rng: random.Random) -> Build:
    """A random legal build for the bid winner (tears down and rebuilds often)."""
    assert game.high_seat is not None and game.high_bid is not None
    seat, bid = game.high_seat, game.high_bid
    session = game.build_session()
    tree = game.players[seat].board.towers[TowerType.TREE]
    pays = [0]
    if game.powers and tree and tree[-1] != 0:
        pays += list(range(1, min(bid, len(tree)) + 1))
    tears: list[TowerType | None] = [None, *TYPES]
    options = []
    for pay in pays:
        for torn in tears:
            for take in itertools.combinations(range(len(game.display)), bid - pay):
                options.append((pay, torn, take))
    rng.shuffle(options)
    options.sort(key=lambda o: o[1] is not None and rng.random() < 0.6)
    for pay, torn, take in options:
        try:
            session.choose([game.display[i] for i in take], pay, torn)
        except IllegalBuild:
            continue
        while not session.done:
            steps = session.completable_steps()
            hand = [s for s in steps if s.source is Source.HAND]
            rebuilds = [s for s in steps if s.source is Source.TEARDOWN]
            if rebuilds and (not hand or rng.random() < 0.7):
                session.place(rng.choice(rebuilds))
            else:
                session.place(rng.choice(hand))
        while session.rebuild_pending and rng.random() < 0.7:
            rebuilds = session.legal_steps()  # after the last card: only rebuilds
            if not rebuilds:
                break
            session.place(rng.choice(rebuilds))
        return session.finish(seat)
    raise AssertionError("the engine accepted a bid nobody could build")


def game_positions(seed: int, variant: Variant, players: int) -> Iterator[Position]:
    """Every bidding seat's position through one game of random legal moves."""
    rng = random.Random(seed)
    game = Game([f"p{i}" for i in range(players)], variant, seed=seed)
    while game.phase is not Phase.OVER:
        seat = game.to_move
        assert seat is not None
        if game.phase is Phase.BUILD:
            game.apply(random_build(game, rng))
            continue
        yield Position.from_game(game, seat)
        bids = game.legal_bids()
        if game.may_pass() and (not bids or rng.random() < 0.4):
            game.apply(Pass(seat))
        else:
            game.apply(Bid(seat, rng.choice(bids[-3:])))


def unused_cards(position: Position, players: int = 5) -> list[Card]:
    """The cards of the ``players`` card set in none of the position's towers,
    pile or display, without the 0s (a 0 is never torn down), sorted."""
    rest = Counter(full_deck(players)) - Counter(position.display)
    rest -= Counter(position.board.teardown)
    rest -= Counter(Card(t, v) for t in TYPES for v in position.board.towers[t])
    return sorted(c for c in rest.elements() if c.value != TOWER_TOP)


def with_pile(position: Position, size: int, rng: random.Random) -> Position:
    """``position`` with a teardown pile of ``size`` cards drawn from the unused ones."""
    pool = unused_cards(position) + list(position.board.teardown)
    board = Board({t: list(position.board.towers[t]) for t in TYPES},
                  rng.sample(sorted(pool), min(size, len(pool))))
    return Position(position.variant, board, list(position.display))


ISSUE_18 = {"format": "fivetowers-position/1", "variant": "great-powers",
            "towers": {"candy": [15, 14, 13, 12, 11, 10, 9], "tree": [15, 13, 11, 9],
                       "sand": [8, 7]},
            "display": ["scrap-15", "scrap-14", "scrap-9", "scrap-8", "candy-2"]}
"""The Great Powers position of issue 18 whose large teardown piles stalled the hint."""


def large_pile_position(rng: random.Random, size: int) -> Position:
    """A random Great Powers position (5-player card set) whose display holds a
    scrap card, with a teardown pile of ``size`` cards: scrap rebuilds matter."""
    while True:
        position = random_position(rng, Variant.GREAT_POWERS, 5)
        if any(c.type is TowerType.SCRAP for c in position.display):
            return with_pile(position, size, rng)
