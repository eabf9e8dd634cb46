"""``fivetowers play --game gotown``: its options are checked before any screen."""

from __future__ import annotations

import pytest

from tests.test_cli_errors import run


@pytest.mark.parametrize("args, says", [
    (("--players", "5"), "--players must be 2 to 4 for GoTown, not 5"),
    (("--players", "1"), "--players must be 2 to 4 for GoTown, not 1"),
    (("--bots", "4"), "--bots must be 0 to 3 for 3 players, not 4"),
    (("--variant", "great-powers"), "--variant is for 5 Towers; GoTown has --short"),
])
def test_bad_gotown_options_get_one_line(args: tuple[str, ...], says: str) -> None:
    out = run("play", "--game", "gotown", *args)
    assert out.returncode == 2 and out.stderr.strip() == f"fivetowers: {says}"


def test_short_is_for_gotown_only() -> None:
    out = run("play", "--short")
    assert out.returncode == 2 and "--short is for --game gotown" in out.stderr


def test_the_short_game_deals_a_four_floor_table() -> None:
    from tests.gotown.tui.helpers import local

    assert local(3, short=True).table.game.floors_to_win == 4
    assert local(3).table.game.floors_to_win == 5
    client = local(3, players=4, bots=1)
    assert [s.bot for s in client.table.seats] == [None, None, None, "greedy"]
    assert client.human_seats == (0, 1, 2)
