"""The plays a player submits, as FORMATS.md "GoTown game record" writes them.

Every play's class is final (mypy refuses a subclass): the game tells them
apart by ``type(action) is`` where a search makes tens of thousands of plays,
and a subclass would slip past that where isinstance would take it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Union, final

from fivetowers.games.gotown.rules.cards import Card
from fivetowers.games.gotown.rules.errors import CardError, MalformedAction, shown


@final
@dataclass(frozen=True, slots=True)
class Build:
    """Two cards from hand that make a floor; a wild takes the value that makes 9."""

    seat: int
    cards: tuple[Card, Card]

    def play_json(self) -> dict[str, Any]:
        return {"build": [str(c) for c in self.cards]}


@final
@dataclass(frozen=True, slots=True)
class Steal:
    """``card`` from hand with its match from the top floor of seat ``target``."""

    seat: int
    card: Card
    target: int

    def play_json(self) -> dict[str, Any]:
        return {"steal": {"card": str(self.card), "from": self.target}}


@final
@dataclass(frozen=True, slots=True)
class Dog:
    """A dog beside floor ``floor`` (0 = bottom) of the player's own tower."""

    seat: int
    floor: int

    def play_json(self) -> dict[str, Any]:
        return {"dog": self.floor}


@final
@dataclass(frozen=True, slots=True)
class Bone:
    """A bone on the dog beside floor ``floor`` of seat ``target``'s tower."""

    seat: int
    target: int
    floor: int

    def play_json(self) -> dict[str, Any]:
        return {"bone": {"from": self.target, "floor": self.floor}}


@final
@dataclass(frozen=True, slots=True)
class Jackhammer:
    seat: int
    target: int

    def play_json(self) -> dict[str, Any]:
        return {"jackhammer": self.target}


@final
@dataclass(frozen=True, slots=True)
class WreckingBall:
    seat: int
    target: int

    def play_json(self) -> dict[str, Any]:
        return {"wrecking-ball": self.target}


@final
@dataclass(frozen=True, slots=True)
class Milkshake:
    seat: int
    target: int

    def play_json(self) -> dict[str, Any]:
        return {"milkshake": self.target}


@final
@dataclass(frozen=True, slots=True)
class DonutTruck:
    seat: int

    def play_json(self) -> dict[str, Any]:
        return {"donut-truck": True}


@final
@dataclass(frozen=True, slots=True)
class Thief:
    """One card at random from seat ``target``'s hand. ``took`` None asks the
    game to draw it; the game records what came out."""

    seat: int
    target: int
    took: Card | None = None

    def play_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"from": self.target}
        if self.took is not None:
            out["took"] = str(self.took)
        return {"thief": out}


@final
@dataclass(frozen=True, slots=True)
class SuperThief:
    """One card at random from each opponent holding one. ``took`` (seat →
    card) None asks the game to draw them."""

    seat: int
    took: tuple[tuple[int, Card], ...] | None = None

    def play_json(self) -> dict[str, Any]:
        if self.took is None:
            return {"super-thief": {}}
        return {"super-thief": {"took": {str(s): str(c) for s, c in self.took}}}


@final
@dataclass(frozen=True, slots=True)
class End:
    """The end of the turn (the draw up to 3 follows)."""

    seat: int

    def play_json(self) -> dict[str, Any]:
        return {"end": True}


Action = Union[Build, Steal, Dog, Bone, Jackhammer, WreckingBall, Milkshake, DonutTruck,
               Thief, SuperThief, End]

PLAY_KEYS = ("build", "steal", "dog", "bone", "jackhammer", "wrecking-ball", "milkshake",
             "donut-truck", "thief", "super-thief", "end")


def action_json(action: Action) -> dict[str, Any]:
    """The action as a record writes it: ``seat`` and one play key."""
    return {"seat": action.seat, **action.play_json()}


def action_from_json(data: object) -> Action:
    """One record action; :class:`MalformedAction` names what is wrong."""
    if not isinstance(data, dict):
        raise MalformedAction(f"an action must be a JSON object, not {shown(data)}")
    seat = _whole(data.get("seat"), '"seat"')
    keys = [k for k in data if k != "seat"]
    if len(keys) != 1 or keys[0] not in PLAY_KEYS:
        raise MalformedAction("an action has a \"seat\" and exactly one play ("
                              + ", ".join(PLAY_KEYS) + "), not "
                              + (", ".join(shown(k, 20) for k in keys[:4]) or "none"))
    return play_from_json(seat, keys[0], data[keys[0]])


def play_from_json(seat: int, key: str, value: object) -> Action:
    """The play ``key: value`` of an action by ``seat``."""
    if key == "build":
        if not isinstance(value, list) or len(value) != 2:
            raise MalformedAction(f'"build" is a list of two cards, not {shown(value)}')
        return Build(seat, (_card(value[0]), _card(value[1])))
    if key == "steal":
        fields = _object(value, key, {"card", "from"})
        return Steal(seat, _card(fields["card"]), _whole(fields["from"], '"steal" "from"'))
    if key == "dog":
        return Dog(seat, _whole(value, '"dog"'))
    if key == "bone":
        fields = _object(value, key, {"from", "floor"})
        return Bone(seat, _whole(fields["from"], '"bone" "from"'),
                    _whole(fields["floor"], '"bone" "floor"'))
    if key == "jackhammer":
        return Jackhammer(seat, _whole(value, '"jackhammer"'))
    if key == "wrecking-ball":
        return WreckingBall(seat, _whole(value, '"wrecking-ball"'))
    if key == "milkshake":
        return Milkshake(seat, _whole(value, '"milkshake"'))
    if key == "thief":
        fields = _object(value, key, {"from"}, frozenset({"took"}))
        took = fields.get("took")
        return Thief(seat, _whole(fields["from"], '"thief" "from"'),
                     None if took is None else _card(took))
    if key == "super-thief":
        fields = _object(value, key, set(), frozenset({"took"}))
        if "took" not in fields:
            return SuperThief(seat, None)
        return SuperThief(seat, _took(fields["took"]))
    if value is not True:
        raise MalformedAction(f'"{key}" must be true, not {shown(value)}')
    return DonutTruck(seat) if key == "donut-truck" else End(seat)


def _took(value: object) -> tuple[tuple[int, Card], ...]:
    if not isinstance(value, dict):
        raise MalformedAction(f'"super-thief" "took" is an object of seat: card, not '
                              f"{shown(value)}")
    out = []
    for key, card in value.items():
        if not (isinstance(key, str) and key.isdigit() and key.isascii() and len(key) < 3):
            raise MalformedAction(f'"super-thief" "took" is keyed by seat numbers, not {shown(key)}')
        out.append((int(key), _card(card)))
    return tuple(sorted(out))


def _object(value: object, key: str, needed: set[str],
            optional: frozenset[str] = frozenset()) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise MalformedAction(f'"{key}" must be an object, not {shown(value)}')
    missing = needed - set(value)
    unknown = set(value) - needed - optional
    if missing or unknown:
        names = ", ".join(sorted(needed | optional))
        raise MalformedAction(f'"{key}" has the fields {names}, not '
                              + ", ".join(shown(k, 20) for k in sorted(value)[:4]))
    return value


def _whole(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 100:
        raise MalformedAction(f"{what} must be a seat or floor number, not {shown(value)}")
    return value


def _card(value: object) -> Card:
    try:
        return Card.from_str(value)
    except CardError as exc:
        raise MalformedAction(str(exc)) from None
