"""A game of GoTown: the whole, true state and its turn (RULES.md C2–C4).

Front ends submit plays with :meth:`Game.apply`; :meth:`Game.check` is the
one validator, which refuses a play with the reason in a player's words
(an :class:`IllegalPlay`) and changes nothing. Everything automatic — the
draws, a milkshake turn, the donut truck's extra turn, reshuffles, the turn
limit — happens inside the game and is not an action.

Random outcomes come from generators seeded by ``seed`` and by where in the
game they happen (the k-th reshuffle, the n-th action), so a copy, a replay
or a game resumed from its record draws the same; and every outcome is
written into the record (:attr:`Game.reshuffles`, a thief's ``took``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterator, Sequence

from fivetowers.games.protocol import Result, Term

from fivetowers.games.gotown.rules.actions import (
    Action, Bone, Build, Dog, DonutTruck, End, Jackhammer, Milkshake, Steal, SuperThief,
    Thief, WreckingBall, action_json,
)
from fivetowers.games.gotown.rules.cards import (
    COUNTS, FLOOR_SUM, Card, Floor, Piece, cards_seen, counter_of, full_deck,
)
from fivetowers.games.gotown.rules.errors import (
    FormatError, GameOver, IllegalPlay, MalformedAction, NotYourTurn, shown,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 4
HAND_SIZE = 5
"""Cards dealt to each player."""
NO_DRAW_AT = 8
"""A player holding this many cards draws none at the start of a turn."""
REFILL_TO = 3
"""A player ends a turn holding at least this many cards, if the piles allow."""
TURNS_PER_PLAYER = 100
"""The termination ruling: the game ends when 100 × players turns have ended."""


@dataclass(slots=True)
class Player:
    """One seat: a secret hand, a public tower with its dogs, milkshakes before it."""

    name: str
    hand: Counter[Card] = field(default_factory=Counter)
    floors: list[Floor] = field(default_factory=list)
    dogs: set[int] = field(default_factory=set)
    milkshakes: int = 0

    @property
    def hand_size(self) -> int:
        return sum(self.hand.values())  # Counter.total(), a call less (asked at every play)

    def hand_cards(self) -> list[Card]:
        """The hand in canonical card order (a multiset has no other)."""
        return sorted(self.hand.elements(), key=_CARD_ORDER.__getitem__)

    def top_has_dog(self) -> bool:
        return len(self.floors) - 1 in self.dogs

    def copy(self) -> Player:
        return Player(self.name, counter_of(self.hand), list(self.floors), set(self.dogs),
                      self.milkshakes)


_CARD_ORDER = {c: i for i, c in enumerate(COUNTS)}


def check_deck(cards: Sequence[Card], what: str = "the deck") -> None:
    """Refuse a deck that is not exactly GoTown's 54 cards."""
    want, got = Counter(full_deck()), Counter(cards)
    if want != got:
        missing = sorted((want - got).elements(), key=_CARD_ORDER.__getitem__)
        extra = sorted((got - want).elements(), key=_CARD_ORDER.__getitem__)
        parts = []
        if missing:
            parts.append("missing " + ", ".join(map(str, missing[:5])))
        if extra:
            parts.append("too many " + ", ".join(map(str, extra[:5])))
        raise FormatError(f"{what} is not GoTown's 54 cards ({len(cards)} given): "
                          + "; ".join(parts))


class Game:
    """A game of GoTown from the deal to its winner.

    ``deck`` (all 54 cards, dealt from the front) defaults to the canonical
    deck shuffled with ``random.Random(seed)``; ``reshuffles`` are the new
    draw piles to use, in order, when the draw pile runs empty (beyond them,
    the discard pile is shuffled with the seed; a game with no seed then
    raises :class:`FormatError`).
    """

    def __init__(self, names: Sequence[str], floors_to_win: int = 5,
                 deck: Sequence[Card] | None = None, seed: int | None = None,
                 reshuffles: Sequence[Sequence[Card]] = ()) -> None:
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise FormatError(f"GoTown is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                              f"not {len(names)}")
        if floors_to_win not in (4, 5):
            raise FormatError(f"floors_to_win is 5, or 4 for the short game, not {floors_to_win}")
        self.floors_to_win = floors_to_win
        self.seed = seed
        if deck is None:
            if seed is None:
                raise FormatError('a GoTown game needs a "deck" or a "seed" to shuffle one')
            deck = full_deck()
            random.Random(seed).shuffle(deck)
        else:
            check_deck(deck)
        self.initial_deck: list[Card] = list(deck)
        self.planned_reshuffles = [list(r) for r in reshuffles]
        self.reshuffles: list[list[Card]] = []
        """Every new draw pile formed so far, first card first (for the record)."""
        self.players = [Player(n) for n in names]
        self.draw = list(deck)
        self.discard: list[Card] = []
        self.truck_on_table = False
        self.actions: list[Action] = []
        self.turn = 0
        self.turns_ended = 0
        self.to_move: int | None = 0
        self.over = False
        self.winners: tuple[int, ...] = ()
        for player in self.players:
            player.hand.update(self.draw[:HAND_SIZE])
            del self.draw[:HAND_SIZE]
        self._begin_turn(0)

    # -- queries -----------------------------------------------------------
    @property
    def player_count(self) -> int:
        return len(self.players)

    @property
    def turn_limit(self) -> int:
        return TURNS_PER_PLAYER * self.player_count

    def is_terminal(self) -> bool:
        return self.over

    def name(self, seat: int) -> str:
        return self.players[seat].name

    def opponents(self, seat: int) -> list[int]:
        return [s for s in range(self.player_count) if s != seat]

    # -- the one validator -------------------------------------------------
    def check(self, action: Action, recorded: bool = False) -> None:
        """Raise an :class:`IllegalPlay` saying why ``action`` is refused now;
        return if it is allowed. Never changes the game.

        A thief's card is drawn by the game: only a ``recorded`` play (a
        replay) may name it, so a player cannot pick the card they want."""
        if type(action) not in _PLAYS:
            raise MalformedAction(f"{shown(action)} is not a GoTown play")
        if self.over:
            raise GameOver("the game is over")
        if not 0 <= action.seat < self.player_count:
            raise NotYourTurn("there is no seat {seat} at this table", seat=action.seat)
        if action.seat != self.to_move:
            assert self.to_move is not None
            raise NotYourTurn("it is {player}'s turn, not {other}'s",
                              player=self.name(self.to_move), other=self.name(action.seat))
        me = self.players[action.seat]
        if isinstance(action, End):
            return
        if isinstance(action, Build):
            self._check_build(me, action.cards)
            return
        if isinstance(action, Steal):
            self._check_steal(me, action)
            return
        card = _CARD_OF[type(action)]
        if me.hand[card] < 1:
            raise IllegalPlay("{player} holds no {card}", player=me.name, card=Term(card.value))
        if isinstance(action, (Thief, SuperThief)) and action.took is not None \
                and not recorded and action.took != self._would_take(action):
            # A kept game's thief, replayed play by play (a restart, a replay
            # viewer), names the card the game drew; a player may name no other.
            raise IllegalPlay("the card {card} takes is drawn at random: play it without "
                              "naming the card", card=Term(card.words))
        if isinstance(action, Dog):
            if not 0 <= action.floor < len(me.floors):
                if me.floors:
                    raise IllegalPlay("{player}'s tower has no floor {floor}: a dog guards a "
                                      "floor of your own tower (0 to {top})", player=me.name,
                                      floor=action.floor, top=len(me.floors) - 1)
                raise IllegalPlay("{player}'s tower has no floor {floor}: a dog guards a "
                                  "floor of your own tower", player=me.name, floor=action.floor)
            if action.floor in me.dogs:
                raise IllegalPlay("floor {floor} of {player}'s tower already has a dog: one "
                                  "dog per floor", floor=action.floor, player=me.name)
        elif isinstance(action, Bone):
            them = self._opponent(action.seat, action.target, Card.BONE)
            if not 0 <= action.floor < len(them.floors):
                raise IllegalPlay("{player}'s tower has no floor {floor}", player=them.name,
                                  floor=action.floor)
            if action.floor not in them.dogs:
                raise IllegalPlay("floor {floor} of {player}'s tower has no dog for a bone to "
                                  "lure away", floor=action.floor, player=them.name)
        elif isinstance(action, (Jackhammer, WreckingBall)):
            tool = Card.JACKHAMMER if isinstance(action, Jackhammer) else Card.WRECKING_BALL
            them = self._opponent(action.seat, action.target, tool)
            if not them.floors:
                raise IllegalPlay("{player}'s tower has no floor for {card} to hit",
                                  player=them.name, card=Term(tool.words))
            if isinstance(action, Jackhammer) and them.top_has_dog():
                raise IllegalPlay("the top floor of {player}'s tower has a dog: a jackhammer "
                                  "cannot touch it", player=them.name)
        elif isinstance(action, Milkshake):
            self._opponent(action.seat, action.target, Card.MILKSHAKE)
        elif isinstance(action, Thief):
            them = self._opponent(action.seat, action.target, Card.THIEF)
            if them.hand_size == 0:
                raise IllegalPlay("{player} holds no card for a thief to take", player=them.name)
            if action.took is not None and them.hand[action.took] < 1:
                raise IllegalPlay("{player} holds no {card} for the thief to take",
                                  player=them.name, card=Term(action.took.value))
        elif isinstance(action, SuperThief) and action.took is not None:
            holders = {s for s in self.opponents(action.seat) if self.players[s].hand_size}
            named = [s for s, _ in action.took]
            if len(set(named)) != len(named) or set(named) != holders:
                if not holders:
                    raise IllegalPlay("a super thief takes one card from each opponent that "
                                      "holds one: nobody does")
                raise IllegalPlay("a super thief takes one card from each opponent that "
                                  "holds one: {players}",
                                  players=", ".join(self.name(s) for s in sorted(holders)))
            for s, took in action.took:
                if self.players[s].hand[took] < 1:
                    raise IllegalPlay("{player} holds no {card} for the super thief to take",
                                      player=self.name(s), card=Term(took.value))

    def _check_build(self, me: Player, cards: tuple[Card, Card]) -> None:
        a, b = cards
        for card in cards:
            if not card.builds:
                raise IllegalPlay("{card} is not a floor card: floors are built from 1 to 8 "
                                  "and wilds", card=Term(card.words))
        if Counter(cards) - me.hand:
            raise IllegalPlay("{player} does not hold {card} and {other}", player=me.name,
                              card=Term(a.value), other=Term(b.value))
        if a is Card.WILD and b is Card.WILD:
            raise IllegalPlay("two wilds never make a floor: a wild pairs with a 1 to 8")
        if a.number is not None and b.number is not None and a.number + b.number != FLOOR_SUM:
            raise IllegalPlay("{card} and {other} make {sum}, not {floor}: a floor is 1+8, "
                              "2+7, 3+6 or 4+5", card=str(a), other=str(b),
                              sum=a.number + b.number, floor=FLOOR_SUM)

    def _check_steal(self, me: Player, action: Steal) -> None:
        card = action.card
        if card is Card.WILD:
            raise IllegalPlay("a wild cannot steal: steal with a 1 to 8 from your hand")
        if card.number is None:
            raise IllegalPlay("{card} cannot steal: steal with a 1 to 8 from your hand",
                              card=Term(card.words))
        if me.hand[card] < 1:
            raise IllegalPlay("{player} holds no {card}", player=me.name, card=Term(card.value))
        them = self._opponent(action.seat, action.target, None)
        if not them.floors:
            raise IllegalPlay("{player}'s tower has no floor to steal from", player=them.name)
        if them.top_has_dog():
            raise IllegalPlay("the top floor of {player}'s tower has a dog: it cannot be "
                              "stolen from", player=them.name)
        if _match(them.floors[-1], card.number) is None:
            raise IllegalPlay("the top floor of {player}'s tower, {floor}, has no {number} to "
                              "go with {card}", player=them.name, floor=str(them.floors[-1]),
                              number=FLOOR_SUM - card.number, card=Term(card.words))

    def _opponent(self, seat: int, target: int, card: Card | None) -> Player:
        """The opponent ``card`` (None: a steal) is played against."""
        if not 0 <= target < self.player_count:
            raise IllegalPlay("there is no seat {seat} at this table", seat=target)
        if target == seat:
            if card is None:
                raise IllegalPlay("a steal is played against an opponent, not yourself")
            raise IllegalPlay("{card} is played against an opponent, not yourself",
                              card=Term(card.words))
        return self.players[target]

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalPlay:
            return False
        return True

    # -- what is legal now (for a UI and the bots) ---------------------------
    def candidates(self) -> Iterator[Action]:
        """Every play worth asking :meth:`check` about, for the player to move
        (thieves with ``took`` left to the game's draw)."""
        if self.over or self.to_move is None:
            return
        seat = self.to_move
        me = self.players[seat]
        others = self.opponents(seat)
        held = [c for c in COUNTS if me.hand[c]]
        numbers = {c.number: c for c in held if c.number is not None}
        # only pairs that could make 9 are asked about (the validator still judges)
        for value, card in numbers.items():
            if value < FLOOR_SUM - value and FLOOR_SUM - value in numbers:
                yield Build(seat, (card, numbers[FLOOR_SUM - value]))
            if me.hand[Card.WILD]:
                yield Build(seat, (card, Card.WILD))
        for s in others:
            tower = self.players[s].floors
            tops = {FLOOR_SUM - p.value for p in tower[-1].pieces} if tower else set()
            for value in sorted(tops & numbers.keys()):
                yield Steal(seat, numbers[value], s)
        for card in held:
            if card is Card.DOG:
                yield from (Dog(seat, f) for f in range(len(me.floors)))
            elif card is Card.BONE:
                yield from (Bone(seat, s, f) for s in others for f in sorted(self.players[s].dogs))
            elif card is Card.JACKHAMMER:
                yield from (Jackhammer(seat, s) for s in others)
            elif card is Card.WRECKING_BALL:
                yield from (WreckingBall(seat, s) for s in others)
            elif card is Card.MILKSHAKE:
                yield from (Milkshake(seat, s) for s in others)
            elif card is Card.THIEF:
                yield from (Thief(seat, s) for s in others)
            elif card is Card.SUPER_THIEF:
                yield SuperThief(seat)
            elif card is Card.DONUT_TRUCK:
                yield DonutTruck(seat)
        yield End(seat)

    def legal_actions(self) -> list[Action]:
        """Every play the player to move may make now, ending the turn last."""
        return [a for a in self.candidates() if self.is_legal(a)]

    def builds_with(self, card: Card) -> list[Card]:
        """The cards in the mover's hand that build a floor with ``card``."""
        seat = self.to_move
        if seat is None:
            return []
        return [other for other in COUNTS if self.is_legal(Build(seat, (card, other)))]

    def steal_targets(self, card: Card) -> list[int]:
        """The seats whose top floor the mover can steal from with ``card``."""
        return [a.target for a in self.legal_actions()
                if isinstance(a, Steal) and a.card is card]

    def dog_floors(self) -> list[int]:
        """The floors of the mover's tower a dog may guard."""
        return [a.floor for a in self.legal_actions() if isinstance(a, Dog)]

    def bone_targets(self) -> list[tuple[int, int]]:
        """(seat, floor) of every dog the mover's bone can reach."""
        return [(a.target, a.floor) for a in self.legal_actions() if isinstance(a, Bone)]

    def targets(self, card: Card) -> list[int]:
        """The seats a jackhammer, wrecking ball, milkshake or thief can be
        played against now (empty if the mover holds no such card)."""
        return [a.target for a in self.legal_actions()
                if isinstance(a, (Jackhammer, WreckingBall, Milkshake, Thief))
                and _CARD_OF[type(a)] is card]

    # -- carrying out ------------------------------------------------------
    def apply(self, action: Action, recorded: bool = False) -> None:
        """Carry out ``action`` or raise an :class:`IllegalPlay` and change nothing.

        ``recorded``: the play comes from a record, and a thief's ``took`` is
        the card that came out when it was played (see :meth:`check`)."""
        self.check(action, recorded)
        self.apply_trusted(action)

    def apply_trusted(self, action: Action) -> None:
        """Carry out ``action`` without asking :meth:`check`: for a play
        already checked (:meth:`apply` checks every real play, then comes
        here) or a search's imagined play, made by a policy that plays
        legally only (the strong bot's playouts, on their own copies of a
        game)."""
        # the plays' classes are final (rules/actions.py): ``type() is`` is
        # isinstance's answer without its call (a playout makes tens of thousands)
        seat = action.seat
        me = self.players[seat]
        if type(action) is End:
            self.actions.append(action)
            self._end_turn(seat)
            return
        if type(action) is Build:
            a, b = action.cards
            self._play(me, a)
            self._play(me, b)
            me.floors.append(_build_floor(a, b))
        elif type(action) is Steal:
            card = action.card
            self._play(me, card)
            top = self.players[action.target].floors.pop()
            number = card.number
            assert number is not None
            stolen = top.left if top.left.value + number == FLOOR_SUM else top.right
            self.discard.append((top.right if stolen is top.left else top.left).card)
            me.floors.append(_stolen_floor(number, stolen))
        else:
            action = self._carry_out_action_card(me, action)
        self.actions.append(action)
        if len(me.floors) >= self.floors_to_win:
            self._finish((seat,))

    def _carry_out_action_card(self, me: Player, action: Action) -> Action:
        """Play an action card; returns the action as recorded (a thief's draw)."""
        # ``type(action) is``, as in apply_trusted (the classes are final),
        # and not a name for type(action): mypy narrows ``action`` only so
        card = _CARD_OF[type(action)]
        self._play(me, card)
        if type(action) is Dog:
            me.dogs.add(action.floor)
            return action  # the dog stays on the table until its floor goes
        if type(action) is Milkshake:
            self.players[action.target].milkshakes += 1
            return action  # drunk (discarded) on that player's next turn
        if type(action) is DonutTruck:
            self.truck_on_table = True
            return action  # discarded at the end of this turn
        self.discard.append(card)
        if type(action) is Bone:
            self.players[action.target].dogs.discard(action.floor)
            self.discard.append(Card.DOG)
        elif type(action) is Jackhammer or type(action) is WreckingBall:
            them = self.players[action.target]
            top = them.floors.pop()
            self.discard.extend(top.cards())
            if len(them.floors) in them.dogs:  # a wrecking ball's only
                them.dogs.discard(len(them.floors))
                self.discard.append(Card.DOG)
        elif type(action) is Thief:
            took = action.took or self._pick(action.target, 0)
            self._take(me, action.target, took)
            return Thief(action.seat, action.target, took)
        elif type(action) is SuperThief:
            picks = action.took
            if picks is None:
                picks = tuple((s, self._pick(s, s)) for s in self.opponents(action.seat)
                              if self.players[s].hand_size)
            for s, took in picks:
                self._take(me, s, took)
            return SuperThief(action.seat, picks)
        return action

    def _play(self, me: Player, card: Card) -> None:
        hand = me.hand
        left = hand[card] - 1
        if left:
            hand[card] = left
        else:
            hand.pop(card)  # dict's, in C: Counter's del runs Python

    def _would_take(self, action: Thief | SuperThief) -> object:
        """What the game would draw for ``action`` now (None: nothing to draw)."""
        if isinstance(action, Thief):
            target = action.target
            if target == action.seat or not 0 <= target < self.player_count \
                    or not self.players[target].hand_size:
                return None
            return self._pick(target, 0)
        return tuple((s, self._pick(s, s)) for s in self.opponents(action.seat)
                     if self.players[s].hand_size)

    def _take(self, me: Player, seat: int, card: Card) -> None:
        self._play(self.players[seat], card)
        me.hand[card] += 1

    def _pick(self, seat: int, salt: int) -> Card:
        """A card drawn at random from ``seat``'s hand, by the seed and the moment."""
        rng = random.Random(f"gotown-thief:{self.seed}:{len(self.actions)}:{salt}")
        return rng.choice(self.players[seat].hand_cards())

    # -- the turn ----------------------------------------------------------
    def _begin_turn(self, seat: int) -> None:
        """Turns begin here until one waits for its player (C3.1–2)."""
        while True:
            self.turn += 1
            me = self.players[seat]
            if not me.milkshakes:
                if sum(me.hand.values()) < NO_DRAW_AT:  # hand_size, calls fewer
                    self._draw(me, 1)
                self.to_move = seat
                return
            me.milkshakes -= 1  # the milkshake turn: drink, and that is all
            self.discard.append(Card.MILKSHAKE)
            self.turns_ended += 1
            if self._turn_limit_reached():
                return
            seat = (seat + 1) % len(self.players)

    def _end_turn(self, seat: int) -> None:
        me = self.players[seat]
        size = sum(me.hand.values())
        if size < REFILL_TO:
            self._draw(me, REFILL_TO - size)
        again = self.truck_on_table
        if again:
            self.truck_on_table = False
            self.discard.append(Card.DONUT_TRUCK)
        self.turns_ended += 1
        players = len(self.players)
        # the limit's check inline: a playout ends thousands of turns
        if self.turns_ended >= TURNS_PER_PLAYER * players and self._turn_limit_reached():
            return
        self._begin_turn(seat if again else (seat + 1) % players)

    def _turn_limit_reached(self) -> bool:
        """The termination ruling: the tallest towers share the win."""
        if self.turns_ended < self.turn_limit:
            return False
        tallest = max(len(p.floors) for p in self.players)
        self._finish(tuple(s for s, p in enumerate(self.players) if len(p.floors) == tallest))
        return True

    def _finish(self, winners: tuple[int, ...]) -> None:
        self.over, self.to_move, self.winners = True, None, winners

    def _draw(self, me: Player, count: int) -> None:
        hand = me.hand
        for _ in range(count):
            if not self.draw:
                if not self.discard:
                    return  # both piles empty: no more cards for this draw
                self._reshuffle()
            card = self.draw.pop(0)
            if card in hand:  # Counter's += on a card not held runs __missing__
                hand[card] += 1
            else:
                hand[card] = 1

    def _reshuffle(self) -> None:
        k = len(self.reshuffles)
        if k < len(self.planned_reshuffles):
            new = list(self.planned_reshuffles[k])
            if Counter(new) != Counter(self.discard):
                raise FormatError(f"reshuffle {k} is not a permutation of the discard pile "
                                  f"({len(self.discard)} cards) when the draw pile ran out")
        elif self.seed is None:
            raise FormatError(f"the record has no reshuffle {k} and no seed to shuffle the "
                              "discard pile with when the draw pile ran out")
        else:
            new = sorted(self.discard, key=_CARD_ORDER.__getitem__)
            random.Random(f"gotown-reshuffle:{self.seed}:{k}").shuffle(new)
        self.reshuffles.append(list(new))
        self.draw, self.discard = new, []

    # -- the platform's protocol (fivetowers.games.protocol.Match) -----------
    def result(self) -> Result | None:
        """Floors per seat as the score, and the winners, once the game is over."""
        if not self.over:
            return None
        return Result(tuple(len(p.floors) for p in self.players), self.winners)

    def progress(self) -> str:
        return f"turn {self.turn + 1}"

    def action_count(self) -> int:
        return len(self.actions)

    def action_json(self, index: int) -> dict[str, Any]:
        return action_json(self.actions[index])

    def setup_json(self) -> dict[str, Any]:
        """The record without players and actions: it replays this game exactly."""
        from fivetowers.games.gotown.rules.record import RECORD_FORMAT  # it imports us
        setup: dict[str, Any] = {"format": RECORD_FORMAT, "floors_to_win": self.floors_to_win}
        if self.seed is not None:
            setup["seed"] = self.seed
        setup["deck"] = [str(c) for c in self.initial_deck]
        setup["reshuffles"] = [[str(c) for c in r] for r in self.reshuffles]
        return setup

    def record_json(self) -> dict[str, Any]:
        setup = self.setup_json()
        return {"format": setup.pop("format"), "players": [p.name for p in self.players],
                **setup, "actions": [action_json(a) for a in self.actions]}

    def view(self, seat: int | None) -> Any:
        from fivetowers.games.gotown.rules.view import view_of  # it imports us
        return view_of(self, seat)

    def clone(self) -> Game:
        """An independent copy for search and simulation."""
        new = Game.__new__(Game)
        new.__dict__.update(self.__dict__)
        new.players = [p.copy() for p in self.players]
        new.draw, new.discard, new.actions = list(self.draw), list(self.discard), list(self.actions)
        # a new draw pile is appended to reshuffles and never changed after
        new.reshuffles = list(self.reshuffles)
        return new

    # -- invariants (tests and debugging) -----------------------------------
    def card_places(self) -> Counter[Card]:
        """Every card wherever it is, as a plain card: always the full deck."""
        where = cards_seen(self.players, self.discard, self.truck_on_table)
        where.update(self.draw)
        for p in self.players:
            where.update(p.hand)
        return where


_PLAYS = (Build, Steal, Dog, Bone, Jackhammer, WreckingBall, Milkshake, DonutTruck, Thief,
          SuperThief, End)

_CARD_OF: dict[type, Card] = {
    Dog: Card.DOG, Bone: Card.BONE, Jackhammer: Card.JACKHAMMER,
    WreckingBall: Card.WRECKING_BALL, Milkshake: Card.MILKSHAKE, DonutTruck: Card.DONUT_TRUCK,
    Thief: Card.THIEF, SuperThief: Card.SUPER_THIEF,
}


def _match(floor: Floor, number: int) -> Piece | None:
    """The card of ``floor`` that makes 9 with ``number`` (a wild keeps its value)."""
    for piece in floor.pieces:
        if piece.value + number == FLOOR_SUM:
            return piece
    return None


@lru_cache(maxsize=None)
def _stolen_floor(number: int, stolen: Piece) -> Floor:
    """The floor a steal makes: the card played, then the piece it took
    (made once, as :func:`_build_floor`'s)."""
    return Floor(Piece(number), stolen)


@lru_cache(maxsize=None)
def _build_floor(a: Card, b: Card) -> Floor:
    """The floor two cards make, in the order given; a wild takes 9 − the other
    (made once: floors are values, and the bots' playouts build thousands)."""
    if a is Card.WILD:
        assert b.number is not None
        return Floor(Piece(FLOOR_SUM - b.number, wild=True), Piece(b.number))
    assert a.number is not None
    if b is Card.WILD:
        return Floor(Piece(a.number), Piece(FLOOR_SUM - a.number, wild=True))
    assert b.number is not None
    return Floor(Piece(a.number), Piece(b.number))


__all__ = ["Game", "Player", "check_deck"]
