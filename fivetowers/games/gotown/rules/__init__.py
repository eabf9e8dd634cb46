"""The rules of GoTown (RULES.md Part C): standard library only, no I/O."""

from fivetowers.games.gotown.rules.actions import (
    Action, Bone, Build, Dog, DonutTruck, End, Jackhammer, Milkshake, Steal, SuperThief,
    Thief, WreckingBall, action_from_json, action_json,
)
from fivetowers.games.gotown.rules.cards import COUNTS, Card, Floor, Piece, floor_card, full_deck
from fivetowers.games.gotown.rules.errors import (
    CardError, FormatError, GameOver, GoTownError, IllegalPlay, MalformedAction, NotYourTurn,
)
from fivetowers.games.gotown.rules.game import Game, Player
from fivetowers.games.gotown.rules.record import RECORD_FORMAT, Record, ReplayError, replay, result_json
from fivetowers.games.gotown.rules.view import PlayerView, SeatView

__all__ = [
    "Action", "Bone", "Build", "COUNTS", "Card", "CardError", "Dog", "DonutTruck", "End",
    "Floor", "FormatError", "Game", "GameOver", "GoTownError", "IllegalPlay", "Jackhammer",
    "MalformedAction", "Milkshake", "NotYourTurn", "Piece", "Player", "PlayerView",
    "RECORD_FORMAT", "Record", "ReplayError", "SeatView", "Steal", "SuperThief", "Thief",
    "WreckingBall", "action_from_json", "action_json", "floor_card", "full_deck", "replay",
    "result_json",
]
