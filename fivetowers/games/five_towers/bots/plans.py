"""Every way a bid winner can build, as finished boards (for the bots).

A *choice* is what :meth:`BuildSession.choose` takes: the display cards, the
Great Powers tree payment and the optional teardown. An :class:`Option` is a
choice carried through to one distinct finished board, with the steps that
reach it, so a bot can weigh where the cards end up (a 9 placed after a 5
leaves a 9 on top; placed before it, a 5) and not only how many it scores.

Cards are ``(type index, value)`` pairs and towers tuples of values, as in
:mod:`fivetowers.games.five_towers.rules.search`, so results are cached across decisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from fivetowers.games.five_towers.rules import TYPES, Board, Build, Card, End, Source, Step
from fivetowers.games.five_towers.rules.cards import TOWER_TOP
from fivetowers.games.five_towers.rules.search import (
    BOTTOM_END, NO_END, SAND, SCRAP, TREE, Pair, Towers, can_place_all, card_of, pairs_of,
    placements,
)

Choice = tuple[tuple[Pair, ...], int, int | None]  # take, pay, teardown type index


@dataclass(frozen=True, slots=True)
class Option:
    """One finished build: what to choose, the steps, and the board it leaves."""

    take: tuple[Pair, ...]
    pay: int
    teardown: int | None
    steps: tuple[Step, ...]
    towers: Towers
    pile: tuple[Pair, ...]

    def to_build(self, seat: int) -> Build:
        return Build(seat, tuple(card_of(p) for p in self.take), self.steps, self.pay,
                     TYPES[self.teardown] if self.teardown is not None else None)


def _without(items: tuple[Pair, ...], i: int) -> tuple[Pair, ...]:
    return items[:i] + items[i + 1:]


def choices(towers: Towers, pile: tuple[Pair, ...], display: tuple[Pair, ...],
            powers: bool, bid: int) -> list[Choice]:
    """Every buildable (take, pay, teardown) for ``bid``; bid 0 is the empty choice."""
    out: list[Choice] = []
    tree = towers[TREE]
    pays = [0]
    if powers and tree and tree[-1] != TOWER_TOP:
        pays += list(range(1, min(bid, len(tree)) + 1))
    for pay in pays:
        k = bid - pay
        pool = display if pay == 0 else tuple(p for p in display if p[0] != TREE)
        if k > len(pool):
            continue
        paid = towers if pay == 0 else (
            towers[:TREE] + (tree[:len(tree) - pay],) + towers[TREE + 1:])
        takes = sorted(set(combinations(pool, k)))
        tears: list[int | None] = [None]
        tears += [ti for ti in range(5) if paid[ti] and paid[ti][-1] != TOWER_TOP]
        for td in tears:
            after, after_pile = _tear(paid, pile, td)
            for take in takes:
                if can_place_all(after, take, after_pile, False, NO_END, powers):
                    out.append((take, pay, td))
    return out


def _tear(towers: Towers, pile: tuple[Pair, ...],
          td: int | None) -> tuple[Towers, tuple[Pair, ...]]:
    if td is None:
        return towers, pile
    tower = towers[td]
    return (towers[:td] + (tower[:-1],) + towers[td + 1:],
            tuple(sorted(pile + ((td, tower[-1]),))))


OPTIONS_KEPT = 1 << 9
"""Boards' options kept: a bot asks again for the same board within a round
(every bid, then the build); over 241 strong-bot moves, 512 entries gave the
same hits as 16,384, which kept old deals' options in a worker for good."""


@lru_cache(maxsize=OPTIONS_KEPT)
def options(towers: Towers, pile: tuple[Pair, ...], display: tuple[Pair, ...],
            powers: bool, bid: int) -> tuple[Option, ...]:
    """Every distinct finished board reachable by a legal build of ``bid``."""
    out: dict[tuple[Towers, tuple[Pair, ...]], Option] = {}
    tree = towers[TREE]
    for take, pay, td in choices(towers, pile, display, powers, bid):
        paid = towers if pay == 0 else (
            towers[:TREE] + (tree[:len(tree) - pay],) + towers[TREE + 1:])
        start, start_pile = _tear(paid, pile, td)
        finals: dict[tuple[Towers, tuple[Pair, ...]], tuple[Step, ...]] = {}
        _walk(start, take, start_pile, False, NO_END, powers, (), finals, set())
        for (t, p), steps in finals.items():
            # Two choices may end alike (tear down a card, then rebuild it): the
            # first found is kept, and choices without a teardown come first.
            out.setdefault((t, p), Option(take, pay, td, steps, t, p))
    return tuple(out.values())


def _walk(towers: Towers, hand: tuple[Pair, ...], pile: tuple[Pair, ...], trigger: bool,
          sand_end: int, powers: bool, steps: tuple[Step, ...],
          finals: dict[tuple[Towers, tuple[Pair, ...]], tuple[Step, ...]],
          seen: set[tuple[object, ...]]) -> None:
    """Depth-first over the steps, each state once; record every finished board."""
    key = (towers, hand, pile, trigger, sand_end)
    if key in seen or not can_place_all(towers, hand, pile, trigger, sand_end, powers):
        return
    seen.add(key)
    if not hand:
        finals.setdefault((towers, pile), steps)
    sources = [(Source.HAND, hand)]
    if trigger:
        sources.append((Source.TEARDOWN, pile))
    for source, pool in sources:
        for i, (ti, v) in enumerate(pool):
            if i and pool[i - 1] == pool[i]:
                continue
            rest = _without(pool, i)
            for after, end in placements(towers, ti, v, sand_end, powers):
                bottom = powers and ti == SAND and bool(towers[ti]) and end == BOTTOM_END
                step = Step(card_of((ti, v)), End.BOTTOM if bottom else End.TOP, source)
                fired = powers and ti == SCRAP
                if source is Source.HAND:
                    _walk(after, rest, pile, fired, end, powers, steps + (step,), finals, seen)
                else:
                    _walk(after, hand, rest, fired, end, powers, steps + (step,), finals, seen)


def board_options(board: Board, display: tuple[Card, ...] | list[Card], powers: bool,
                  bid: int) -> tuple[Option, ...]:
    return options(board.towers_key(), board.pile_key(), pairs_of(list(display)), powers, bid)
