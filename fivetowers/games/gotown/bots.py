"""GoTown's bots: plain classes with ``choose(view, rng) -> action``:
random, greedy, and strong (:mod:`fivetowers.games.gotown.strong`).

Each decides from its own :class:`PlayerView` only; the view lists the legal
plays (``view.legal``), so a bot never sees a hidden card.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from fivetowers.games.gotown.hint import hint
from fivetowers.games.gotown.rules.actions import play_from_json
from fivetowers.games.gotown.rules.position import Position
from fivetowers.games.gotown.rules import (
    Action, Bone, Build, Card, Dog, DonutTruck, Jackhammer, Milkshake, PlayerView, Steal,
    SuperThief, Thief, WreckingBall,
)

if TYPE_CHECKING:
    from fivetowers.games.gotown.strong import StrongBot

BOT_NAMES = ("random", "greedy", "strong")


def _legal(view: PlayerView) -> tuple[Action, ...]:
    if view.seat is None or not view.my_turn or not view.legal:
        raise ValueError("it is not this bot's turn")
    return view.legal


class RandomBot:
    """Any legal play, uniformly (ending the turn is one of them)."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return rng.choice(_legal(view))


class GreedyBot:
    """Takes cards first, then steals and builds whenever it can, guards its
    top floor, and turns its action cards on the tallest opponent. Ends the
    turn when nothing is worth playing."""

    name = "greedy"

    def __init__(self, plan: bool = True) -> None:
        self.plan = plan  # False: skip the floors plan (faster, for the strong bot's playouts)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = _legal(view)
        scored = [(self.worth(view, a), rng.random(), i) for i, a in enumerate(legal)]
        best = max(scored)
        if self.plan and best[0] < 95.0:  # no win and no thief first: build as many floors as it can
            planned = self.floors_plan(view)
            if planned is not None and any(planned == a for a in legal):
                return planned
        return legal[best[2]]

    @staticmethod
    def floors_plan(view: PlayerView) -> Action | None:
        """The first play of the plan that adds the most floors this turn (the hint)."""
        assert view.seat is not None
        position = Position(view.floors_to_win, view.seat, view.hand,
                            tuple(s.floors for s in view.seats),
                            tuple(s.dogs for s in view.seats))
        found = hint(position)
        if found.floors <= len(view.seats[view.seat].floors) or not found.plan:
            return None
        return play_from_json(view.seat, *next(iter(found.plan[0].items())))

    def worth(self, view: PlayerView, action: Action) -> float:
        """How much the play is worth now; 0 (ending the turn) or less: not played."""
        assert view.seat is not None
        me = view.seats[view.seat]
        height = [len(s.floors) for s in view.seats]
        goal = view.floors_to_win
        if isinstance(action, (Build, Steal)) and height[view.seat] + 1 >= goal:
            return 1000.0  # the win
        if isinstance(action, SuperThief):
            return 97.0
        if isinstance(action, Thief):
            return 95.0 + view.seats[action.target].hand_size / 10
        if isinstance(action, Steal):
            return 100.0 + 5 * height[action.target]
        if isinstance(action, Build):
            return 80.0 if Card.WILD in action.cards else 90.0
        if isinstance(action, DonutTruck):
            return 60.0
        if isinstance(action, Dog):
            top = len(me.floors) - 1
            return 50.0 if action.floor == top else (5.0 if action.floor == top - 1 else -1.0)
        if not isinstance(action, (Milkshake, Jackhammer, WreckingBall, Bone)):
            return 0.0  # End
        target = action.target
        threat = height[target] - height[view.seat] / 2
        them = view.seats[target]
        top_guarded = len(them.floors) - 1 in them.dogs
        if isinstance(action, Milkshake):
            return 40.0 + threat
        if isinstance(action, Jackhammer):
            return 30.0 + 10 * threat
        if isinstance(action, WreckingBall):
            return 32.0 + 10 * threat if height[target] >= 2 or top_guarded else -1.0
        return 35.0 + 10 * threat if action.floor == len(them.floors) - 1 and \
            self._can_hit(view, target) else -1.0

    @staticmethod
    def _can_hit(view: PlayerView, target: int) -> bool:
        """True if, with the dog gone, a card in hand could take the top floor."""
        them = view.seats[target]
        top = them.floors[-1]
        if Card.JACKHAMMER in view.hand:
            return True
        return any(c.number is not None and 9 - c.number in (top.left.value, top.right.value)
                   for c in view.hand)


def make_bot(name: str, time_per_move: float = 0.05) -> RandomBot | GreedyBot | StrongBot:
    """A bot by name; ``time_per_move`` (seconds) is the strong bot's budget."""
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    if name == "strong":
        from fivetowers.games.gotown.strong import StrongBot
        return StrongBot(time_per_move)
    raise ValueError(f"unknown GoTown bot {name!r}: expected one of {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "GreedyBot", "RandomBot", "make_bot"]
