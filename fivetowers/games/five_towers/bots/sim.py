"""Fast simulated continuations of a game, for the strong bot's Monte Carlo.

A rollout plays a (determinised) game to its end thousands of times a
second, so it does not go through :class:`Game`: towers are lists of values,
teardown piles only counts, and every player follows one cheap policy,
:func:`want`. The rounds, the bidding order, ties, the display, the first
run-out's reshuffle and the end at the second run-out follow RULES.md A3–A4;
the building is simplified (no teardown, no Great Powers moves), which only
makes the imagined future a little plainer, never a real move illegal: the
strong bot's own moves are always checked by the engine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from fivetowers.games.five_towers.rules import TYPES, Game, Phase
from fivetowers.games.five_towers.rules.cards import TOWER_TOP
from fivetowers.games.five_towers.rules.game import DISPLAY_SIZE
from fivetowers.games.five_towers.rules.scoring import total
from fivetowers.games.five_towers.rules.search import Pair

NO_TOP = 16  # the "top" of an empty tower: every card starts it
LATE_CARDS = 15  # in the second pass, with this few cards left, take anything


@dataclass
class Sim:
    """A game state for rollouts; the round in play is described by
    ``waiting`` (seats still to bid), ``high`` and ``high_seat``."""

    powers: bool
    towers: list[list[list[int]]]
    piles: list[int]
    draw: list[Pair]
    discard: list[Pair]
    display: list[Pair]
    runouts: int
    starter: int
    runout_now: bool
    waiting: list[int]
    high: int
    high_seat: int | None
    building: bool = False
    wanted: list[Pair] | None = None  # the policy's cards for the high seat's bid, if known

    @property
    def late(self) -> bool:
        return self.runouts >= 1 and len(self.draw) <= LATE_CARDS


def from_game(game: Game, like: Sim | None = None) -> Sim:
    """The rollout state of a game in its bidding or building step.

    ``like``: the state of the same world earlier in the same round (before a
    bid: bids move no card), whose towers and cards are copied rather than
    read card by card again; only the bidding comes from ``game``."""
    n = game.player_count
    if game.phase is Phase.BID:
        assert game.to_move is not None
        if game.high_bid is None:
            waiting = [(game.starter + i) % n for i in range(n)]
        else:
            waiting = list(game.waiting)
    else:
        waiting = []
    high = -1 if game.high_bid is None else game.high_bid
    building = game.phase is Phase.BUILD
    if like is not None:
        return Sim(
            powers=like.powers,
            towers=[[list(t) for t in towers] for towers in like.towers],
            piles=list(like.piles),
            draw=list(like.draw),
            discard=list(like.discard),
            display=list(like.display),
            runouts=like.runouts,
            starter=like.starter,
            runout_now=like.runout_now,
            waiting=waiting,
            high=high,
            high_seat=game.high_seat,
            building=building,
        )
    return Sim(
        powers=game.powers,
        towers=[[list(p.board.towers[t]) for t in TYPES] for p in game.players],
        piles=[len(p.board.teardown) for p in game.players],
        draw=[(c.type.index, c.value) for c in game.draw],
        discard=[(c.type.index, c.value) for c in game.discard],
        display=[(c.type.index, c.value) for c in game.display],
        runouts=game.runouts,
        starter=game.starter,
        runout_now=game.runout_round,
        waiting=waiting,
        high=high,
        high_seat=game.high_seat,
        building=building,
    )


def want(towers: list[list[int]], display: list[Pair], late: bool) -> list[Pair]:
    """The display cards a plain player would take, in an order that builds them.

    Per type, highest first: a card goes on when it keeps the tower open (it
    drops the top by at most 3, is a 9, lands on an 8, or starts a tower
    high), or is a 0 that doubles a tower of three or more. Late in the game
    every buildable card is worth its point.
    """
    return want_grouped(towers, by_type(display), late)


def by_type(display: list[Pair]) -> list[tuple[int, list[int]]]:
    """The display's values per type, types in order, each highest first (a
    round's bidders all see the same display: it is grouped once a round)."""
    values: list[list[int]] = [[] for _ in TYPES]
    for ti, v in sorted(display, reverse=True):
        values[ti].append(v)
    return [(ti, vs) for ti, vs in enumerate(values) if vs]


def want_grouped(towers: list[list[int]], groups: list[tuple[int, list[int]]],
                 late: bool) -> list[Pair]:
    """:func:`want` of a display grouped by :func:`by_type`."""
    out: list[Pair] = []
    for ti, values in groups:
        tower = towers[ti]
        top = tower[-1] if tower else NO_TOP  # then the card taken last
        if top == TOWER_TOP:
            continue
        taken = 0
        for v in values:
            # towers.can_place inline (a 0 top was skipped above), checked against
            # it by tests/bots/test_rollout_placing.py.
            if top != NO_TOP and not (v < top or top == 8 or v == 9):
                continue
            if v == TOWER_TOP:
                ok = late or len(tower) + taken >= 3
            elif late or top == 8 or v == 9:
                ok = True
            elif top == NO_TOP:
                ok = v >= 9
            else:
                ok = top - v <= 3
            if ok:
                out.append((ti, v))
                taken += 1
                top = v
                if v == TOWER_TOP:  # a 0 closes the tower
                    break
    return out


def _forced(sim: Sim, seat: int, bid: int) -> list[Pair]:
    """``bid`` cards to build: the policy's own choice when it made the bid,
    else (a real player's bid) the most cards it sees a way to build."""
    # (Only the high bidder builds: its wanted cards, if the policy bid.)
    cards = sim.wanted if sim.wanted is not None else want(sim.towers[seat], sim.display, sim.late)
    if len(cards) < bid:
        cards = want(sim.towers[seat], sim.display, True)
    cards = cards[:bid]
    if len(cards) < bid:
        sim.piles[seat] += 1  # it would have needed a teardown; charge one
    return cards


def start_round(sim: Sim) -> bool:
    if not sim.draw:
        return False
    n = len(sim.towers)
    sim.display, sim.draw = sim.draw[:DISPLAY_SIZE], sim.draw[DISPLAY_SIZE:]
    sim.runout_now = not sim.draw
    if sim.runout_now:
        sim.runouts += 1
    sim.waiting = [(sim.starter + i) % n for i in range(n)]
    sim.high, sim.high_seat, sim.wanted = -1, None, None
    return True


def scores(sim: Sim) -> list[int]:
    return [total(towers, pile, sim.powers)
            for towers, pile in zip(sim.towers, sim.piles)]


def bid_round(sim: Sim) -> None:
    """The seats still to bid do so by the policy: raise to the cards they want."""
    groups = by_type(sim.display)
    late = sim.late
    for seat in sim.waiting:
        cards = want_grouped(sim.towers[seat], groups, late)
        if len(cards) > sim.high:
            sim.high, sim.high_seat = len(cards), seat
            sim.wanted = cards  # what it builds if it wins (the display is the same then)
    sim.waiting = []
    sim.building = sim.high > 0


def build(sim: Sim, seat: int, cards: list[Pair], towers: list[list[int]] | None = None,
          pile: int | None = None) -> None:
    """``seat`` builds ``cards`` (or, for a worked-out build, ends with ``towers``
    and a pile of ``pile`` cards); the next round starts after them."""
    if towers is None:
        for ti, v in cards:
            sim.towers[seat][ti].append(v)
    else:
        sim.towers[seat] = towers
    if pile is not None:
        sim.piles[seat] = pile
    for p in cards:
        sim.display.remove(p)
    sim.starter = (seat + 1) % len(sim.towers)
    sim.building = False


def clean_up(sim: Sim, rng: random.Random) -> bool:
    """Discard the display, reshuffle after the first run-out, reveal the next
    display; False when the game is over (RULES.md A4)."""
    sim.discard.extend(sim.display)
    sim.display = []
    if sim.runout_now and sim.runouts >= 2:
        return False
    if sim.runout_now:
        sim.draw, sim.discard = sim.discard, []
        rng.shuffle(sim.draw)
    return start_round(sim)


def play_out(sim: Sim, rng: random.Random) -> list[int]:
    """Play the round in progress and the rest of the game by the policy; the
    final scores."""
    while True:
        if not sim.building:
            bid_round(sim)
        if sim.building:
            assert sim.high_seat is not None
            build(sim, sim.high_seat, _forced(sim, sim.high_seat, sim.high))
        if not clean_up(sim, rng):
            return scores(sim)
