"""What the 5 Towers strong bot weighs and plays, position by position, as
short digests: the reference that keeps its decisions the same for the same
worlds while its code is made faster (``tests/bots/test_strong_digest.py``).

Positions come from seeded games of 2-5 players (both variants) where the
seats play greedy with some random legal moves mixed in (to reach odd
positions). At each chosen position the strong bot decides with a fixed
number of worlds; the digest hashes its action, the worlds it played, and
every world's value for every candidate (as ``clear_winner`` is shown them),
and separately the final scores of a few rollouts dealt from the position.

Kept under ``tests/fixtures/bots/strong_digest.json``, written from the
code before the bot's speed-up of 2026-12-02 (a ``git archive`` of it with
this file, whose worlds it counted from the recorded results). ``--write``
writes it again from the code of the day, for a change meant to alter the
decisions:

    python -m tests.bots.strong_digest --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path
from typing import Any, Iterator

from fivetowers.games.five_towers.bots import GreedyBot, RandomBot, StrongBot
from fivetowers.games.five_towers.bots import strong
from fivetowers.games.five_towers.bots.determinize import determinize
from fivetowers.games.five_towers.bots.sim import from_game, play_out
from fivetowers.games.five_towers.rules import Game, PlayerView, Variant

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "bots" / "strong_digest.json"
SEEDS = range(16)
"""Seed s: 2 + s % 4 players, Great Powers when s // 4 is odd."""
EVERY = 11  # a position every this many actions
WORLDS = 40  # past two of clear_winner's checks
RANDOM_SHARE = 0.2


def table(seed: int) -> Game:
    players = 2 + seed % 4
    variant = Variant.GREAT_POWERS if (seed // 4) % 2 else Variant.BASE
    return Game([f"p{i}" for i in range(players)], variant, seed=seed)


def positions(seed: int) -> Iterator[PlayerView]:
    game, rng = table(seed), random.Random(seed)
    n = 0
    while not game.is_terminal():
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        if n % EVERY == 3:
            yield view
        bot = RandomBot() if rng.random() < RANDOM_SHARE else GreedyBot()
        game.apply(bot.choose(view, rng))
        n += 1


def _hash(items: list[Any]) -> str:
    return hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest()[:16]


def decisions_digest(seed: int) -> str:
    """Each position's decision: action, worlds, and the values weighed."""
    seen: list[list[list[float]]] = []  # the decision's results, as clear_winner is shown them
    real = strong.clear_winner

    def recording(results: list[list[float]]) -> bool:
        # The bot grows this list in place: read after its decision, it holds the
        # worlds played after clear_winner's last check too.
        if not seen:
            seen.append(results)
        return real(results)

    strong.clear_winner = recording
    try:
        out = []
        for i, view in enumerate(positions(seed)):
            seen.clear()
            bot = StrongBot(simulations=WORLDS)
            action = bot.choose(view, random.Random(seed * 1000 + i))
            values = [[round(v, 9) for v in row] for row in seen[0]] if seen else None
            out.append([action.to_json(), bot.worlds, values])
    finally:
        strong.clear_winner = real
    return _hash(out)


def rollouts_digest(seed: int) -> str:
    """A few rollouts' final scores from each position's dealt worlds."""
    out = []
    for i, view in enumerate(positions(seed)):
        rng = random.Random(seed * 1000 + i)
        out.append([play_out(from_game(determinize(view, rng)), rng) for _ in range(3)])
    return _hash(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    found = {"decisions": {str(s): decisions_digest(s) for s in SEEDS},
             "rollouts": {str(s): rollouts_digest(s) for s in SEEDS}}
    if args.write:
        FIXTURE.parent.mkdir(parents=True, exist_ok=True)
        FIXTURE.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    print(json.dumps(found, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
