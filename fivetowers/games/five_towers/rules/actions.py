"""The action objects every front end submits (FORMATS.md "actions")."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Union

from fivetowers.games.five_towers.rules.cards import Card, TowerType, tower_type
from fivetowers.games.five_towers.rules.errors import CardError, MalformedAction, shown


class End(enum.Enum):
    """Which end of the sand tower a card goes to (Great Powers)."""

    TOP = "top"
    BOTTOM = "bottom"


class Source(enum.Enum):
    """Where a placed card comes from: the hand, or (scrap power) the teardown pile."""

    HAND = "hand"
    TEARDOWN = "teardown"


@dataclass(frozen=True, slots=True)
class Step:
    """Place one card onto its tower."""

    card: Card
    end: End = End.TOP
    source: Source = Source.HAND

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"card": str(self.card)}
        if self.end is End.BOTTOM:
            out["end"] = "bottom"
        if self.source is Source.TEARDOWN:
            out["from"] = "teardown"
        return out

    @classmethod
    def from_json(cls, data: object) -> Step:
        if not isinstance(data, dict) or "card" not in data:
            raise MalformedAction(f'a step must be an object with a "card", not {shown(data)}')
        unknown = set(data) - {"card", "end", "from"}
        if unknown:
            raise MalformedAction(f"a step has unknown fields: {_fields(unknown)}")
        card = _card(data["card"])
        end_text = data.get("end") or "top"
        source_text = data.get("from") or "hand"
        try:
            end = End(end_text)
        except ValueError:
            raise MalformedAction(f'"end" must be "top" or "bottom", not {shown(end_text)}') from None
        try:
            source = Source(source_text)
        except ValueError:
            raise MalformedAction(
                f'"from" must be "hand" or "teardown", not {shown(source_text)}'
            ) from None
        return cls(card, end, source)

    def __str__(self) -> str:
        where = " under the sand tower" if self.end is End.BOTTOM else ""
        whence = " from the teardown pile" if self.source is Source.TEARDOWN else ""
        return f"{self.card}{whence}{where}"


@dataclass(frozen=True, slots=True)
class Bid:
    seat: int
    amount: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "bid": self.amount}


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "pass": True}


@dataclass(frozen=True, slots=True)
class Build:
    """The winner's whole building step: take, pay, tear down, then place."""

    seat: int
    take: tuple[Card, ...]
    steps: tuple[Step, ...]
    pay: int = 0
    teardown: TowerType | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "build": self.plan_json()}

    def plan_json(self) -> dict[str, Any]:
        return {
            "take": [str(c) for c in self.take],
            "pay": self.pay,
            "teardown": self.teardown.value if self.teardown else None,
            "steps": [s.to_json() for s in self.steps],
        }


Action = Union[Bid, Pass, Build]


def action_from_json(data: object) -> Action:
    """Read one record action; raises :class:`MalformedAction` naming the problem."""
    if not isinstance(data, dict):
        raise MalformedAction(f"an action must be a JSON object, not {shown(data)}")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise MalformedAction(f'an action needs an integer "seat", not {shown(seat)}')
    kinds = [k for k in ("bid", "pass", "build") if k in data]
    if len(kinds) != 1:
        raise MalformedAction('an action must have exactly one of "bid", "pass", "build"')
    unknown = set(data) - {"seat", kinds[0]}
    if unknown:
        raise MalformedAction(f"an action has unknown fields: {_fields(unknown)}")
    kind = kinds[0]
    if kind == "bid":
        amount = data["bid"]
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise MalformedAction(f"a bid must be a whole number 0 or more, not {shown(amount)}")
        return Bid(seat, amount)
    if kind == "pass":
        if data["pass"] is not True:
            raise MalformedAction(f'"pass" must be true, not {shown(data["pass"])}')
        return Pass(seat)
    return build_from_json(seat, data["build"])


def build_from_json(seat: int, plan: object) -> Build:
    if not isinstance(plan, dict):
        raise MalformedAction(f'"build" must be an object, not {shown(plan)}')
    unknown = set(plan) - {"take", "pay", "teardown", "steps"}
    if unknown:
        raise MalformedAction(f"a build has unknown fields: {_fields(unknown)}")
    take = plan.get("take")
    steps = plan.get("steps")
    if not isinstance(take, list):
        raise MalformedAction(f'"take" must be a list of cards, not {shown(take)}')
    if not isinstance(steps, list):
        raise MalformedAction(f'"steps" must be a list of steps, not {shown(steps)}')
    pay = plan.get("pay") or 0
    if not isinstance(pay, int) or isinstance(pay, bool) or pay < 0:
        raise MalformedAction(f'"pay" must be a whole number 0 or more, not {shown(pay)}')
    teardown_name = plan.get("teardown")
    teardown: TowerType | None = None
    if teardown_name is not None:
        try:
            teardown = tower_type(teardown_name)
        except CardError as exc:
            raise MalformedAction(f'"teardown": {exc}') from None
    return Build(
        seat,
        tuple(_card(c) for c in take),
        tuple(Step.from_json(s) for s in steps),
        pay,
        teardown,
    )


def _card(text: object) -> Card:
    try:
        return Card.from_str(text)
    except CardError as exc:
        raise MalformedAction(str(exc)) from None


def _fields(names: set[str]) -> str:
    """Unknown field names as a message lists them: a few, each cut short."""
    listed = sorted(names)
    text = ", ".join(n if len(n) <= 30 and n.isprintable() else shown(n, 30)
                     for n in listed[:5])
    return text + (f" and {len(listed) - 5} more" if len(listed) > 5 else "")
