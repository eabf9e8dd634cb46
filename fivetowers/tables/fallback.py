"""Stand-ins for the bots (issue 4) and hints (issue 3) packages.

The table and the screens are written against those packages' contracts
(``make_bot(kind).choose(view, rng)``; ``hint(position)`` with ``max_bid``
and ``plans[b]``). :mod:`fivetowers.tables.agents` uses the real packages
whenever they import and falls back to what is here only when they do not.

The TUI and table tests also use these two on purpose: a bot and a planner
that are small and deterministic, so snapshots stay the same when the
real bots or the solver's wording change. Nothing here is used at run time
while ``fivetowers.bots`` and ``fivetowers.solver`` are installed.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from fivetowers.rules import (
    TYPES, Action, Bid, Board, Build, BuildSession, Card, IllegalBuild, Pass, Phase,
    PlayerView, Position, Step, TowerType,
)
from fivetowers.rules.towers import has_tower_top


def board_of(view: PlayerView) -> Board:
    """The viewer's own board, rebuilt from what their view shows."""
    assert view.seat is not None
    me = view.seats[view.seat]
    return Board({t: list(me.towers[t]) for t in TYPES}, list(view.own_teardown))


def session_of(view: PlayerView) -> BuildSession:
    assert view.high_bid is not None
    return BuildSession(board_of(view), view.display, view.variant.powers, view.high_bid)


class RandomFallbackBot:
    """TEMPORARY: a uniformly random legal bid, and a random buildable build."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        assert view.seat is not None
        if view.phase is Phase.BID:
            options: list[Action] = [Bid(view.seat, b) for b in view.legal_bids]
            if view.may_pass:
                options.append(Pass(view.seat))
            return rng.choice(options)
        plans = [p for p in _plans(view.variant.powers, board_of(view), view.display,
                                   view.high_bid or 0)]
        rng.shuffle(plans)
        for session in plans:
            while not session.done:
                session.place(rng.choice(session.completable_steps()))
            return session.finish(view.seat)
        raise IllegalBuild("no build found")  # the engine only lets buildable bids win


def _plans(powers: bool, board: Board, display: tuple[Card, ...], bid: int
           ) -> list[BuildSession]:
    """Every choice (take, pay, teardown) of exactly ``bid`` that can be built."""
    out = []
    tree = board.towers[TowerType.TREE]
    max_pay = len(tree) if powers and tree and not has_tower_top(tree) else 0
    teardowns: list[TowerType | None] = [None] + [
        t for t in TYPES if board.towers[t] and not has_tower_top(board.towers[t])]
    for pay in range(0, min(max_pay, bid) + 1):
        for take in dict.fromkeys(itertools.combinations(sorted(display), bid - pay)):
            for teardown in teardowns:
                session = BuildSession(board, display, powers, bid)
                try:
                    session.choose(take, pay, teardown)
                except IllegalBuild:
                    continue
                out.append(session)
    return out


@dataclass(frozen=True)
class FallbackPlan:
    """TEMPORARY: the shape of the solver's Plan (FORMATS.md hint plans)."""

    bid: int
    take: tuple[Card, ...]
    pay: int
    teardown: TowerType | None
    steps: tuple[Step, ...]
    gain: int
    explanation: str

    def to_build(self, seat: int) -> Build:
        return Build(seat, self.take, self.steps, self.pay, self.teardown)


@dataclass(frozen=True)
class FallbackHint:
    max_bid: int
    plans: tuple[FallbackPlan, ...]


def fallback_hint(position: Position) -> FallbackHint:
    """TEMPORARY: the best plan per bid by trying every choice; each order is the
    first completable one, so gains ignore scrap rebuilds the order could add."""
    powers = position.variant.powers
    before = position.board.score(powers).total
    plans = [FallbackPlan(0, (), 0, None, (), 0, "take nothing")]
    bid = 1
    while bid <= len(position.display) + len(position.board.towers[TowerType.TREE]):
        best: FallbackPlan | None = None
        for session in _plans(powers, position.board, tuple(position.display), bid):
            while not session.done:
                session.place(session.completable_steps()[0])
            gain = session.board.score(powers).total - before
            if best is None or gain > best.gain:
                best = FallbackPlan(bid, tuple(session.take), session.pay, session.teardown,
                                    tuple(session.steps), gain,
                                    _explain(session, gain))
        if best is None:
            break
        plans.append(best)
        bid += 1
    return FallbackHint(len(plans) - 1, tuple(plans))


def _explain(session: BuildSession, gain: int) -> str:
    parts = []
    if session.pay:
        parts.append(f"pay {session.pay} tree")
    if session.teardown:
        parts.append(f"tear down {session.teardown}")
    parts.append("build " + ", ".join(map(str, session.steps)))
    return "; ".join(parts) + f" ({gain:+d})"
