"""A whole ``Game`` consistent with one player's view (determinisation).

The viewer knows every card but the draw deck's order and the other players'
teardown piles; those come from ``view.unseen()`` as a multiset. Dealing the
unseen cards at random into the others' piles (by their public counts) and
the deck gives one possible true state (:meth:`Game.from_view`), which a bot
may then simulate.
"""

from __future__ import annotations

import random

from fivetowers.games.five_towers.rules import Game, Phase, PlayerView
from fivetowers.games.five_towers.rules.cards import Card


def determinize(view: PlayerView, rng: random.Random) -> Game:
    """A game whose ``view(view.seat)`` equals ``view`` (log aside), the hidden
    cards dealt with ``rng``."""
    if view.seat is None:
        raise ValueError("a spectator's view hides its own nothing: give a player's view")
    if view.phase is Phase.OVER:
        raise ValueError("the game is over")
    hidden = sorted(view.unseen().elements())  # sorted: the deal depends on rng alone
    rng.shuffle(hidden)
    piles: list[list[Card]] = []
    for s, seat in enumerate(view.seats):
        if s == view.seat:
            piles.append(list(view.own_teardown))
        else:
            piles.append(hidden[:seat.teardown_count])
            hidden = hidden[seat.teardown_count:]
    # The reshuffle after the first run-out is unknown too: this RNG's draw makes it.
    # The cards were dealt from view.unseen() just now: only their counts need checking.
    return Game.from_view(view, piles, hidden, reshuffle_seed=rng.getrandbits(64),
                          check_cards=False)
