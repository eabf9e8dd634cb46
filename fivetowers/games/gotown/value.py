"""A learned value of a GoTown table: the chance a seat goes on to win it.

The strong bot's search can score its horizon with it (``Search(value=True)``)
instead of the hand-made lead in floors. :func:`features` reads a seat's
side of the whole table (its tower, its hand, the opponent nearest to
winning, whose turn it is, the draw pile); :func:`win_chance` is the
logistic regression of :data:`WEIGHTS` on them.

The weights were fitted by ``scripts/gotown_value_fit.py`` (its command line
and the data it saw are in :data:`FITTED_BY`): greedy+ games from random
seeds, 2–4 players, both lengths, a sample of their turn boundaries, each
seat's features against whether it won in the end. Run that script to
regenerate them (``--write`` puts them here; without it, it prints them).
Both sets were refit on the games of greedy+ with its fitted worths
(plus.py). On the states held out, the heads-up set scores as the set
before did (log loss 0.5529 against 0.5525); the 2–4 player set's
``FITTED_BY`` figure of the set before (0.5780 against 0.5825) scored its
two-player states with the heads-up set, which serves them, and on 1500
fresh games of three and four the two score alike (0.5739 against 0.5742;
see strong.py).
"""

from __future__ import annotations

import math
from collections import Counter

from fivetowers.games.gotown.bots import pairs_held
from fivetowers.games.gotown.rules import Card, Game
from fivetowers.games.gotown.rules.cards import COUNTS, FLOOR_SUM, floor_card
from fivetowers.games.gotown.rules.game import Player

_NUMBERS = tuple(floor_card(v) for v in range(1, 9))
DECK = sum(COUNTS.values())
"""GoTown's 54 cards: the draw pile's feature is its share of them."""

SEAT_NAMES = (
    "to_go_1", "to_go_2", "to_go", "guarded", "pairs", "reach", "wilds", "hand",
    "attacks", "thieves", "dogs", "tempo", "steal_ready", "skips",
)
"""A seat's own features (:func:`seat_features`), first for the seat valued,
then for its leading opponent (the one fewest floors from winning)."""
NAMES = ("bias",) + tuple(f"me_{n}" for n in SEAT_NAMES) + tuple(
    f"rival_{n}" for n in SEAT_NAMES) + (
    "others_near", "two_players", "four_players", "short_game", "draw_pile", "my_wait",
    "rival_wait",
)
"""Every feature of :func:`features`, in order."""


def pairs_in(hand: Counter[Card]) -> tuple[int, int]:
    """The floors a hand could build (:func:`~fivetowers.games.gotown.bots.pairs_held`)
    and its wilds."""
    return pairs_held(hand), hand.get(Card.WILD, 0)


def steals_from(hand: Counter[Card], target: Player) -> bool:
    """True if ``hand`` holds a card that steals ``target``'s open top floor."""
    if not target.floors or target.top_has_dog():
        return False
    held = hand.get
    return any(held(_NUMBERS[FLOOR_SUM - piece.value - 1], 0)
               for piece in (target.floors[-1].left, target.floors[-1].right))


def seat_features(game: Game, seat: int) -> list[float]:
    """The :data:`SEAT_NAMES` of ``seat``."""
    player = game.players[seat]
    hand = player.hand
    held = hand.get
    to_go = game.floors_to_win - len(player.floors)
    pairs, wilds = pairs_in(hand)
    ready = any(steals_from(hand, other) for s, other in enumerate(game.players) if s != seat)
    return [
        float(to_go == 1), float(to_go == 2), float(to_go),
        float(bool(player.floors) and player.top_has_dog()),
        float(pairs), float(min(pairs, to_go)), float(wilds), float(player.hand_size),
        float(held(Card.JACKHAMMER, 0) + held(Card.WRECKING_BALL, 0)),
        float(held(Card.THIEF, 0) + held(Card.SUPER_THIEF, 0)),
        float(held(Card.DOG, 0) + held(Card.BONE, 0)),
        float(held(Card.MILKSHAKE, 0) + held(Card.DONUT_TRUCK, 0)),
        float(ready), float(player.milkshakes),
    ]


def rival(game: Game, seat: int) -> int:
    """The opponent of ``seat`` nearest to winning: most floors, then most
    pairs in hand, then the first after ``seat`` in turn order."""
    count = game.player_count
    others = [(seat + k) % count for k in range(1, count)]
    return max(others, key=lambda s: (len(game.players[s].floors),
                                      pairs_in(game.players[s].hand)[0]))


def features(game: Game, seat: int) -> list[float]:
    """The :data:`NAMES` of ``seat`` at ``game`` (a game not over)."""
    count = game.player_count
    other = rival(game, seat)
    near = sum(1 for s, p in enumerate(game.players) if s not in (seat, other)
               and game.floors_to_win - len(p.floors) <= 1)
    moving = game.to_move if game.to_move is not None else seat
    return [1.0, *seat_features(game, seat), *seat_features(game, other),
            float(near), float(count == 2), float(count == 4),
            float(game.floors_to_win == 4), len(game.draw) / DECK,
            ((seat - moving) % count) / count, ((other - moving) % count) / count]


def win_chance(game: Game, seat: int, weights: tuple[float, ...] | None = None) -> float:
    """The chance ``seat`` wins: 1 or 0 (a share of a shared win) once the
    game is over, else the logistic model of ``weights`` (default:
    :data:`HEADS_UP_WEIGHTS` at a table of two, else :data:`WEIGHTS`)."""
    if game.over:
        return 1.0 / len(game.winners) if seat in game.winners else 0.0
    if weights is None:
        weights = HEADS_UP_WEIGHTS if game.player_count == 2 else WEIGHTS
    z = sum(w * x for w, x in zip(weights, features(game, seat)))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def win_share(game: Game, seat: int) -> float:
    """:func:`win_chance` of ``seat`` over the sum of every seat's, so that
    the table's chances sum to 1 (each seat's is fitted on its own)."""
    if game.over:
        return win_chance(game, seat)
    chances = [win_chance(game, s) for s in range(game.player_count)]
    return chances[seat] / sum(chances)


HEADS_UP_FITTED_BY = (
    'python scripts/gotown_value_fit.py --games 5000 --every 0.12 --seed 2 --players '
    '2 --workers 2 --write: 26058 seat samples from 16242 states of 5000 games (4 in '
    '5 of them); on the rest, learned: log loss 0.5529, first-ranked seat won 70.6%; '
    'weights before this fit: log loss 0.5525, first-ranked seat won 70.5%; hand-made'
    ' score (calibrated): log loss 0.6273, first-ranked seat won 64.8%'
)
"""The command line that fitted :data:`HEADS_UP_WEIGHTS`, and the data it saw."""
HEADS_UP_WEIGHTS: tuple[float, ...] = (
    -0.0000,  # bias
    0.2681,  # me_to_go_1
    0.1488,  # me_to_go_2
    -0.6667,  # me_to_go
    0.4736,  # me_guarded
    0.2622,  # me_pairs
    -0.0258,  # me_reach
    -0.0134,  # me_wilds
    0.0777,  # me_hand
    0.2213,  # me_attacks
    0.2184,  # me_thieves
    0.3352,  # me_dogs
    0.1711,  # me_tempo
    0.6753,  # me_steal_ready
    -0.3433,  # me_skips
    -0.2681,  # rival_to_go_1
    -0.1488,  # rival_to_go_2
    0.6667,  # rival_to_go
    -0.4736,  # rival_guarded
    -0.2622,  # rival_pairs
    0.0258,  # rival_reach
    0.0134,  # rival_wilds
    -0.0777,  # rival_hand
    -0.2213,  # rival_attacks
    -0.2184,  # rival_thieves
    -0.3352,  # rival_dogs
    -0.1711,  # rival_tempo
    -0.6753,  # rival_steal_ready
    0.3433,  # rival_skips
    0.0000,  # others_near
    -0.0000,  # two_players
    0.0000,  # four_players
    0.0000,  # short_game
    -0.0000,  # draw_pile
    0.0102,  # my_wait
    -0.0102,  # rival_wait
)
"""One weight per feature of :data:`NAMES`, fitted on games of two."""


FITTED_BY = (
    'python scripts/gotown_value_fit.py --games 8000 --every 0.1 --seed 1 --workers 2'
    ' --write: 77266 seat samples from 31681 states of 8000 games (4 in 5 of them); '
    'on the rest, learned: log loss 0.5825, first-ranked seat won 48.9%; weights '
    'before this fit: log loss 0.5780, first-ranked seat won 49.2%; hand-made score '
    '(calibrated): log loss 0.6071, first-ranked seat won 46.7%'
)
"""The command line that fitted :data:`WEIGHTS`, and the data it saw."""
WEIGHTS: tuple[float, ...] = (
    -0.7311,  # bias
    0.5043,  # me_to_go_1
    0.2325,  # me_to_go_2
    -0.2768,  # me_to_go
    0.3724,  # me_guarded
    0.2312,  # me_pairs
    -0.1125,  # me_reach
    0.0516,  # me_wilds
    0.0556,  # me_hand
    0.0343,  # me_attacks
    0.1504,  # me_thieves
    0.2383,  # me_dogs
    0.0991,  # me_tempo
    0.2339,  # me_steal_ready
    -0.3722,  # me_skips
    -0.0240,  # rival_to_go_1
    0.0309,  # rival_to_go_2
    0.3141,  # rival_to_go
    -0.2731,  # rival_guarded
    -0.2478,  # rival_pairs
    0.1359,  # rival_reach
    -0.0570,  # rival_wilds
    -0.0599,  # rival_hand
    -0.0656,  # rival_attacks
    -0.1148,  # rival_thieves
    -0.2040,  # rival_dogs
    -0.0822,  # rival_tempo
    -0.2276,  # rival_steal_ready
    0.1456,  # rival_skips
    -0.5669,  # others_near
    0.5743,  # two_players
    -0.3257,  # four_players
    -0.0058,  # short_game
    -0.0300,  # draw_pile
    -0.1260,  # my_wait
    0.0643,  # rival_wait
)
"""One weight per feature of :data:`NAMES`, fitted on games of 2–4."""
