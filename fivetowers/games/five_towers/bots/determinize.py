"""A whole ``Game`` consistent with one player's view (determinisation).

The viewer knows every card but the draw deck's order and the other players'
teardown piles; those come from ``view.unseen()`` as a multiset. Dealing the
unseen cards at random into the others' piles (by their public counts) and
the deck gives one possible true state (:meth:`Game.from_view`), which a bot
may then simulate.
"""

from __future__ import annotations

import random
from typing import Callable

from fivetowers.games.five_towers.rules import Game, Phase, PlayerView
from fivetowers.games.five_towers.rules.cards import Card


def determinize(view: PlayerView, rng: random.Random) -> Game:
    """A game whose ``view(view.seat)`` equals ``view`` (log aside), the hidden
    cards dealt with ``rng``."""
    return dealer(view)(rng)


def dealer(view: PlayerView) -> Callable[[random.Random], Game]:
    """:func:`determinize` for many worlds of one view: the unseen cards are
    counted and sorted once, each deal only shuffles them (the same deals,
    draw for draw)."""
    if view.seat is None:
        raise ValueError("a spectator's view hides its own nothing: give a player's view")
    if view.phase is Phase.OVER:
        raise ValueError("the game is over")
    unseen = sorted(view.unseen().elements())  # sorted: the deal depends on rng alone
    counts = [0 if s == view.seat else seat.teardown_count for s, seat in enumerate(view.seats)]
    own = list(view.own_teardown)

    def deal(rng: random.Random) -> Game:
        hidden = list(unseen)
        rng.shuffle(hidden)
        piles: list[list[Card]] = []
        dealt = 0
        for s, count in enumerate(counts):
            if s == view.seat:
                piles.append(own)
            else:
                piles.append(hidden[dealt:dealt + count])
                dealt += count
        # The reshuffle after the first run-out is unknown too: this RNG's draw makes it.
        # The cards were dealt from view.unseen(): only their counts need checking.
        return Game.from_view(view, piles, hidden[dealt:], reshuffle_seed=rng.getrandbits(64),
                              check_cards=False)

    return deal
