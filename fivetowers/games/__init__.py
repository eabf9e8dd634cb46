"""The games this platform hosts, each a package behind one protocol
(:mod:`fivetowers.games.protocol`), and the registry that lists them.

Hosting layers ask the registry for a game by the name the store keeps;
they never import a game package by name.
"""

from __future__ import annotations

import importlib

from fivetowers.games.protocol import GameKind

PACKAGES = {"fivetowers": "fivetowers.games.five_towers.kind",
            "gotown": "fivetowers.games.gotown.kind"}
"""Registered games: name -> the module whose ``GAME`` is its GameKind. A
package is imported the first time its game is asked for."""

_loaded: dict[str, GameKind] = {}


class UnknownGame(ValueError):
    """No game is registered under that name."""


def register(kind: GameKind) -> None:
    """Add a game (an installed package's, or a test's)."""
    _loaded[kind.name] = kind


def unregister(name: str) -> None:
    _loaded.pop(name, None)


def game_kind(name: str) -> GameKind:
    """The game registered as ``name``; :class:`UnknownGame` if none is."""
    kind = _loaded.get(name)
    if kind is None:
        module = PACKAGES.get(name)
        if module is None:
            raise UnknownGame(f"unknown game {name!r}: this server knows "
                              + ", ".join(sorted(set(PACKAGES) | set(_loaded))))
        kind = importlib.import_module(module).GAME
        _loaded[name] = kind
    return kind


def game_kinds() -> list[GameKind]:
    """Every registered game, in registration order."""
    return [game_kind(name) for name in dict.fromkeys([*PACKAGES, *_loaded])]


def game_of_record(record: object) -> GameKind:
    """The game whose records have this record's ``format``."""
    fmt = record.get("format") if isinstance(record, dict) else None
    for kind in game_kinds():
        if kind.record_format == fmt:
            return kind
    raise UnknownGame(f"unknown record format {fmt!r}")
