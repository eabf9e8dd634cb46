"""The game state machine (RULES.md A3–A5, Part B).

``Game`` holds the whole, true state. Front ends submit actions with
:meth:`Game.apply`; a refused action raises an :class:`IllegalAction`
subclass and changes nothing. Automatic passes (a player with no legal
raise) are applied by the engine and are not actions.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from fivetowers.games.protocol import Result

from fivetowers.games.five_towers.rules.actions import Action, Bid, Build, Pass
from fivetowers.games.five_towers.rules.board import Board
from fivetowers.games.five_towers.rules.building import BuildSession
from fivetowers.games.five_towers.rules.cards import TYPES, Card, full_deck
from fivetowers.games.five_towers.rules.errors import (
    FormatError, GameOver, HiddenCardsMismatch, IllegalBid, IllegalBuild, NotYourTurn,
)
from fivetowers.games.five_towers.rules.players import players_problem
from fivetowers.games.five_towers.rules.scoring import Score
from fivetowers.games.five_towers.rules.search import max_bid, pairs_of
from fivetowers.games.five_towers.rules.variant import Variant
from fivetowers.games.five_towers.rules.view import PlayerView, view_of

DISPLAY_SIZE = 5


class Phase(enum.Enum):
    BID = "bid"
    BUILD = "build"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class BidEvent:
    """One player's turn in the bidding; ``amount`` None is a pass."""

    seat: int
    amount: int | None
    auto: bool = False


@dataclass(frozen=True, slots=True)
class LogEntry:
    """Something that happened, for a game log: structured, plus plain words."""

    round: int
    kind: str  # reveal, bid, pass, auto-pass, build, no-build, reshuffle, end
    seat: int | None
    text: str
    after: int = 0
    """How many actions had been applied when it happened: the entries of
    action ``k`` (and what followed from it) have ``after == k``, so a host
    can place a chat line, or mark a stand-in bot's move, among them."""
    details: tuple[tuple[str, object], ...] = ()
    """What ``text`` says as data (names, amounts, cards, the build), so a
    screen can say it again in its viewer's language; ``text`` is English."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game (or the standings now): every score and the winners."""

    scores: tuple[Score, ...]
    winners: tuple[int, ...]


@dataclass
class Player:
    name: str
    board: Board = field(default_factory=Board)


def check_card_set(cards: Sequence[Card], player_count: int, what: str) -> None:
    """Refuse a deck that is not exactly the card set for the player count."""
    want, got = Counter(full_deck(player_count)), Counter(cards)
    if want != got:
        missing = sorted((want - got).elements())
        extra = sorted((got - want).elements())
        parts = []
        if missing:
            parts.append("missing " + ", ".join(map(str, missing[:5])))
        if extra:
            parts.append("not expected " + ", ".join(map(str, extra[:5])))
        raise FormatError(f"{what} is not the {player_count}-player card set: "
                          + "; ".join(parts))


class Game:
    """A game of 5 Towers from its first reveal to its scoring.

    With no ``deck``, the card set in canonical order is shuffled with
    ``random.Random(seed)``; with no ``reshuffle``, the discard pile is
    shuffled with ``random.Random(f"reshuffle:{seed}")`` (when ``replaying`` a
    record, a reshuffle with neither is a :class:`FormatError`). Records written by
    :meth:`Record.from_game` always carry the deck and the reshuffle once it
    has happened, so other tools never depend on Python's generator.
    """

    _replaying = False  # also for games made by from_view

    def __init__(self, names: Sequence[str], variant: Variant = Variant.BASE,
                 deck: Sequence[Card] | None = None, seed: int | None = None,
                 reshuffle: Sequence[Card] | None = None, replaying: bool = False) -> None:
        problem = players_problem(len(names))
        if problem is not None:
            raise FormatError(problem)
        self.variant = variant
        self.powers = variant.powers
        self.seed = seed
        # The reshuffle has a generator of its own, so a game rebuilt from its
        # record (deck + seed) reshuffles exactly as the original would have.
        self._rng = random.Random(f"reshuffle:{seed}" if seed is not None else None)
        if deck is None:
            deck = full_deck(len(names))
            random.Random(seed).shuffle(deck)
        else:
            check_card_set(deck, len(names), "the deck")
        self.initial_deck: list[Card] = list(deck)
        self.planned_reshuffle = list(reshuffle) if reshuffle is not None else None
        # A replayed record must say how the discard pile was shuffled.
        self._replaying = replaying
        self.reshuffle: list[Card] | None = None  # the reshuffle that happened
        self.players = [Player(n) for n in names]
        self.draw = list(deck)
        self.display: list[Card] = []
        self.discard: list[Card] = []
        self.round = 0
        self.starter = 0
        self.runouts = 0
        self.actions: list[Action] = []
        self.log: list[LogEntry] = []
        self.phase = Phase.BID
        self.to_move: int | None = 0
        self.bids: list[BidEvent] = []
        self.high_bid: int | None = None
        self.high_seat: int | None = None
        self._waiting: list[int] = []
        self._max_bids: dict[int, int] = {}
        self._start_round()

    @classmethod
    def from_view(cls, view: PlayerView, piles: Sequence[Sequence[Card]],
                  draw: Sequence[Card], reshuffle_seed: int, check_cards: bool = True) -> Game:
        """A whole game of which ``view`` is a view (its log aside), the hidden
        cards placed as given: ``piles[s]`` is seat ``s``'s teardown pile (the
        viewer's own must be the one the view shows), ``draw`` the draw deck
        from the top. A reshuffle still to come shuffles with
        ``random.Random(reshuffle_seed)``.

        This is how a bot imagines one possible true state (determinisation).
        The game starts in the round in play: it has no actions and no log,
        and no record (its deck and any past reshuffle are not known). Raises
        :class:`HiddenCardsMismatch` when the cards are not exactly the ones
        the view hides, or the game is over. A caller that dealt the cards
        from ``view.unseen()`` itself may pass ``check_cards=False``: the
        counts are still checked, the cards themselves not (that check costs
        as much as the deal, and a bot deals thousands of worlds a move).
        """
        if view.phase is Phase.OVER:
            raise HiddenCardsMismatch("the game is over: there is no round to play on from")
        _check_hidden(view, piles, draw, check_cards)
        n = len(view.seats)
        game = cls.__new__(cls)
        game.variant, game.powers, game.seed = view.variant, view.variant.powers, None
        game._rng = random.Random(reshuffle_seed)
        game.initial_deck, game.planned_reshuffle = [], None
        # In the second pass the reshuffle happened, in an order the view does not show.
        game.reshuffle = None if view.pass_number == 1 else []
        game.players = [
            Player(seat.name, Board({t: list(seat.towers[t]) for t in TYPES}, list(piles[s])))
            for s, seat in enumerate(view.seats)]
        game.draw, game.display, game.discard = list(draw), list(view.display), list(view.discard)
        game.round, game.starter, game.runouts = view.round, view.starter, view.runouts
        game.actions, game.log = [], []
        game.phase, game.to_move = view.phase, view.to_move
        game.bids = list(view.bids)
        game.high_bid, game.high_seat = view.high_bid, view.high_seat
        game._max_bids = {}
        game._waiting = []
        if view.phase is Phase.BID and view.high_bid is not None and view.to_move is not None:
            # After the starter's bid, each later seat up to the starter gets one turn.
            left = (view.starter - view.to_move) % n
            game._waiting = [(view.to_move + i) % n for i in range(left)]
        return game

    # -- queries -----------------------------------------------------------
    @property
    def player_count(self) -> int:
        return len(self.players)

    @property
    def waiting(self) -> tuple[int, ...]:
        """The seats still to answer the starter's bid, the one to move first
        (empty before the starter has bid and outside the bidding)."""
        return tuple(self._waiting)

    @property
    def runout_round(self) -> bool:
        """True in a round whose reveal emptied the draw deck: after it the
        discard pile is reshuffled (the first time) or the game ends (the second).

        Nothing but a round's reveal takes from the deck, so during a round an
        empty deck is exactly that (and nothing needs remembering)."""
        return not self.draw

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def max_bid(self, seat: int) -> int:
        """The highest bid ``seat`` could carry out with this display."""
        got = self._max_bids.get(seat)
        if got is None:
            board = self.players[seat].board
            got = max_bid(board.towers_key(), board.pile_key(), pairs_of(self.display),
                          self.powers)
            self._max_bids[seat] = got
        return got

    def legal_bids(self) -> list[int]:
        """The bids the player to move may make now (empty outside bidding)."""
        if self.phase is not Phase.BID or self.to_move is None:
            return []
        low = 0 if self.high_bid is None else self.high_bid + 1
        return list(range(low, self.max_bid(self.to_move) + 1))

    def may_pass(self) -> bool:
        return self.phase is Phase.BID and self.high_bid is not None

    def legal_actions(self) -> list[Action]:
        """Every bid and pass open now; in the build phase, use :meth:`build_session`."""
        if self.phase is not Phase.BID or self.to_move is None:
            return []
        seat = self.to_move
        out: list[Action] = [Bid(seat, b) for b in self.legal_bids()]
        if self.may_pass():
            out.append(Pass(seat))
        return out

    def build_session(self) -> BuildSession:
        """A fresh building session for the bid winner, to guide a build step by step."""
        if self.phase is not Phase.BUILD or self.high_seat is None or self.high_bid is None:
            raise NotYourTurn("nobody is building now")
        return BuildSession(self.players[self.high_seat].board, self.display,
                            self.powers, self.high_bid)

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see (None: a spectator)."""
        return view_of(self, seat)

    def score(self, seat: int) -> Score:
        return self.players[seat].board.score(self.powers)

    def outcome(self) -> Outcome:
        """Scores and winners: final when terminal, else as if the game ended now."""
        scores = tuple(self.score(s) for s in range(self.player_count))
        best = max(s.total for s in scores)
        return Outcome(scores, tuple(i for i, s in enumerate(scores) if s.total == best))

    def returns(self) -> list[float]:
        """1.0 for each winner (ties share the victory), 0.0 for the others."""
        winners = self.outcome().winners
        return [1.0 if s in winners else 0.0 for s in range(self.player_count)]

    @property
    def pass_number(self) -> int:
        """1 while the first draw deck lasts, 2 after the reshuffle."""
        return 1 if self.reshuffle is None else 2

    @property
    def final_round(self) -> bool:
        """True in the round that ends the game (the second run-out)."""
        return self.runouts >= 2 and self.phase is not Phase.OVER

    # -- actions -----------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Carry out ``action`` or raise an :class:`IllegalAction` and change nothing."""
        if self.phase is Phase.OVER:
            raise GameOver("the game is over")
        if action.seat != self.to_move:
            raise self._whose_turn(action.seat)
        if isinstance(action, Build):
            self._apply_build(action)
        elif self.phase is not Phase.BID:
            raise NotYourTurn("{player} must build now, not bid",
                              player=self.players[action.seat].name)
        elif isinstance(action, Bid):
            self._apply_bid(action)
        else:
            self._apply_pass(action)
        self.actions.append(action)

    def _whose_turn(self, seat: int) -> NotYourTurn:
        if not 0 <= seat < self.player_count:
            return NotYourTurn("there is no seat {seat} at this table", seat=seat)
        assert self.to_move is not None
        player = self.players[self.to_move].name
        if self.phase is Phase.BID:
            return NotYourTurn("it is {player}'s turn to bid", player=player)
        return NotYourTurn("it is {player}'s turn to build", player=player)

    def _apply_bid(self, bid: Bid) -> None:
        low = 0 if self.high_bid is None else self.high_bid + 1
        if bid.amount < low:
            raise IllegalBid("a bid must raise the current bid of {bid}", bid=self.high_bid)
        top = self.max_bid(bid.seat)
        if bid.amount > top:
            raise IllegalBid("bid not buildable: {player} can build at most {top} of these "
                             "cards, so cannot bid {bid}", player=self.players[bid.seat].name,
                             top=top, bid=bid.amount)
        self.high_bid, self.high_seat = bid.amount, bid.seat
        self.bids.append(BidEvent(bid.seat, bid.amount))
        self._log("bid", bid.seat, f"{self.players[bid.seat].name}: bid {bid.amount}",
                  name=self.players[bid.seat].name, amount=bid.amount)
        if bid.seat == self.starter:
            n = self.player_count
            self._waiting = [(self.starter + i) % n for i in range(1, n)]
        else:
            self._waiting.pop(0)
        self._next_bidder()

    def _apply_pass(self, action: Pass) -> None:
        if self.high_bid is None:
            raise IllegalBid("the starting player must bid (0 or more); they cannot pass")
        self.bids.append(BidEvent(action.seat, None))
        self._log("pass", action.seat, f"{self.players[action.seat].name}: pass",
                  name=self.players[action.seat].name)
        self._waiting.pop(0)
        self._next_bidder()

    def _next_bidder(self) -> None:
        assert self.high_bid is not None and self.high_seat is not None
        while self._waiting:
            seat = self._waiting[0]
            if self.max_bid(seat) > self.high_bid:
                self.to_move = seat
                return
            self._waiting.pop(0)
            self.bids.append(BidEvent(seat, None, auto=True))
            self._log("auto-pass", seat,
                      f"{self.players[seat].name}: pass (cannot raise)",
                      name=self.players[seat].name)
        if self.high_bid == 0:
            self._log("no-build", None, "nobody builds; the display is discarded")
            self._clean_up()
            return
        self.phase = Phase.BUILD
        self.to_move = self.high_seat

    def _apply_build(self, build: Build) -> None:
        if self.phase is not Phase.BUILD:
            raise NotYourTurn("{player} must bid now, not build",
                              player=self.players[build.seat].name)
        session = self.build_session()
        session.choose(build.take, build.pay, build.teardown, check=False)
        for step in build.steps:
            session.place(step)
        if not session.done:
            raise IllegalBuild("{cards} taken but not placed: every taken card must be built",
                               cards=", ".join(map(str, session.hand)))
        seat = build.seat
        self.players[seat].board = session.board
        self.discard.extend(session.paid)
        self.display = session.remaining_display()
        torn = session.torn
        self._log("build", seat, describe_build(self.players[seat].name, build, torn),
                  name=self.players[seat].name, build=build, torn=torn)
        self.starter = (seat + 1) % self.player_count
        self._clean_up()

    # -- the round ---------------------------------------------------------
    def _start_round(self) -> None:
        if not self.draw:
            self._end_game()
            return
        count = min(DISPLAY_SIZE, len(self.draw))
        self.display, self.draw = self.draw[:count], self.draw[count:]
        self.round += 1
        if self.runout_round:
            self.runouts += 1
        self.bids, self.high_bid, self.high_seat = [], None, None
        self._waiting, self._max_bids = [], {}
        self.phase, self.to_move = Phase.BID, self.starter
        self._log("reveal", None, f"round {self.round}: " + ", ".join(map(str, self.display)),
                  round=self.round, cards=tuple(self.display))

    def _clean_up(self) -> None:
        self.discard.extend(self.display)
        self.display = []
        if self.runout_round and self.runouts >= 2:
            self._end_game()
            return
        if self.runout_round:
            self._reshuffle()
        self._start_round()

    def _reshuffle(self) -> None:
        if self.planned_reshuffle is not None:
            if Counter(self.planned_reshuffle) != Counter(self.discard):
                raise FormatError("the reshuffle is not a permutation of the discard pile "
                                  f"({len(self.discard)} cards) after the first run-out")
            new = list(self.planned_reshuffle)
        elif self._replaying and self.seed is None:
            raise FormatError('the record has no "reshuffle" and no "seed" to shuffle the '
                              "discard pile with after the first run-out")
        else:
            new = list(self.discard)
            self._rng.shuffle(new)
        self.reshuffle = list(new)
        self.draw, self.discard = new, []
        self._log("reshuffle", None,
                  f"the deck ran out: {len(new)} discarded cards form the new deck",
                  count=len(new))

    def _end_game(self) -> None:
        self.phase, self.to_move = Phase.OVER, None
        self.display = []
        winners = tuple(self.players[s].name for s in self.outcome().winners)
        self._log("end", None, f"the game is over; winner: {', '.join(winners)}",
                  names=winners)

    def _log(self, kind: str, seat: int | None, text: str, **details: object) -> None:
        self.log.append(LogEntry(self.round, kind, seat, text, len(self.actions),
                                 tuple(details.items())))

    # -- the platform's protocol (fivetowers.games.protocol.Match) -----------
    def result(self) -> Result | None:
        """Total scores and winners once the game is over, else None."""
        if self.phase is not Phase.OVER:
            return None
        outcome = self.outcome()
        return Result(tuple(s.total for s in outcome.scores), outcome.winners)

    def progress(self) -> str:
        return f"round {self.round}"

    def action_count(self) -> int:
        return len(self.actions)

    def action_json(self, index: int) -> dict[str, Any]:
        return self.actions[index].to_json()

    def setup_json(self) -> dict[str, Any]:
        """The record without players and actions: variant, seed, deck, reshuffle."""
        from fivetowers.games.five_towers.rules.record import RECORD_FORMAT  # it imports us
        setup: dict[str, Any] = {"format": RECORD_FORMAT, "variant": self.variant.value}
        if self.seed is not None:
            setup["seed"] = self.seed
        setup["deck"] = [str(c) for c in self.initial_deck]
        if self.reshuffle is not None:
            setup["reshuffle"] = [str(c) for c in self.reshuffle]
        return setup

    def record_json(self) -> dict[str, Any]:
        from fivetowers.games.five_towers.rules.record import Record  # it imports us
        return Record.from_game(self).to_json()

    # -- copying -----------------------------------------------------------
    def clone(self) -> Game:
        """An independent copy (the RNG state too) for search and simulation."""
        new = Game.__new__(Game)
        new.__dict__.update(self.__dict__)
        new._rng = random.Random()
        new._rng.setstate(self._rng.getstate())
        new.players = [Player(p.name, p.board.clone()) for p in self.players]
        for name in ("draw", "display", "discard", "actions", "log", "bids",
                     "_waiting"):
            setattr(new, name, list(getattr(self, name)))
        new._max_bids = dict(self._max_bids)
        return new


def _check_hidden(view: PlayerView, piles: Sequence[Sequence[Card]],
                  draw: Sequence[Card], check_cards: bool) -> None:
    """Refuse piles and a deck that are not exactly what ``view`` hides (with
    ``check_cards`` False: not as many cards as it hides)."""
    if len(piles) != len(view.seats):
        raise HiddenCardsMismatch(f"{len(piles)} teardown piles for {len(view.seats)} seats")
    for s, (seat, pile) in enumerate(zip(view.seats, piles)):
        if s == view.seat and list(pile) != list(view.own_teardown):
            raise HiddenCardsMismatch(f"seat {s}'s own teardown pile is not the one its view shows")
        if len(pile) != seat.teardown_count:
            raise HiddenCardsMismatch(f"seat {s} has {seat.teardown_count} teardown cards, "
                                      f"not {len(pile)}")
    if len(draw) != view.draw_count:
        raise HiddenCardsMismatch(f"the draw deck has {view.draw_count} cards, not {len(draw)}")
    if not check_cards:
        return
    given = Counter(draw)
    for s, pile in enumerate(piles):
        if s != view.seat:
            given.update(pile)
    if given != view.unseen():
        raise HiddenCardsMismatch("the hidden cards given are not the ones the view hides")


def describe_build(name: str, build: Build, torn: Card | None = None) -> str:
    """The build in plain words, cards in the order they were placed."""
    parts = []
    if build.pay:
        parts.append(f"pay {build.pay} tree card{'s' if build.pay > 1 else ''}")
    if build.teardown:
        parts.append(f"tear down {torn or build.teardown}")
    parts.append("build " + (", ".join(map(str, build.steps)) or "nothing"))
    return f"{name}: " + ", ".join(parts)
