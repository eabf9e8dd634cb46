"""The rules of 5 Towers: standard library only, no I/O.

Everything else in fivetowers validates through this package.
"""

from fivetowers.rules.actions import Action, Bid, Build, End, Pass, Source, Step, action_from_json
from fivetowers.rules.board import Board
from fivetowers.rules.building import BuildSession
from fivetowers.rules.cards import TYPES, Card, TowerType, card, cards, full_deck
from fivetowers.rules.errors import (
    CardError, FormatError, GameOver, IllegalAction, IllegalBid, IllegalBuild,
    MalformedAction, NotYourTurn, RulesError,
)
from fivetowers.rules.game import BidEvent, Game, LogEntry, Outcome, Phase, Player
from fivetowers.rules.position import Position
from fivetowers.rules.record import Record, ReplayError, replay, result_json
from fivetowers.rules.scoring import Score
from fivetowers.rules.variant import Variant
from fivetowers.rules.view import PlayerView, SeatView

__all__ = [
    "Action", "Bid", "BidEvent", "Board", "Build", "BuildSession", "Card", "CardError",
    "End", "FormatError", "Game", "GameOver", "IllegalAction", "IllegalBid", "IllegalBuild",
    "LogEntry", "MalformedAction", "NotYourTurn", "Outcome", "Pass", "Phase", "Player",
    "PlayerView", "Position", "Record", "SeatView", "ReplayError", "RulesError", "Score", "Source", "Step", "TYPES",
    "TowerType", "Variant", "action_from_json", "card", "cards", "full_deck", "replay",
    "result_json",
]
