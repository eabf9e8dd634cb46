"""Errors raised by the rules core.

Every refused action or malformed document raises a specific ``ValueError``
subclass whose message a player (or a tool author) can act on. A refused
action never changes the game.
"""

from __future__ import annotations

import reprlib

from fivetowers.games.protocol import ActionRefused, RecordError


class RulesError(ValueError):
    """Base class of every error raised by :mod:`fivetowers.games.five_towers.rules`."""


class CardError(RulesError):
    """A card name that is not ``TYPE-VALUE`` with a known type and 0..15."""


class IllegalAction(RulesError, ActionRefused):
    """An action the rules do not allow now; the game is unchanged."""


class NotYourTurn(IllegalAction):
    """An action by a seat that is not to act, or in the wrong phase."""


class IllegalBid(IllegalAction):
    """A bid that is not a legal raise or that the bidder could not build."""


class IllegalBuild(IllegalAction):
    """A build (or one step of it) that breaks a building rule."""


class GameOver(IllegalAction):
    """An action after the game has ended."""


class FormatError(RulesError, RecordError):
    """A record or position document that is not valid (FORMATS.md)."""


class HiddenCardsMismatch(RulesError):
    """Hidden cards that do not complete a player's view into a whole game."""


class MalformedAction(IllegalAction):
    """An action object that does not have the shape FORMATS.md gives."""


ECHO_LIMIT = 60
"""The most characters of an offending input value an error message repeats."""

_REPR = reprlib.Repr()  # bounded work on lists and objects however large or deep
_REPR.maxstring = _REPR.maxother = ECHO_LIMIT
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 8
_REPR.maxlevel = 3


def shown(value: object, limit: int = ECHO_LIMIT) -> str:
    """``value`` as an error message quotes it: its ``repr`` (which escapes
    control and format characters), cut to ``limit`` characters and marked
    ``…`` when cut, so a huge or hostile input never makes a huge message."""
    if isinstance(value, str):
        return repr(value[:limit]) + ("…" if len(value) > limit else "")
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return "a number too long to show"
    text = _REPR.repr(value)
    return text if len(text) <= limit else text[:limit] + "…"
