"""GoTown as the platform sees it: the game's :class:`GameKind`.

Registered in :data:`fivetowers.games.PACKAGES`: the lobby hosts GoTown
tables beside 5 Towers ones (issue 14).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from fivetowers.games.protocol import (
    Bot, GameKind, GameOption, RecordError, check_options,
)
from fivetowers.games.gotown.rules import (
    Action, FormatError, Game, MalformedAction, Record, action_from_json, replay,
)
from fivetowers.games.gotown.rules.game import MAX_PLAYERS, MIN_PLAYERS
from fivetowers.games.gotown.rules.record import RECORD_FORMAT

if TYPE_CHECKING:
    from fivetowers.games.screens import GameScreens


class GoTown:
    """The second game of the platform (RULES.md Part C)."""

    name: str = "gotown"
    title: str = "GoTown"
    record_format: str = RECORD_FORMAT
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    score_unit: str = "floors"
    options: tuple[GameOption, ...] = (
        GameOption("floors", "Floors to win", (("5", "5 floors"),
                                                ("4", "4 floors (short game)"))),
    )
    bot_kinds: tuple[str, ...] = ("random", "greedy", "strong")
    late_bot: str = "greedy+"  # bots.LATE_BOT: the strong bot's play without search
    preload: tuple[str, ...] = ()

    def players_problem(self, count: int) -> str | None:
        if MIN_PLAYERS <= count <= MAX_PLAYERS:
            return None
        return f"GoTown is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}"

    def new_match(self, players: Sequence[str], options: Mapping[str, str],
                  seed: int) -> Game:
        chosen = check_options(self, options)
        return Game(players, int(chosen["floors"]), seed=seed)

    def match_from_record(self, record: Mapping[str, Any]) -> Game:
        game, error = replay(Record.from_json(dict(record)))
        if error is not None:
            raise RecordError(f"action {error.action}: {error.message}")
        return game

    def action_from_json(self, data: Any) -> Action:
        try:
            return action_from_json(data)
        except MalformedAction as exc:
            raise FormatError(str(exc)) from None

    def make_bot(self, kind: str) -> Bot:
        from fivetowers.games.gotown.bots import make_bot
        bot: Bot = make_bot(kind)
        return bot

    def screens(self) -> GameScreens:
        from fivetowers.games.gotown.tui.game_screens import SCREENS
        return SCREENS

    def options_of(self, setup: Mapping[str, Any]) -> dict[str, str]:
        floors = setup.get("floors_to_win", 5)
        return {"floors": "4" if floors == 4 else "5"}


GAME: GameKind = GoTown()
