"""The game record ``fivetowers-record/1`` and replaying it (FORMATS.md)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from fivetowers.games.five_towers.rules.actions import action_from_json
from fivetowers.games.five_towers.rules.cards import (
    TYPES, Card, cards_from_json, full_deck,
)
from fivetowers.games.five_towers.rules.errors import FormatError, IllegalAction, shown
from fivetowers.games.five_towers.rules.game import Game, Phase
from fivetowers.games.five_towers.rules.players import players_problem
from fivetowers.games.five_towers.rules.variant import Variant

RECORD_FORMAT = "fivetowers-record/1"

# Size limits, checked before anything large is read (issue 18: a 50 MB name
# or deck took gigabytes or seconds). Far above any real game: names on a
# server are at most 16 characters, a 5-player game has about 270 actions.
MAX_NAME_LENGTH = 100
MAX_CARDS = len(full_deck(5))
MAX_ACTIONS = 10_000


@dataclass
class Record:
    """A whole game: who played, the deck order and every decision.

    ``actions`` stay raw JSON objects so that a malformed action is reported
    as an error at its index when replayed, like an illegal one.
    """

    variant: Variant
    players: list[str]
    deck: list[Card] | None = None
    reshuffle: list[Card] | None = None
    seed: int | None = None
    actions: list[Any] = field(default_factory=list)

    @classmethod
    def from_json(cls, data: object) -> Record:
        if not isinstance(data, dict):
            raise FormatError("a record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise FormatError(f'unknown format {shown(data.get("format"))}: expected '
                              f'"{RECORD_FORMAT}"')
        variant = Variant.from_str(data.get("variant"))
        players = data.get("players")
        if not isinstance(players, list):
            raise FormatError('"players" must be a list of names')
        problem = players_problem(len(players))  # before the names: the list may be huge
        if problem is not None:
            raise FormatError(problem)
        if not all(isinstance(p, str) and p for p in players):
            raise FormatError('"players" must be a list of names')
        for p in players:
            if len(p) > MAX_NAME_LENGTH:
                raise FormatError(f"the player name {shown(p, 20)} is {len(p)} characters "
                                  f"long; at most {MAX_NAME_LENGTH}")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise FormatError(f'"seed" must be a whole number, not {shown(seed)}')
        deck = _card_list(data.get("deck"), "deck")
        reshuffle = _card_list(data.get("reshuffle"), "reshuffle")
        if deck is None and seed is None:
            raise FormatError('a record needs a "deck" or a "seed" to shuffle one')
        if reshuffle is not None and +(Counter(reshuffle) - Counter(full_deck(len(players)))):
            raise FormatError('"reshuffle" holds cards that are not in the '
                              f"{len(players)}-player card set")
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise FormatError('"actions" must be a list')
        if len(actions) > MAX_ACTIONS:
            raise FormatError(f'"actions" holds {len(actions)} actions; a game has far fewer '
                              f"(at most {MAX_ACTIONS} are read)")
        return cls(variant, list(players), deck, reshuffle, seed, list(actions))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": RECORD_FORMAT, "variant": self.variant.value,
                               "players": list(self.players)}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.deck is not None:
            out["deck"] = [str(c) for c in self.deck]
        if self.reshuffle is not None:
            out["reshuffle"] = [str(c) for c in self.reshuffle]
        out["actions"] = list(self.actions)
        return out

    @classmethod
    def from_game(cls, game: Game) -> Record:
        """The record of ``game`` so far: deck order, reshuffle and actions."""
        return cls(game.variant, [p.name for p in game.players], list(game.initial_deck),
                   list(game.reshuffle) if game.reshuffle is not None else None,
                   game.seed, [a.to_json() for a in game.actions])

    def new_game(self) -> Game:
        return Game(self.players, self.variant, self.deck, self.seed, self.reshuffle,
                    replaying=True)


def _card_list(value: object, name: str) -> list[Card] | None:
    if value is None:
        return None
    if isinstance(value, list) and len(value) > MAX_CARDS:  # refuse before reading cards
        raise FormatError(f'"{name}" holds {len(value)} cards; the largest card set has '
                          f"{MAX_CARDS}")
    return cards_from_json(value, name)


@dataclass(frozen=True, slots=True)
class ReplayError:
    action: int
    message: str


def replay(record: Record) -> tuple[Game, ReplayError | None]:
    """Apply every action; stop at the first illegal or malformed one.

    Raises :class:`FormatError` when the record itself is not valid (its deck,
    or a reshuffle that does not match the discard pile when it is needed).
    """
    game = record.new_game()
    for index, raw in enumerate(record.actions):
        try:
            game.apply(action_from_json(raw))
        except IllegalAction as exc:
            return game, ReplayError(index, str(exc))
    return game, None


def result_json(game: Game) -> dict[str, Any]:
    """What ``fivetowers replay`` prints for a game (FORMATS.md)."""
    outcome = game.outcome()
    players = []
    for player, score in zip(game.players, outcome.scores):
        players.append({
            "name": player.name,
            "towers": {t.value: list(player.board.towers[t]) for t in TYPES},
            "teardown": len(player.board.teardown),
            "score": score.total,
            "breakdown": score.breakdown_json(),
        })
    to_move = None
    if game.phase is not Phase.OVER:
        to_move = {"seat": game.to_move, "phase": game.phase.value}
    return {"finished": game.phase is Phase.OVER, "round": game.round, "to_move": to_move,
            "players": players,
            "winners": [game.players[s].name for s in outcome.winners]}
