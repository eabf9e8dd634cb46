"""What greedy+ and the strong bot's dealer play, seed by seed, as short
digests: the reference that keeps the playouts' policy the same while its
code is made faster (``tests/gotown/test_plays_digest.py``).

Each digest hashes every play of a seeded game (greedy+, or the greedy
rules, for every seat, with some random legal plays mixed in to reach odd
positions), and the next number the game's generator gives once it is over
(so a change in how many draws the policy takes shows too); the dealer's
digest hashes, at each decision of such a game, a deal of the unseen cards
and a playout of two rounds from it.

Written once from the code before an optimisation and kept under
``tests/fixtures/gotown/plays_digest.json``:

    python -m tests.gotown.plays_digest --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path
from typing import Any

from fivetowers.games.gotown.plus import GREEDY, GREEDY_PLUS, Knobs, plus_play
from fivetowers.games.gotown.rules import Game, action_json
from fivetowers.games.gotown.strong import Dealer

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "gotown" / "plays_digest.json"
SEEDS = range(48)
"""Seed s: 2 + s % 3 players, the short game when s // 3 is even."""
RANDOM_SHARE = 0.15
"""The share of plays made at random (legal) instead of by the policy."""


def table(seed: int) -> Game:
    players, floors = 2 + seed % 3, 4 + (seed // 3) % 2
    return Game([f"p{i}" for i in range(players)], floors, seed=seed)


def _hash(items: list[Any]) -> str:
    return hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest()[:16]


def _step(game: Game, rng: random.Random, knobs: Knobs) -> dict[str, Any]:
    if rng.random() < RANDOM_SHARE:
        action = rng.choice(game.legal_actions())
        game.apply(action)
    else:
        action = plus_play(game, rng, knobs)
        game.apply_trusted(action)
    return action_json(game.actions[-1])


def game_digest(seed: int, knobs: Knobs) -> str:
    """Every play of a seeded game with ``knobs`` for every seat."""
    game, rng = table(seed), random.Random(seed)
    plays = []
    while not game.over:
        plays.append(_step(game, rng, knobs))
    return _hash([plays, list(game.winners), rng.random()])


def dealer_digest(seed: int) -> str:
    """Deals and two-round playouts at the decisions of a greedy+ game."""
    game, rng = table(seed), random.Random(seed)
    seen: list[Any] = []
    while not game.over:
        seat = game.to_move
        assert seat is not None
        if len(game.actions) % 3 == 0:
            deal = Dealer(game.view(seat)).deal(rng)
            hands = [p.hand_cards() for p in deal.players]
            seen.append([[[str(c) for c in h] for h in hands], [str(c) for c in deal.draw],
                         deal.seed])
            copy = deal.clone()
            horizon = copy.turn + 2 * copy.player_count
            playout_rng = random.Random(rng.randrange(1 << 30))
            while not copy.over and copy.turn < horizon:
                copy.apply_trusted(plus_play(copy, playout_rng))
            seen.append([action_json(a) for a in copy.actions[len(deal.actions):]])
            seen.append(playout_rng.random())
        _step(game, rng, GREEDY_PLUS)
    return _hash([seen, rng.random()])


def digests() -> dict[str, dict[str, str]]:
    return {
        "greedy+": {str(s): game_digest(s, GREEDY_PLUS) for s in SEEDS},
        "greedy": {str(s): game_digest(s, GREEDY) for s in SEEDS[::2]},
        "knob defaults": {str(s): game_digest(s, Knobs()) for s in SEEDS[::2]},
        "dealer": {str(s): dealer_digest(s) for s in SEEDS[::3]},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {FIXTURE}")
    args = parser.parse_args()
    emit(digests(), FIXTURE, args.write)


def emit(found: dict[str, dict[str, str]], fixture: Path, write: bool) -> None:
    """Write ``found`` to ``fixture`` (``--write``), or print it."""
    if write:
        fixture.parent.mkdir(parents=True, exist_ok=True)
        fixture.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        print(f"wrote {fixture}")
    else:
        print(json.dumps(found, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
