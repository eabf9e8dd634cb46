"""Errors raised by the GoTown rules.

Every refused play or malformed document raises a specific ``ValueError``
subclass whose message a player (or a tool author) can act on. A refused
play never changes the game.
"""

from __future__ import annotations

import reprlib

from fivetowers.games.protocol import ActionRefused, RecordError

__all__ = ["CardError", "FormatError", "GameOver", "GoTownError", "IllegalPlay",
           "MalformedAction", "NotYourTurn", "shown"]


class GoTownError(ValueError):
    """Base class of every error raised by :mod:`fivetowers.games.gotown.rules`."""


class CardError(GoTownError):
    """A card name that is not one of RULES.md C1 (``1``…``8``, ``?``, an action)."""


class IllegalPlay(GoTownError, ActionRefused):
    """A play the rules do not allow now; the message says why. Nothing changed."""


class NotYourTurn(IllegalPlay):
    """A play by a seat whose turn it is not (or that does not exist)."""


class GameOver(IllegalPlay):
    """A play after the game has ended."""


class MalformedAction(IllegalPlay):
    """An action object without the shape FORMATS.md gives it."""


class FormatError(GoTownError, RecordError):
    """A record or position document that is not valid (FORMATS.md)."""


ECHO_LIMIT = 60
"""The most characters of an offending input value an error message repeats."""

_REPR = reprlib.Repr()  # bounded work on lists and objects however large or deep
_REPR.maxstring = _REPR.maxother = ECHO_LIMIT
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 8
_REPR.maxlevel = 3


def shown(value: object, limit: int = ECHO_LIMIT) -> str:
    """``value`` as an error message quotes it: its ``repr`` (control
    characters escaped), cut to ``limit`` characters and marked ``…`` when
    cut. (A copy of 5 Towers' helper: one game never imports another.)"""
    if isinstance(value, str):
        return repr(value[:limit]) + ("…" if len(value) > limit else "")
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return "a number too long to show"
    text = _REPR.repr(value)
    return text if len(text) <= limit else text[:limit] + "…"
