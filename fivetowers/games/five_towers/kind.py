"""5 Towers as the platform sees it: the game's :class:`GameKind`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from fivetowers.games.protocol import Bot, GameKind, GameOption, RecordError, check_options
from fivetowers.games.five_towers.rules import (
    Game, Record, Variant, action_from_json, replay,
)
from fivetowers.games.five_towers.rules.players import MAX_PLAYERS, MIN_PLAYERS, players_problem
from fivetowers.games.five_towers.rules.record import RECORD_FORMAT

if TYPE_CHECKING:
    from fivetowers.games.screens import GameScreens



class FiveTowers:
    """The first game of the platform (RULES.md Parts A and B)."""

    name: str = "fivetowers"
    title: str = "5 Towers"
    record_format: str = RECORD_FORMAT
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    score_unit: str = "VP"
    options: tuple[GameOption, ...] = (
        GameOption("variant", "Variant", (("base", "base game"),
                                          ("great-powers", "Great Powers"))),
    )
    late_bot: str = "greedy"
    preload: tuple[str, ...] = ("fivetowers.games.five_towers.solver.cpsat",)
    bot_kinds: tuple[str, ...] = ("random", "greedy", "strong")

    def players_problem(self, count: int) -> str | None:
        return players_problem(count)

    def new_match(self, players: Sequence[str], options: Mapping[str, str],
                  seed: int) -> Game:
        chosen = check_options(self, options)
        return Game(players, Variant.from_str(chosen["variant"]), seed=seed)

    def match_from_record(self, record: Mapping[str, Any]) -> Game:
        game, error = replay(Record.from_json(dict(record)))
        if error is not None:
            raise RecordError(f"action {error.action}: {error.message}")
        return game

    def action_from_json(self, data: Any) -> Any:
        return action_from_json(data)

    def make_bot(self, kind: str) -> Bot:
        from fivetowers.games.five_towers.bots import make_bot  # the solver loads with it
        bot: Bot = make_bot(kind)
        return bot

    def options_of(self, setup: Mapping[str, Any]) -> dict[str, str]:
        return {"variant": Variant.from_str(setup.get("variant")).value}

    def screens(self) -> GameScreens:
        from fivetowers.games.five_towers.tui.game_screens import SCREENS  # Textual loads with it
        return SCREENS


GAME: GameKind = FiveTowers()
