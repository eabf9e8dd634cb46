"""The random bot: a uniformly random legal bid or pass, and a random legal build."""

from __future__ import annotations

import random

from fivetowers.games.five_towers.rules import TYPES, Action, Bid, Pass, Phase, PlayerView
from fivetowers.games.five_towers.rules.search import card_of, pairs_of
from fivetowers.games.five_towers.bots.base import build_session
from fivetowers.games.five_towers.bots.plans import choices


class RandomBot:
    """Bids uniformly among the legal bids (and the pass); builds any buildable
    choice, uniformly, then walks random steps that can still be finished."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        seat = view.seat
        if seat is None or not view.my_turn:
            raise ValueError("it is not this bot's turn")
        if view.phase is Phase.BID:
            actions: list[Action] = [Bid(seat, b) for b in view.legal_bids]
            if view.may_pass:
                actions.append(Pass(seat))
            return rng.choice(actions)
        session = build_session(view)
        board = session.start
        options = choices(board.towers_key(), board.pile_key(), pairs_of(list(view.display)),
                          view.variant.powers, session.bid)
        take, pay, td = rng.choice(options)
        session.choose([card_of(p) for p in take], pay,
                       TYPES[td] if td is not None else None)
        while not session.done:
            session.place(rng.choice(session.completable_steps()))
        # A scrap card placed last may still bring one card back: a coin decides.
        while session.rebuild_pending and rng.random() < 0.5:
            steps = session.completable_steps()
            if not steps:
                break
            session.place(rng.choice(steps))
        return session.finish(seat)
