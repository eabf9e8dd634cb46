"""What GoTown's strong bot weighs and plays, position by position, as
short digests: the reference that keeps its decisions the same for the same
deals while its search is made cheaper (``tests/gotown/test_strong_digest.py``).

Positions come from seeded games of 2-4 players (both lengths) where every
seat plays greedy+ with some random legal plays mixed in (to reach odd
positions). At each chosen position a fresh ``StrongBot(simulations=DEALS)``
decides; the digest hashes its play, the deals and playouts it made, every
searched candidate's paired total and sum of squares (as ``_lead`` is
shown them), and every playout it played: its plays, the state it scored
(hands, towers, dogs, piles, turn) and the score. Then the next number of
the bot's generator, so a change in how many draws a decision takes shows.

Kept under ``tests/fixtures/gotown/strong_digest.json``, written from the
code before the search's speed-up of 2026-12-02 evening. ``--write``
writes it again from the code of the day, for a change meant to alter the
decisions:

    python -m tests.gotown.strong_digest --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path
from typing import Any, Iterator

from fivetowers.games.gotown import strong
from fivetowers.games.gotown.plus import plus_play
from fivetowers.games.gotown.rules import Game, PlayerView, action_json
from fivetowers.games.gotown.strong import Search, StrongBot
from tests.gotown.plays_digest import emit

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "gotown" / "strong_digest.json"
SEEDS = range(24)
"""Seed s: 2 + s % 3 players, the short game when s // 3 is even."""
EVERY = 7
"""A position every this many plays."""
DEALS = 30
"""Deals a decision: heads-up, the fewest at which the search has its say
(:data:`~fivetowers.games.gotown.strong.MIN_DEALS`)."""
RANDOM_SHARE = 0.15


def table(seed: int) -> Game:
    players, floors = 2 + seed % 3, 4 + (seed // 3) % 2
    return Game([f"p{i}" for i in range(players)], floors, seed=seed)


def positions(seed: int) -> Iterator[PlayerView]:
    game, rng = table(seed), random.Random(seed)
    n = 0
    while not game.over:
        seat = game.to_move
        assert seat is not None
        if n % EVERY == 2:
            yield game.view(seat)
        if rng.random() < RANDOM_SHARE:
            game.apply(rng.choice(game.legal_actions()))
        else:
            game.apply(plus_play(game, rng))
        n += 1


def _hash(items: list[Any]) -> str:
    return hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest()[:16]


def _state(game: Game) -> list[Any]:
    return [[[str(c) for c in p.hand_cards()] for p in game.players],
            [[str(f) for f in p.floors] for p in game.players],
            [sorted(p.dogs) for p in game.players],
            [p.milkshakes for p in game.players],
            [str(c) for c in game.draw], [str(c) for c in game.discard],
            game.turn, game.turns_ended, game.to_move, list(game.winners)]


def decisions(seed: int, design: Search | None = None) -> list[Any]:
    """Each position's decision and everything it weighed (see the docstring).
    ``design``: the search at every table size (default: the bot's own)."""
    seen: list[Any] = []
    real_score, real_lead = strong.score, strong._lead

    def scoring(game: Game, me: int, design: Search = strong.TABLE_SEARCH) -> float:
        value = real_score(game, me, design)
        seen.append([[action_json(a) for a in game.actions], _state(game), round(value, 9)])
        return value

    def leading(total: float, squares: float, deals: int, margin: float,
                sure: float) -> float | None:
        seen.append([round(total, 9), round(squares, 9), deals])
        return real_lead(total, squares, deals, margin, sure)

    strong.score, strong._lead = scoring, leading
    try:
        out = []
        for i, view in enumerate(positions(seed)):
            seen.clear()
            bot = StrongBot(simulations=DEALS) if design is None \
                else StrongBot(simulations=DEALS, heads_up=design, table=design)
            rng = random.Random(seed * 1000 + i)
            action = bot.choose(view, rng)
            out.append([action_json(action), bot.deals, bot.playouts, list(seen), rng.random()])
    finally:
        strong.score, strong._lead = real_score, real_lead
    return out


def decisions_digest(seed: int, design: Search | None = None) -> str:
    return _hash(decisions(seed, design))


VARIANTS: dict[str, Search] = {
    "hold,value": Search(0.0, 0.5, 2, 3, in_hand=0.4, hold=True, value=True),
    "stealer,infer,defend": Search(0.01, 1.5, 2, 6, stealer=0.5, infer=True, defend=2,
                                   per_card=0.1),
}
"""Designs off by default whose code the speed-up touches too (a few seeds)."""


def digests() -> dict[str, dict[str, str]]:
    found = {"decisions": {str(s): decisions_digest(s) for s in SEEDS}}
    for name, design in VARIANTS.items():
        found[name] = {str(s): decisions_digest(s, design) for s in SEEDS[::4]}
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {FIXTURE}")
    parser.add_argument("--stats", action="store_true",
                        help="print how many decisions searched, and their playouts")
    args = parser.parse_args()
    if args.stats:
        for s in SEEDS:
            made = decisions(s)
            print(s, table(s).player_count, table(s).floors_to_win, len(made),
                  sum(1 for d in made if d[1] > 1), sum(d[2] for d in made))
        return
    emit(digests(), FIXTURE, args.write)


if __name__ == "__main__":
    main()
