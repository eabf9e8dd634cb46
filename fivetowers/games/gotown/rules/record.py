"""The game record ``gotown-record/1`` and replaying it (FORMATS.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fivetowers.games.gotown.rules.actions import action_from_json, action_json
from fivetowers.games.gotown.rules.cards import Card
from fivetowers.games.gotown.rules.errors import CardError, FormatError, IllegalPlay, shown
from fivetowers.games.gotown.rules.game import MAX_PLAYERS, MIN_PLAYERS, Game, check_deck

RECORD_FORMAT = "gotown-record/1"

# Size limits, checked before anything large is read: far above any real game
# (the turn limit allows 400 turns; a turn has a few plays).
MAX_NAME_LENGTH = 100
MAX_CARDS = 54
MAX_RESHUFFLES = 1000
MAX_ACTIONS = 20_000


@dataclass
class Record:
    """A whole game: who played, the deck, every reshuffle and every play.

    ``actions`` stay raw JSON so that a malformed one is reported at its
    index when replayed, like an illegal one."""

    players: list[str]
    floors_to_win: int = 5
    deck: list[Card] | None = None
    seed: int | None = None
    reshuffles: list[list[Card]] = field(default_factory=list)
    actions: list[Any] = field(default_factory=list)

    @classmethod
    def from_json(cls, data: object) -> Record:
        if not isinstance(data, dict):
            raise FormatError("a record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise FormatError(f'unknown format {shown(data.get("format"))}: expected '
                              f'"{RECORD_FORMAT}"')
        players = data.get("players")
        if not isinstance(players, list):
            raise FormatError('"players" must be a list of names')
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise FormatError(f"GoTown is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                              f"not {len(players)}")
        for p in players:
            if not isinstance(p, str) or not p:
                raise FormatError('"players" must be a list of names')
            if len(p) > MAX_NAME_LENGTH:
                raise FormatError(f"the player name {shown(p, 20)} is {len(p)} characters "
                                  f"long; at most {MAX_NAME_LENGTH}")
        floors = data.get("floors_to_win", 5)
        if floors not in (4, 5) or isinstance(floors, bool):
            raise FormatError(f'"floors_to_win" is 5, or 4 for the short game, not {shown(floors)}')
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise FormatError(f'"seed" must be a whole number, not {shown(seed)}')
        deck = None if data.get("deck") is None else _cards(data["deck"], '"deck"')
        if deck is None and seed is None:
            raise FormatError('a record needs a "deck" or a "seed" to shuffle one')
        if deck is not None:
            check_deck(deck, '"deck"')
        raw = data.get("reshuffles")
        reshuffles = []
        if raw is not None:
            if not isinstance(raw, list) or len(raw) > MAX_RESHUFFLES:
                raise FormatError('"reshuffles" must be a list of card lists')
            reshuffles = [_cards(r, f'reshuffle {i}') for i, r in enumerate(raw)]
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise FormatError('"actions" must be a list')
        if len(actions) > MAX_ACTIONS:
            raise FormatError(f'"actions" holds {len(actions)} actions; a game has far fewer '
                              f"(at most {MAX_ACTIONS} are read)")
        return cls(list(players), floors, deck, seed, reshuffles, list(actions))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": RECORD_FORMAT, "players": list(self.players),
                               "floors_to_win": self.floors_to_win}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.deck is not None:
            out["deck"] = [str(c) for c in self.deck]
        out["reshuffles"] = [[str(c) for c in r] for r in self.reshuffles]
        out["actions"] = list(self.actions)
        return out

    @classmethod
    def from_game(cls, game: Game) -> Record:
        """The record of ``game`` so far: deck, every reshuffle, every play."""
        return cls([p.name for p in game.players], game.floors_to_win, list(game.initial_deck),
                   game.seed, [list(r) for r in game.reshuffles],
                   [action_json(a) for a in game.actions])

    def new_game(self) -> Game:
        return Game(self.players, self.floors_to_win, self.deck, self.seed, self.reshuffles)


def _cards(value: object, what: str) -> list[Card]:
    if not isinstance(value, list):
        raise FormatError(f"{what} must be a list of cards, not {shown(value)}")
    if len(value) > MAX_CARDS:
        raise FormatError(f"{what} holds {len(value)} cards; GoTown has {MAX_CARDS}")
    try:
        return [Card.from_str(c) for c in value]
    except CardError as exc:
        raise FormatError(f"{what}: {exc}") from None


@dataclass(frozen=True, slots=True)
class ReplayError:
    action: int
    message: str


def replay(record: Record) -> tuple[Game, ReplayError | None]:
    """Apply every action; stop at the first illegal or malformed one.

    Raises :class:`FormatError` when the record itself is not valid (its
    deck, or a reshuffle that is not the discard pile when it is needed)."""
    game = record.new_game()
    for index, raw in enumerate(record.actions):
        try:
            game.apply(action_from_json(raw), recorded=True)
        except IllegalPlay as exc:
            return game, ReplayError(index, str(exc))
    return game, None


def result_json(game: Game) -> dict[str, Any]:
    """What ``fivetowers replay`` prints for a GoTown game (FORMATS.md)."""
    return {
        "finished": game.over,
        "turn": game.turn,
        "to_move": None if game.to_move is None else {"seat": game.to_move},
        "players": [{"name": p.name, "floors": [f.to_json() for f in p.floors],
                     "dogs": sorted(p.dogs), "hand": p.hand_size, "milkshakes": p.milkshakes}
                    for p in game.players],
        "draw_pile": len(game.draw),
        "discard_pile": len(game.discard),
        "winners": [game.name(s) for s in game.winners],
    }
