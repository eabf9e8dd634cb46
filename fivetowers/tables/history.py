"""Replaying a kept game: the one replay loop of the hosting layers, and a
game move by move for a replay viewer.

:func:`replay` is how a restart rebuilds a table (:mod:`.restore`), how
``fivetowers replay`` reads a record and how a replay screen steps through a
kept game (:class:`GameHistory`): through the game's protocol only
(``GameKind.match_from_record`` for the start, ``action_from_json`` and
``Match.apply`` for each action).

Position ``i`` of a :class:`GameHistory` is the game after its first ``i``
actions (0: the start, ``len(history) - 1``: the end). A screen keeps the
index and renders ``history.view(i, seat)``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from fivetowers.games import UnknownGame, game_kind
from fivetowers.games.protocol import ActionRefused, GameKind, Match, RecordError


@dataclass(frozen=True, slots=True)
class ReplayError:
    """Where a record stops replaying: action number ``action`` is refused."""

    action: int
    message: str


def replay(kind: GameKind, record: Mapping[str, Any],
           each: Callable[[Match], None] | None = None) -> tuple[Match, ReplayError | None]:
    """The game ``record`` describes: its start, then every action applied,
    stopping at the first malformed or refused one (the game as it was before
    it, and where and why). ``each`` is called with the start and after each
    action (with the live game: copy what you keep).

    Raises :class:`RecordError` (a ValueError) when the record itself is not
    valid for the game, before or during the replay (a setup that does not
    fit the actions, say)."""
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError('"actions" must be a list')
    match = kind.match_from_record({**record, "actions": []})
    if each is not None:
        each(match)
    for index, raw in enumerate(actions):
        try:
            action = kind.action_from_json(raw)
        except (ActionRefused, RecordError) as exc:  # a malformed action: stops here
            return match, ReplayError(index, str(exc))
        try:
            match.apply(action)
        except ActionRefused as exc:  # a RecordError here is the record's: raised
            return match, ReplayError(index, str(exc))
        if each is not None:
            each(match)
    return match, None


def record_text_of(kind: str, record: Mapping[str, Any]) -> dict[str, Any]:
    """A kept record with its keys in the order its game writes them
    (``Match.record_json()``), every value as kept: what ``fivetowers
    export`` prints. A record that stops at a refused action is given whole;
    one of a game this program does not know, as kept. Raises RecordError
    (a ValueError) when the record does not even start."""
    try:
        game = game_kind(kind)
    except UnknownGame:
        return dict(record)
    match, _ = replay(game, record)
    ordered = {key: record[key] for key in match.record_json() if key in record}
    ordered.update(record)  # keys the game would not write now: kept all the same
    return ordered


def record_text(data: Mapping[str, Any]) -> str:
    """A record as JSON, one line per field and per action: readable and
    diffable; what ``fivetowers export`` (and ``ssh HOST export GAME``) print."""
    fields = []
    for key, value in data.items():
        if key == "actions" and value:
            actions = ",\n".join(f"    {json.dumps(a)}" for a in value)
            fields.append(f"  {json.dumps(key)}: [\n{actions}\n  ]")
        else:
            fields.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(fields) + "\n}"


class GameHistory:
    """Every position of a game record, computed once."""

    def __init__(self, kind: GameKind, record: Mapping[str, Any]) -> None:
        self.kind = kind
        self._positions: list[Match] = []
        _, self.error = replay(kind, record, lambda m: self._positions.append(m.clone()))
        """Where an illegal record stops, or None."""

    def __len__(self) -> int:
        return len(self._positions)

    def game(self, position: int) -> Any:
        """The game after ``position`` actions (a copy the caller must not
        change); the game's own type, for its replay screen."""
        return self._positions[self._index(position)]

    def view(self, position: int, seat: int | None = None) -> Any:
        return self._positions[self._index(position)].view(seat)

    def happened(self, position: int) -> list[Any]:
        """What the action leading to ``position`` did (for 0: the start), as
        the game logs it (5 Towers: its ``log``; a game without a log: nothing)."""
        i = self._index(position)
        after: list[Any] = getattr(self._positions[i], "log", [])
        before: list[Any] = getattr(self._positions[i - 1], "log", []) if i else []
        return after[len(before):]

    def _index(self, position: int) -> int:
        if not 0 <= position < len(self._positions):
            raise IndexError(f"position {position} is not in 0..{len(self._positions) - 1}")
        return position
