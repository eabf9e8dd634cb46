"""The strong bot: determinised Monte Carlo over its candidate moves.

Each decision lists a few candidates — every legal bid and the pass, or the
best-looking finished builds for the bid won (ranked by
:func:`~fivetowers.games.five_towers.bots.evaluate.board_value`) — then, until the time runs
out, deals one possible world from the unseen cards (:func:`determinize`)
and plays every candidate to the end of the game in it with the fast
rollout policy (:mod:`fivetowers.games.five_towers.bots.sim`). All candidates meet the same
worlds and the same shuffles, so their difference is not luck. The one with
the best mean result — a win (shared or not) plus a little of the score
margin — is played; the search stops early once one candidate leads every
other beyond reasonable doubt (:func:`clear_winner`).

Rollouts run to the second run-out, so the end of the game, the doubling of
a tower by its 0, the main tower and the teardown penalty all count as they
will in the real final score.

Cost and strength (issue 11). A world costs about 3,250 Python calls, 8,643
before the rollout grouped a round's display once for all its bidders, the
dealer counted the unseen cards once a decision and each candidate copied
its world's rollout state instead of reading the cards again: about twice
the worlds a CPU second (``scripts/bench_bots.py --worlds-only``), the same
decisions for the same worlds (``tests/bots/test_strong_digest.py``). Its
strength by the worlds a decision (``scripts/bench_bot_strength.py``) is in
the README (issue 11's third goal).
"""

from __future__ import annotations

import math
import random
import time
from typing import Callable

from fivetowers.games.five_towers.rules import Action, Bid, Pass, Phase, PlayerView
from fivetowers.games.five_towers.rules.game import Game

from fivetowers.games.five_towers.bots.base import future_share
from fivetowers.games.five_towers.bots.determinize import dealer
from fivetowers.games.five_towers.bots.evaluate import board_value
from fivetowers.games.five_towers.bots.plans import Option, board_options
from fivetowers.games.five_towers.bots import sim as rollout

MARGIN_WEIGHT = 0.01  # a point of final margin is worth 1% of a win
# Stop early when the leader beats every rival by this many standard errors
# of their paired difference (same worlds), checked every CHECK_EVERY worlds.
CLEAR_LEAD = 3.0
CHECK_EVERY = 16
MIN_WORLDS = 32


def wall_clock() -> float:
    """The strong bot's default timer: ``time.perf_counter``, looked up at each
    reading (a test may patch ``time.perf_counter``)."""
    return time.perf_counter()


class StrongBot:
    """Plans ahead by simulation within ``time_per_move`` seconds, or, when
    ``simulations`` is given, with at most that many worlds per decision
    (fewer when :func:`clear_winner` stops it, as with a time budget;
    reproducible on any machine; used by the tests and
    ``scripts/bench_bot_strength.py``).

    Its time is read from ``timer`` (seconds): the wall clock, unless its
    host gives it another (a table's worker: its CPU time, see
    :class:`fivetowers.tables.workers.WorkerClock`)."""

    name = "strong"

    def __init__(self, time_per_move: float = 1.0, simulations: int | None = None,
                 max_builds: int = 6) -> None:
        self.time_per_move = time_per_move
        self.simulations = simulations
        self.max_builds = max_builds
        self.timer: Callable[[], float] = wall_clock
        self.worlds = 0  # how many worlds the last decision played out (load reports)

    @property
    def searched(self) -> int:
        """What the last decision searched, for a host's report (:class:`~fivetowers.games.protocol.Bot`)."""
        return self.worlds

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        deadline = self.timer() + self.time_per_move
        self.worlds = 0
        seat = view.seat
        if seat is None or not view.my_turn:
            raise ValueError("it is not this bot's turn")
        board = view.own_board()
        powers = view.variant.powers
        future = future_share(view)

        def ranked(bid: int) -> list[Option]:
            opts = board_options(board, view.display, powers, bid)
            return sorted(opts, key=lambda o: -board_value(o.towers, len(o.pile), powers,
                                                          future))

        if view.phase is Phase.BID:
            plans = {b: ranked(b)[0] for b in view.legal_bids if b > 0}
            candidates: list[Action | Option] = [Bid(seat, b) for b in view.legal_bids]
            if view.may_pass:
                candidates.append(Pass(seat))
        else:
            assert view.high_bid is not None
            plans = {}
            candidates = list(ranked(view.high_bid)[:self.max_builds])
        if len(candidates) == 1:
            return self._action(candidates[0], seat)
        results: list[list[float]] = []  # per world, each candidate's value
        deal = dealer(view)
        while True:
            world = deal(rng)
            seed = rng.getrandbits(64)
            if view.phase is Phase.BID:
                _ask_first(world, seat)
            start = rollout.from_game(world)  # each candidate starts from a copy
            results.append([self._value(world, start, c, seat, plans, random.Random(seed))
                            for c in candidates])
            worlds = len(results)
            if self.simulations is not None:
                if worlds >= self.simulations:
                    break
            elif self.timer() >= deadline:
                break
            if worlds % CHECK_EVERY == 0 and clear_winner(results):
                break
        self.worlds = len(results)
        totals = [sum(column) for column in zip(*results)]
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return self._action(candidates[best], seat)

    @staticmethod
    def _action(candidate: Action | Option, seat: int) -> Action:
        return candidate.to_build(seat) if isinstance(candidate, Option) else candidate

    @staticmethod
    def _value(world: Game, start: rollout.Sim, candidate: Action | Option, seat: int,
               plans: dict[int, Option], rng: random.Random) -> float:
        """One playout of ``candidate`` in ``world`` (whose rollout state is
        ``start``, left as it is): win (1 or 0) plus margin."""
        built = isinstance(candidate, Option)
        if isinstance(candidate, Option):
            state = rollout.from_game(world, like=start)
            _build_own(state, seat, candidate)
        else:
            game = world.clone()
            game.apply(candidate)
            if game.phase is Phase.OVER:
                return _result([s.total for s in game.outcome().scores], seat)
            # A bid moves no card unless it ended the round (all passed: a new display).
            state = rollout.from_game(game, like=start if game.round == world.round else None)
            if state.building and state.high_seat == seat:
                _build_own(state, seat, plans[state.high])
                built = True
        if built and not rollout.clean_up(state, rng):
            return _result(rollout.scores(state), seat)
        return _result(rollout.play_out(state, rng), seat)


def _ask_first(world: Game, seat: int) -> None:
    """Work out in ``world`` the highest bids every candidate's bid asks of it
    (the bidder's own, and the next bidder's, whether it can raise): each
    candidate's copy of the world then finds them known rather than working
    them out again."""
    world.max_bid(seat)
    after = (seat + 1) % world.player_count
    if after in world.waiting[1:] or world.high_bid is None:
        world.max_bid(after)


def _build_own(state: rollout.Sim, seat: int, option: Option) -> None:
    rollout.build(state, seat, list(option.take), [list(t) for t in option.towers],
                  len(option.pile))


def _result(scores: list[int], seat: int) -> float:
    mine = scores[seat]
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    return (1.0 if mine >= best_other else 0.0) + MARGIN_WEIGHT * (mine - best_other)


def clear_winner(results: list[list[float]]) -> bool:
    """Is one candidate ahead of each other one beyond reasonable doubt?

    Every candidate met the same worlds, so each rival is compared through the
    per-world differences; more worlds would not change the choice.
    """
    n = len(results)
    if n < MIN_WORLDS:
        return False
    totals = [sum(column) for column in zip(*results)]
    lead = max(range(len(totals)), key=totals.__getitem__)
    for rival in range(len(totals)):
        if rival == lead:
            continue
        diffs = [row[lead] - row[rival] for row in results]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if var == 0.0:
            if mean <= 0.0:
                return False
            continue
        if mean / math.sqrt(var / n) < CLEAR_LEAD:
            return False
    return True
