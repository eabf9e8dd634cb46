"""Errors raised by the rules core.

Every refused action or malformed document raises a specific ``ValueError``
subclass whose message a player (or a tool author) can act on. A refused
action never changes the game.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error raised by :mod:`fivetowers.rules`."""


class CardError(RulesError):
    """A card name that is not ``TYPE-VALUE`` with a known type and 0..15."""


class IllegalAction(RulesError):
    """An action the rules do not allow now; the game is unchanged."""


class NotYourTurn(IllegalAction):
    """An action by a seat that is not to act, or in the wrong phase."""


class IllegalBid(IllegalAction):
    """A bid that is not a legal raise or that the bidder could not build."""


class IllegalBuild(IllegalAction):
    """A build (or one step of it) that breaks a building rule."""


class GameOver(IllegalAction):
    """An action after the game has ended."""


class FormatError(RulesError):
    """A record or position document that is not valid (FORMATS.md)."""


class MalformedAction(IllegalAction):
    """An action object that does not have the shape FORMATS.md gives."""
