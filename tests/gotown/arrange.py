"""Hand-made GoTown situations for the rules tests."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Sequence

from fivetowers.games.gotown.rules import Card, Floor, Game, result_json

NAMES = ("An", "Bình", "Chi", "Dũng")


def cards(*names: str) -> list[Card]:
    return [Card(n) for n in names]


def table(hands: Sequence[Sequence[str]], towers: Sequence[Sequence[Sequence[str]]] = (),
          dogs: Sequence[Sequence[int]] = (), draw: Sequence[str] = (),
          discard: Sequence[str] = (), to_move: int = 0, floors_to_win: int = 5,
          milkshakes: Sequence[int] = (), seed: int = 1) -> Game:
    """A game at the moment ``to_move`` plays (their draw done), with exactly
    these hands, towers, dogs and piles. Other cards are simply out of play."""
    game = Game(NAMES[:len(hands)], floors_to_win, seed=seed)
    for seat, player in enumerate(game.players):
        player.hand = Counter(cards(*hands[seat]))
        player.floors = [Floor.from_json(list(f)) for f in (towers[seat] if towers else [])]
        player.dogs = set(dogs[seat]) if dogs else set()
        player.milkshakes = milkshakes[seat] if milkshakes else 0
    game.draw, game.discard = cards(*draw), cards(*discard)
    game.to_move = to_move
    return game


def snapshot(game: Game) -> Any:
    """Everything a play could change."""
    return (result_json(game), [sorted(map(str, p.hand.elements())) for p in game.players],
            list(game.draw), list(game.discard), len(game.actions), game.truck_on_table,
            game.turn, game.turns_ended, game.to_move, game.over, game.winners,
            [list(r) for r in game.reshuffles])


def random_game(players: int, floors: int, seed: int, end_weight: float = 0.3,
                check: Any = None) -> Game:
    """A whole game of random legal plays (ending the turn with probability
    ``end_weight`` when other plays are open); ``check(game, rng)`` runs
    before every play."""
    rng = random.Random(seed)
    game = Game(NAMES[:players], floors, seed=seed)
    while not game.over:
        if check is not None:
            check(game, rng)
        legal = game.legal_actions()
        plays = legal[:-1]  # End is last
        action = legal[-1] if not plays or rng.random() < end_weight else rng.choice(plays)
        game.apply(action)
    if check is not None:
        check(game, rng)
    return game
