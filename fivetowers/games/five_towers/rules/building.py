"""One player's building step, checked card by card (RULES.md A3.4, Part B).

A :class:`BuildSession` starts from the bid winner's board and the display.
``choose`` takes the cards (and the Great Powers tree payment) and makes the
optional teardown; ``place`` adds one card at a time. Every refusal raises
:class:`IllegalBuild` with a reason and leaves the session as it was, so a UI
can guide a player step by step and a record can be checked the same way.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Iterator, Sequence

from fivetowers.games.five_towers.rules.actions import Build, End, Source, Step
from fivetowers.games.five_towers.rules.board import Board
from fivetowers.games.five_towers.rules.cards import TOWER_TOP, TYPES, Card, TowerType
from fivetowers.games.five_towers.rules.errors import IllegalBuild
from fivetowers.games.five_towers.rules.search import (
    BOTTOM_END, NO_END, TOP_END, can_place_all, pairs_of,
)
from fivetowers.games.five_towers.rules.towers import can_place, can_place_under, onto_refusal, under_refusal
from fivetowers.games.protocol import Term


@dataclass
class _Snapshot:
    board: Board
    hand: list[Card]
    trigger: bool
    sand_end: int


def multiset_minus(pool: Sequence[Card], taken: Sequence[Card]) -> list[Card] | None:
    """``pool`` without ``taken`` (as multisets), or None if ``taken`` is not in it."""
    need = Counter(taken)
    rest: list[Card] = []
    for c in pool:
        if need[c]:
            need[c] -= 1
        else:
            rest.append(c)
    return None if +need else rest


def _combos(cards: Sequence[Card], k: int) -> Iterator[list[Card]]:
    if k < 0:
        return
    seen: set[tuple[Card, ...]] = set()
    for combo in combinations(sorted(cards), k):
        if combo not in seen:
            seen.add(combo)
            yield list(combo)


class BuildSession:
    """The building step of the bid winner, from choosing cards to the last step."""

    def __init__(self, board: Board, display: Sequence[Card], powers: bool, bid: int) -> None:
        self.start = board
        self.display = list(display)
        self.powers = powers
        self.bid = bid
        self._reset()

    def _reset(self) -> None:
        self.board = self.start.clone()
        self.chosen = False
        self.take: list[Card] = []
        self.torn: Card | None = None  # the card this build tore down
        self.pay = 0
        self.paid: list[Card] = []
        self.teardown: TowerType | None = None
        self.hand: list[Card] = []
        self.steps: list[Step] = []
        self._trigger = False
        self._sand_end = NO_END
        self._history: list[_Snapshot] = []

    # -- choosing -----------------------------------------------------------
    def choose(self, take: Sequence[Card], pay: int = 0,
               teardown: TowerType | None = None, check: bool = True) -> None:
        """Take cards, pay tree cards and tear down; with ``check``, refuse a
        choice whose cards could not all be built."""
        if self.chosen:
            raise IllegalBuild("the cards are already chosen; undo to choose again")
        if pay and not self.powers:
            raise IllegalBuild("paying with tree cards is a Great Powers rule")
        if len(take) + pay != self.bid:
            if pay:
                raise IllegalBuild("your bid is {bid}, so take exactly {want} cards, not "
                                   "{taken} cards and {pay} tree cards paid",
                                   bid=self.bid, want=self.bid - pay, taken=len(take), pay=pay)
            raise IllegalBuild("your bid is {bid}, so take exactly {want} cards, not {taken}",
                               bid=self.bid, want=self.bid, taken=len(take))
        rest = multiset_minus(self.display, take)
        if rest is None:
            missing = sorted((Counter(take) - Counter(self.display)).elements())
            raise IllegalBuild("{cards} is not in the display",
                               cards=", ".join(map(str, missing)))
        board = self.board.clone()
        paid: list[Card] = []
        torn: Card | None = None
        if pay:
            tree = board.towers[TowerType.TREE]
            if tree and tree[-1] == TOWER_TOP:
                raise IllegalBuild("your tree tower has a tower top, so it cannot pay")
            if pay > len(tree):
                raise IllegalBuild("you cannot pay {pay} tree cards: your tree tower "
                                   "has {height}", pay=pay, height=len(tree))
            if any(c.type is TowerType.TREE for c in take):
                raise IllegalBuild("a player who pays with tree cards takes no tree card "
                                   "from the display this round")
            for _ in range(pay):
                paid.append(Card(TowerType.TREE, tree.pop()))
        if teardown is not None:
            tower = board.towers[teardown]
            if not tower:
                raise IllegalBuild("you have no {tower} tower to tear down",
                                   tower=Term(teardown.value))
            if tower[-1] == TOWER_TOP:
                raise IllegalBuild("{card} is a tower top and cannot be torn down",
                                   card=f"{teardown}-0")
            torn = Card(teardown, tower.pop())
            board.teardown.append(torn)
        if check and not can_place_all(board.towers_key(), pairs_of(take), board.pile_key(),
                                       False, NO_END, self.powers):
            names = ", ".join(map(str, take))
            if teardown:
                raise IllegalBuild("{cards} cannot all be built after tearing down {tower}",
                                   cards=names, tower=Term(teardown.value))
            raise IllegalBuild("{cards} cannot all be built without a teardown", cards=names)
        self.board, self.paid, self.take = board, paid, list(take)
        self.pay, self.teardown, self.hand = pay, teardown, list(take)
        self.torn = torn
        self.chosen = True

    # -- guiding the choice -------------------------------------------------
    def pay_options(self) -> list[int]:
        """Tree payments this bid allows: 0, plus 1.. under Great Powers."""
        tree = self.start.towers[TowerType.TREE]
        pays = [0] if self.bid <= len(self.display) else []
        if self.powers and tree and tree[-1] != TOWER_TOP:
            pays += [p for p in range(1, len(tree) + 1) if 0 <= self.bid - p <= len(self.display)]
        return pays

    def teardown_options(self, take: Sequence[Card], pay: int = 0) -> list[TowerType | None]:
        """The teardowns (None: no teardown) with which ``take`` can all be built."""
        out: list[TowerType | None] = []
        for td in (None, *TYPES):
            probe = BuildSession(self.start, self.display, self.powers, self.bid)
            try:
                probe.choose(take, pay, td)
            except IllegalBuild:
                continue
            out.append(td)
        return out

    def addable(self, selected: Sequence[Card], pay: int = 0) -> list[Card]:
        """Display cards that can join ``selected`` in some buildable take of this bid."""
        rest = multiset_minus(self.display, selected)
        if rest is None:
            return []
        need = self.bid - pay - len(selected)
        ok: list[Card] = []
        for c in dict.fromkeys(rest):
            others = multiset_minus(rest, [c]) or []
            if any(self.teardown_options([*selected, c, *more], pay)
                   for more in _combos(others, need - 1)):
                ok.append(c)
        return ok

    # -- placing ------------------------------------------------------------
    def legal_steps(self) -> list[Step]:
        """Every step the building rules allow next (not all may finish the build)."""
        out: list[Step] = []
        for source, pool in ((Source.HAND, self.hand), (Source.TEARDOWN, self.board.teardown)):
            if source is Source.TEARDOWN and not self._trigger:
                continue
            for card in dict.fromkeys(pool):
                for end in (End.TOP, End.BOTTOM):
                    if self._reason(Step(card, end, source)) is None:
                        out.append(Step(card, end, source))
        return out

    def completable_steps(self) -> list[Step]:
        """The legal next steps after which every hand card can still be built."""
        ok = []
        for step in self.legal_steps():
            self._apply(step)
            if self.can_finish():
                ok.append(step)
            self.undo()
        return ok

    def can_finish(self) -> bool:
        return can_place_all(self.board.towers_key(), pairs_of(self.hand), self.board.pile_key(),
                             self._trigger, self._sand_end, self.powers)

    def place(self, step: Step) -> None:
        reason = self._reason(step)
        if reason is not None:
            raise reason
        self._apply(step)

    def _reason(self, step: Step) -> IllegalBuild | None:
        """Why ``step`` is refused now (the refusal, not raised), or None."""
        if not self.chosen:
            return IllegalBuild("choose your cards before placing them")
        card = step.card
        if step.source is Source.TEARDOWN:
            if not self.powers:
                return IllegalBuild(
                    "rebuilding from the teardown pile is a Great Powers (scrap) rule")
            if not self._trigger:
                return IllegalBuild("a card comes back from the teardown pile only right after "
                                    "a scrap card is added to the scrap tower")
            if card not in self.board.teardown:
                return IllegalBuild("{card} is not in your teardown pile", card=str(card))
        elif card not in self.hand:
            if card in self.take:
                return IllegalBuild("{card} is already placed", card=str(card))
            return IllegalBuild("{card} is not in your hand", card=str(card))
        tower = self.board.towers[card.type]
        t = card.type.value
        sand = self.powers and card.type is TowerType.SAND
        if step.end is End.BOTTOM:
            if not sand:
                return IllegalBuild("only the sand tower takes cards at the bottom "
                                    "(Great Powers)")
            if not tower:
                return IllegalBuild("{card} starts your sand tower: place it on top",
                                    card=str(card))
            if tower[-1] == TOWER_TOP:
                return IllegalBuild("your sand tower has a tower top: neither end takes cards")
            if self._sand_end == TOP_END:
                return IllegalBuild("this round you added to the top of the sand tower, "
                                    "so not the bottom")
            if not can_place_under(card.value, tower[0]):
                return under_refusal(t, card.value, tower[0])
            return None
        if not tower:
            return None
        if sand and self._sand_end == BOTTOM_END:
            return IllegalBuild("this round you added to the bottom of the sand tower, "
                                "so not the top")
        if not can_place(card.value, tower[-1]):
            return onto_refusal(t, card.value, tower[-1])
        return None

    def _apply(self, step: Step) -> None:
        self._history.append(_Snapshot(self.board.clone(), list(self.hand),
                                       self._trigger, self._sand_end))
        card = step.card
        if step.source is Source.TEARDOWN:
            self.board.teardown.remove(card)
        else:
            self.hand.remove(card)
        tower = self.board.towers[card.type]
        sand = self.powers and card.type is TowerType.SAND
        if step.end is End.BOTTOM:
            tower.insert(0, card.value)
            self._sand_end = BOTTOM_END
        else:
            if tower and sand:
                self._sand_end = TOP_END
            tower.append(card.value)
        self._trigger = self.powers and card.type is TowerType.SCRAP
        self.steps.append(step)

    def undo(self) -> bool:
        """Take back the last step, or the choice of cards; False if nothing to undo."""
        if self._history:
            snap = self._history.pop()
            self.board, self.hand = snap.board, snap.hand
            self._trigger, self._sand_end = snap.trigger, snap.sand_end
            self.steps.pop()
            return True
        if self.chosen:
            self._reset()
            return True
        return False

    # -- finishing ----------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.chosen and not self.hand

    @property
    def rebuild_pending(self) -> bool:
        """True right after a scrap card was added: one teardown card may come back."""
        return self._trigger

    def remaining_display(self) -> list[Card]:
        return multiset_minus(self.display, self.take) or []

    def finish(self, seat: int) -> Build:
        if not self.chosen:
            raise IllegalBuild("choose your cards first")
        if self.hand:
            raise IllegalBuild("{cards} taken but not placed: every taken card must be built",
                               cards=", ".join(map(str, self.hand)))
        return Build(seat, tuple(self.take), tuple(self.steps), self.pay, self.teardown)
