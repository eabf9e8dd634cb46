"""The rules of 5 Towers: standard library only, no I/O.

Everything else in fivetowers validates through this package.
"""

from fivetowers.games.five_towers.rules.actions import Action, Bid, Build, End, Pass, Source, Step, action_from_json
from fivetowers.games.five_towers.rules.board import Board
from fivetowers.games.five_towers.rules.building import BuildSession
from fivetowers.games.five_towers.rules.cards import (
    TYPES, Card, TowerType, card, cards, full_deck,
)
from fivetowers.games.five_towers.rules.players import MAX_PLAYERS, MIN_PLAYERS, players_problem
from fivetowers.games.five_towers.rules.errors import (
    CardError, FormatError, GameOver, HiddenCardsMismatch, IllegalAction, IllegalBid, IllegalBuild,
    MalformedAction, NotYourTurn, RulesError,
)
from fivetowers.games.five_towers.rules.game import BidEvent, Game, LogEntry, Outcome, Phase, Player
from fivetowers.games.five_towers.rules.position import Position
from fivetowers.games.five_towers.rules.record import Record, ReplayError, replay, result_json
from fivetowers.games.five_towers.rules.scoring import Score
from fivetowers.games.five_towers.rules.variant import Variant
from fivetowers.games.five_towers.rules.view import PlayerView, SeatView

__all__ = [
    "MAX_PLAYERS", "MIN_PLAYERS", "players_problem",
    "Action", "Bid", "BidEvent", "Board", "Build", "BuildSession", "Card", "CardError",
    "End", "FormatError", "Game", "GameOver", "HiddenCardsMismatch", "IllegalAction", "IllegalBid", "IllegalBuild",
    "LogEntry", "MalformedAction", "NotYourTurn", "Outcome", "Pass", "Phase", "Player",
    "PlayerView", "Position", "Record", "SeatView", "ReplayError", "RulesError", "Score", "Source", "Step", "TYPES",
    "TowerType", "Variant", "action_from_json", "card", "cards", "full_deck", "replay",
    "result_json",
]
