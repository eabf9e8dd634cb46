"""A whole ``Game`` consistent with one player's view (determinisation).

The viewer knows every card but the draw deck's order and the other players'
teardown piles; those come from ``view.unseen()`` as a multiset. Dealing the
unseen cards at random into the others' piles (by their public counts) and
the deck gives one possible true state, which a bot may then simulate.
"""

from __future__ import annotations

import random

from fivetowers.games.five_towers.rules import Board, Game, Phase, Player, PlayerView, TYPES
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
    n = len(view.seats)
    piles: list[list[Card]] = []
    for s, seat in enumerate(view.seats):
        if s == view.seat:
            piles.append(list(view.own_teardown))
        else:
            piles.append(hidden[:seat.teardown_count])
            hidden = hidden[seat.teardown_count:]
    if len(hidden) != view.draw_count:
        raise ValueError(f"the view is inconsistent: {len(hidden)} unseen cards left for "
                         f"a deck of {view.draw_count}")
    game = Game.__new__(Game)
    game.variant, game.powers, game.seed = view.variant, view.variant.powers, None
    # The reshuffle after the first run-out is unknown too: this RNG makes it.
    game._rng = random.Random(rng.getrandbits(64))
    game.initial_deck = []
    game.planned_reshuffle = None
    game.reshuffle = None if view.pass_number == 1 else []
    game.players = [
        Player(seat.name, Board({t: list(seat.towers[t]) for t in TYPES}, piles[s]))
        for s, seat in enumerate(view.seats)]
    game.draw, game.display, game.discard = hidden, list(view.display), list(view.discard)
    game.round, game.starter, game.runouts = view.round, view.starter, view.runouts
    game.actions, game.log = [], []
    game.phase, game.to_move = view.phase, view.to_move
    game.bids = list(view.bids)
    game.high_bid, game.high_seat = view.high_bid, view.high_seat
    game._max_bids = {}
    # A reveal that emptied the deck started this round, so this round runs it out.
    game._runout_now = not hidden
    game._waiting = []
    if view.phase is Phase.BID and view.high_bid is not None and view.to_move is not None:
        # After the starter's bid, each later seat up to the starter gets one turn.
        left = (view.starter - view.to_move) % n
        game._waiting = [(view.to_move + i) % n for i in range(left)]
    return game
