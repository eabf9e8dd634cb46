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
from fivetowers.games.five_towers.rules.towers import can_place

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

    @property
    def late(self) -> bool:
        return self.runouts >= 1 and len(self.draw) <= LATE_CARDS


def from_game(game: Game) -> Sim:
    """The rollout state of a game in its bidding or building step."""
    n = game.player_count
    if game.phase is Phase.BID:
        assert game.to_move is not None
        if game.high_bid is None:
            waiting = [(game.starter + i) % n for i in range(n)]
        else:
            waiting = list(game.waiting)
    else:
        waiting = []
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
        high=-1 if game.high_bid is None else game.high_bid,
        high_seat=game.high_seat,
        building=game.phase is Phase.BUILD,
    )


def want(towers: list[list[int]], display: list[Pair], late: bool) -> list[Pair]:
    """The display cards a plain player would take, in an order that builds them.

    Per type, highest first: a card goes on when it keeps the tower open (it
    drops the top by at most 3, is a 9, lands on an 8, or starts a tower
    high), or is a 0 that doubles a tower of three or more. Late in the game
    every buildable card is worth its point.
    """
    out: list[Pair] = []
    for ti, v in sorted(display, key=lambda p: (p[0], -p[1])):
        tower = towers[ti]
        top = tower[-1] if tower else NO_TOP
        if out and out[-1][0] == ti:
            top = out[-1][1]
            length = len(tower) + sum(1 for p in out if p[0] == ti)
        else:
            length = len(tower)
        if top == TOWER_TOP or (top != NO_TOP and not can_place(v, top)):
            continue
        if v == TOWER_TOP:
            ok = late or length >= 3
        elif late or top == 8 or v == 9:
            ok = True
        elif top == NO_TOP:
            ok = v >= 9
        else:
            ok = top - v <= 3
        if ok:
            out.append((ti, v))
    return out


def _forced(sim: Sim, seat: int, bid: int) -> list[Pair]:
    """``bid`` cards to build: the policy's own choice when it made the bid,
    else (a real player's bid) the most cards it sees a way to build."""
    cards = want(sim.towers[seat], sim.display, sim.late)
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
    sim.high, sim.high_seat = -1, None
    return True


def scores(sim: Sim) -> list[int]:
    return [total(towers, pile, sim.powers)
            for towers, pile in zip(sim.towers, sim.piles)]


def bid_round(sim: Sim) -> None:
    """The seats still to bid do so by the policy: raise to the cards they want."""
    for seat in sim.waiting:
        count = len(want(sim.towers[seat], sim.display, sim.late))
        if count > sim.high:
            sim.high, sim.high_seat = count, seat
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
