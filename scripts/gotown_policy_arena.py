"""Play GoTown policies against each other, fast (no search, no views): how
the greedy+ rules of fivetowers/games/gotown/plus.py were chosen.

    python scripts/gotown_policy_arena.py --games 4000 --seed 3      # greedy+
    python scripts/gotown_policy_arena.py --knobs hoard=7,risk_p=-1  # a variant
    python scripts/gotown_policy_arena.py --players 4
    python scripts/gotown_policy_arena.py --games 8000 --seed 5 --base steal_keep=False

The variant (greedy+'s Knobs, changed by --knobs) takes seat 0, 1, ... in
turn over the games, the plan-free greedy policy (or greedy+ with the
--against knobs) the other seats; prints the variant's win rate (a shared
win at the turn limit counted as its share) with its 95% Wilson interval.
With --base, a second variant plays the same deals in the same seats and the
paired difference is printed with its 95% interval (most deals play the
same, so a rule's effect shows in far fewer games).
"""

from __future__ import annotations

import argparse
import ast
import random
from dataclasses import replace
from typing import Callable

from fivetowers.games.gotown.playout import greedy_play
from fivetowers.games.gotown.plus import GREEDY_PLUS, Knobs, plus_play
from fivetowers.games.gotown.rules import Action, Game
from fivetowers.games.tournament import wilson

Policy = Callable[[Game, random.Random], Action]


def knobs_from(text: str) -> Knobs:
    knobs = GREEDY_PLUS
    for part in filter(None, text.split(",")):
        key, value = part.split("=")
        kind = type(getattr(knobs, key))
        knobs = replace(knobs, **{key: kind(ast.literal_eval(value))})
    return knobs


def play(policies: list[Policy], seed: int, floors: int = 5) -> tuple[int, ...]:
    game = Game([f"p{i}" for i in range(len(policies))], floors, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        seat = game.to_move
        assert seat is not None
        game.apply_trusted(policies[seat](game, rng))
    return game.winners


def _share(winners: tuple[int, ...], seat: int) -> float:
    """The seat's share of the win (a shared win at the turn limit split)."""
    return 1 / len(winners) if seat in winners else 0.0


def opponent_label(against: str | None) -> str:
    """What ``--against`` plays: greedy by default, greedy+ for no knobs."""
    return "greedy" if against is None else against or "greedy+"


def paired(args: argparse.Namespace) -> None:
    """The variant and the base, each on the same deals in the same seat: the
    games where they differ carry the difference, so its interval is narrow."""
    # Kept by place (variant, base), not by text: the two may be the same.
    variants: list[Policy] = [
        lambda g, r, k=knobs_from(text): plus_play(g, r, k) for text in (args.knobs, args.base)]
    other: Policy = greedy_play
    if args.against is not None:
        theirs = knobs_from(args.against)
        other = lambda g, r: plus_play(g, r, theirs)
    totals = [0.0, 0.0]
    diffs: list[float] = []
    for i in range(args.games):
        seat = i % args.players
        got = []
        for which, policy in enumerate(variants):
            policies = [other] * args.players
            policies[seat] = policy
            got.append(_share(play(policies, args.seed * 1_000_003 + i), seat))
            totals[which] += got[-1]
        diffs.append(got[0] - got[1])
    mean = sum(diffs) / len(diffs)
    spread = (sum((d - mean) ** 2 for d in diffs) / max(len(diffs) - 1, 1)) ** 0.5
    half = 1.96 * spread / len(diffs) ** 0.5
    print(f"{args.knobs or 'greedy+'} {totals[0] / args.games:.1%} vs "
          f"{args.base or 'greedy+'} {totals[1] / args.games:.1%} "
          f"(each against {opponent_label(args.against)}, {args.games} deals, {args.players} players): "
          f"difference {mean:+.2%} [{mean - half:+.2%} to {mean + half:+.2%}], "
          f"{sum(1 for d in diffs if d)} deals decided differently")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--knobs", default="")
    parser.add_argument("--against", default=None, help="knobs of the opponent (else greedy)")
    parser.add_argument("--base", default=None,
                        help="knobs of a second variant played on the same deals and seats: "
                             "prints the paired difference")
    args = parser.parse_args()
    if args.base is not None:
        return paired(args)
    knobs = knobs_from(args.knobs)
    mine: Policy = lambda g, r: plus_play(g, r, knobs)
    other: Policy = greedy_play
    if args.against is not None:
        theirs = knobs_from(args.against)
        other = lambda g, r: plus_play(g, r, theirs)
    wins = 0.0
    for i in range(args.games):
        seat = i % args.players
        policies = [other] * args.players
        policies[seat] = mine
        winners = play(policies, args.seed * 1_000_003 + i)
        if seat in winners:
            wins += 1 / len(winners) if len(winners) > 1 else 1
    low, high = wilson(round(wins), args.games)
    label = args.knobs or "greedy+"
    print(f"{label} vs {opponent_label(args.against)}: {wins / args.games:.1%} "
          f"of {args.games} [{low:.1%}-{high:.1%}] ({args.players} players)")


if __name__ == "__main__":
    main()
