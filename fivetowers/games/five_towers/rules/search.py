"""Exact, fast answers to "what can this player build?" (RULES.md A3.3).

The engine refuses bids nobody could build and passes players with no legal
raise automatically, so it needs the highest buildable bid for a player many
times a game. Cards are handled as ``(type index, value)`` pairs and towers as
tuples of values so results can be cached across games.

Feasible take sizes are downward closed (drop the last card placed from the
hand, and every rebuild after it, and the rest still stands), so the
buildable bids are exactly ``0..max_bid``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator, Sequence

from fivetowers.games.five_towers.rules.cards import TOWER_TOP, TYPES, Card, TowerType
from fivetowers.games.five_towers.rules.towers import can_place

CANDY = TowerType.CANDY.index
SCARY = TowerType.SCARY.index
TREE = TowerType.TREE.index
SCRAP = TowerType.SCRAP.index
SAND = TowerType.SAND.index

# Which end of the sand tower has taken cards this round (Great Powers).
NO_END, TOP_END, BOTTOM_END = 0, 1, 2

Towers = tuple[tuple[int, ...], ...]
Pair = tuple[int, int]  # (type index, value)
EMPTY = -1  # "top" of a tower with no cards: any card starts it


def pairs_of(cards: Sequence[Card]) -> tuple[Pair, ...]:
    return tuple(sorted((c.type.index, c.value) for c in cards))


def card_of(pair: Pair) -> Card:
    """The card a pair stands for (the inverse of :func:`pairs_of`, one card)."""
    return Card(TYPES[pair[0]], pair[1])


CHAINS_KEPT = 1 << 11
"""Answers of :func:`_best_chain` kept (about 150 bytes each). Unbounded, the
serving process kept every hand's chains for good (913 after 10 minutes of
play at 20 sessions); over 60 random games of every size and variant,
4,582 entries gave 87.4% hits, 2,048 gave 83.5% and 1,024 77.7%, at the
same CPU (a miss is a few comparisons)."""

SANDS_KEPT = 1 << 10
"""Answers of :func:`best_sand` kept (about 200 bytes each; Great Powers
only): over the same games 1,704 entries gave 55.6% hits, 1,024 53.5%."""


@lru_cache(maxsize=CHAINS_KEPT)
def _best_chain(end: int, values: tuple[int, ...], under: bool) -> int:
    """Most of ``values`` (sorted) that can be added one by one at one end of a
    tower: onto ``end`` (its top), or slid ``under`` it (its lowest card)."""
    best = 0
    prev = -2
    for i, v in enumerate(values):
        if v == prev:
            continue
        prev = v
        fits = can_place(end, v) if under else (end == EMPTY or can_place(v, end))
        if fits:
            n = 1 + _best_chain(v, values[:i] + values[i + 1:], under)
            if n > best:
                best = n
                if best == len(values):
                    break
    return best


def best_onto(top: int, values: tuple[int, ...]) -> int:
    """Most of ``values`` (sorted) that can be stacked onto ``top``."""
    return _best_chain(top, values, False)


def best_under(lowest: int, values: tuple[int, ...]) -> int:
    """Most of ``values`` that can be slid, one by one, under ``lowest``."""
    return _best_chain(lowest, values, True)


@lru_cache(maxsize=SANDS_KEPT)
def best_sand(bottom: int, top: int, values: tuple[int, ...]) -> int:
    """Great Powers sand: one end per round; ``top == EMPTY`` for no tower."""
    if top == TOWER_TOP:
        return 0
    if top != EMPTY:
        return max(best_onto(top, values), best_under(bottom, values))
    best = 0
    prev = -2
    for i, s in enumerate(values):
        if s == prev:
            continue
        prev = s
        if s == TOWER_TOP:
            n = 1
        else:
            rest = values[:i] + values[i + 1:]
            n = 1 + max(best_onto(s, rest), best_under(s, rest))
        best = max(best, n)
    return best


def type_best(ti: int, tower: tuple[int, ...], values: tuple[int, ...], powers: bool) -> int:
    """Most cards of one type from ``values`` its tower can take, with no rebuilds."""
    if not values:
        return 0
    if powers and ti == SAND:
        return best_sand(tower[0] if tower else EMPTY, tower[-1] if tower else EMPTY, values)
    return best_onto(tower[-1] if tower else EMPTY, values)


def placements(towers: Towers, ti: int, v: int, sand_end: int,
               powers: bool) -> Iterator[tuple[Towers, int]]:
    """Each legal way to add card ``(ti, v)``: the new towers and sand end."""
    tower = towers[ti]
    sand = powers and ti == SAND
    if not tower:
        yield towers[:ti] + ((v,),) + towers[ti + 1:], sand_end
        return
    if can_place(v, tower[-1]) and not (sand and sand_end == BOTTOM_END):
        yield (towers[:ti] + (tower + (v,),) + towers[ti + 1:],
               TOP_END if sand else sand_end)
    if (sand and sand_end != TOP_END and tower[-1] != TOWER_TOP
            and can_place(tower[0], v)):
        yield towers[:ti] + (((v,) + tower),) + towers[ti + 1:], BOTTOM_END


def can_place_all(towers: Towers, hand: tuple[Pair, ...], pile: tuple[Pair, ...],
                  trigger: bool, sand_end: int, powers: bool) -> bool:
    """Can every hand card (sorted) still be placed, using scrap rebuilds as needed?"""
    return most_placed(towers, hand, pile, trigger, sand_end, powers) == len(hand)


def _split(display: tuple[Pair, ...], allow_tree: bool) -> list[tuple[int, ...]]:
    by_type: list[list[int]] = [[], [], [], [], []]
    for ti, v in display:
        if allow_tree or ti != TREE:
            by_type[ti].append(v)
    return [tuple(sorted(vs)) for vs in by_type]


MOST_PLACED_KEPT = 1 << 10
"""Answers of :func:`most_placed` kept (about 375 bytes each). Its hits come
from within one search (the same sub-boards reached in several orders):
over 300 moves of three Great Powers deals (a strong bot and three greedy
ones), 8,192, 2,048 and 1,024 entries all gave 19,099 hits, 512 gave
18,981; in the serving process (legal bids, scripts/bench_cache_bounds.py)
8,192 and 1,024 gave the same 20.6%. 262,144 grew a worker process by about
10 MiB a minute until it filled (some 130 MiB), with positions of deals
long over; 8,192 held 3 MiB in the server and in each worker."""


@lru_cache(maxsize=MOST_PLACED_KEPT)
def most_placed(towers: Towers, display: tuple[Pair, ...], pile: tuple[Pair, ...],
                trigger: bool, sand_end: int, powers: bool) -> int:
    """Most of ``display`` that can be taken and built, with scrap rebuilds."""
    best = 0
    prev: Pair | None = None
    for i, (ti, v) in enumerate(display):
        if display[i] == prev:
            continue
        prev = display[i]
        rest = display[:i] + display[i + 1:]
        for after, end in placements(towers, ti, v, sand_end, powers):
            n = 1 + most_placed(after, rest, pile, powers and ti == SCRAP, end, powers)
            if n > best:
                best = n
                if best == len(display):
                    return best
    if trigger:
        prev = None
        for j, (ti, v) in enumerate(pile):
            if pile[j] == prev:
                continue
            prev = pile[j]
            rest_pile = pile[:j] + pile[j + 1:]
            for after, end in placements(towers, ti, v, sand_end, powers):
                n = most_placed(after, display, rest_pile, ti == SCRAP, end, powers)
                if n > best:
                    best = n
                    if best == len(display):
                        return best
    return best


def _coupled_best(towers: Towers, pile: tuple[Pair, ...], display: tuple[Pair, ...],
                  lower: int, powers: bool) -> int:
    """The best take when scrap rebuilds may help; ``lower`` is known reachable.

    Only teardown cards of a type in the display can help a hand card stand
    (a rebuilt card changes nothing but its own tower), so the rest of the
    pile is left out of the search.
    """
    wanted = {ti for ti, _ in display}
    useful = tuple(p for p in pile if p[0] in wanted)
    if not useful:
        return lower
    values = _split(display, True)
    extras = _split(useful, True)
    bound = sum(free_rebuild_best(ti, towers[ti], values[ti], extras[ti], NO_END)
                for ti in wanted)
    if bound <= lower:
        return lower
    return max(lower, most_placed(towers, display, useful, False, NO_END, powers))


_NO_TOWERS: Towers = ((), (), (), (), ())


FREE_REBUILDS_KEPT = 1 << 11
"""Answers of :func:`free_rebuild_best` kept (about 280 bytes each): over the
same 300 moves it made 2,013 entries; 65,536 (its bound before) would have
held some 18 MiB of old deals' towers, 1,024 lost 3 hits of 6,309."""


@lru_cache(maxsize=FREE_REBUILDS_KEPT)
def free_rebuild_best(ti: int, tower: tuple[int, ...], values: tuple[int, ...],
                      extras: tuple[int, ...], sand_end: int) -> int:
    """An upper bound for one Great Powers tower: most of ``values`` it takes when
    any of ``extras`` (its teardown cards) may be rebuilt at any moment."""
    towers = _NO_TOWERS[:ti] + (tower,) + _NO_TOWERS[ti + 1:]
    best = 0
    for pool, counts in ((values, 1), (extras, 0)):
        prev = -2
        for i, v in enumerate(pool):
            if v == prev:
                continue
            prev = v
            rest = pool[:i] + pool[i + 1:]
            for after, end in placements(towers, ti, v, sand_end, True):
                if counts:
                    n = 1 + free_rebuild_best(ti, after[ti], rest, extras, end)
                else:
                    n = free_rebuild_best(ti, after[ti], values, rest, end)
                if n > best:
                    best = n
                    if best == len(values):
                        return best
    return best


def max_take(towers: Towers, pile: tuple[Pair, ...], display: tuple[Pair, ...],
             powers: bool, allow_tree: bool = True) -> int:
    """Most display cards this player can take and build, over every teardown."""
    if not allow_tree:
        display = tuple(p for p in display if p[0] != TREE)
    by_type = _split(display, True)
    plain = [type_best(ti, towers[ti], by_type[ti], powers) for ti in range(5)]
    total = sum(plain)
    coupled = powers and any(ti == SCRAP for ti, _ in display)
    best = total
    if coupled and pile and best < len(display):
        best = _coupled_best(towers, pile, display, best, powers)
    for ti in range(5):
        if best == len(display):
            break
        tower = towers[ti]
        if not tower or tower[-1] == TOWER_TOP:
            continue
        lowered = tower[:-1]
        n = total - plain[ti] + type_best(ti, lowered, by_type[ti], powers)
        if coupled and max(n, best) < len(display):
            after = towers[:ti] + (lowered,) + towers[ti + 1:]
            torn = tuple(sorted(pile + ((ti, tower[-1]),)))
            n = _coupled_best(after, torn, display, max(n, best), powers)
        best = max(best, n)
    return best


def max_bid(towers: Towers, pile: tuple[Pair, ...], display: tuple[Pair, ...],
            powers: bool) -> int:
    """The highest bid this player can carry out (RULES.md A3.3, B Tree)."""
    best = max_take(towers, pile, display, powers)
    tree = towers[TREE]
    if powers and tree and tree[-1] != TOWER_TOP:
        best = max(best, max_take(towers, pile, display, powers, allow_tree=False) + len(tree))
    return best


def feasible(towers: Towers, pile: tuple[Pair, ...], take: tuple[Pair, ...],
             powers: bool) -> bool:
    """Can exactly the cards ``take`` all be built (after pay and teardown)?"""
    return can_place_all(towers, tuple(sorted(take)), tuple(sorted(pile)), False, NO_END, powers)


def clear_caches() -> None:
    """Forget every cached answer (for measuring cold-start speed)."""
    for cached in (_best_chain, best_sand, most_placed, free_rebuild_best):
        cached.cache_clear()
