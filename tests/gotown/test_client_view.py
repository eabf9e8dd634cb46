"""GoTown's client: what a screen asks of it on every move."""

from __future__ import annotations

from fivetowers.games.gotown.client import GoTownClient, new_local_game
from fivetowers.games.gotown.rules.view import view_of


def test_only_the_mover_has_a_hint_to_fetch() -> None:
    # Every other seat's screen (and a watcher's) knows at once that there
    # is no hint and no advice: no worker is started for them on each move
    # (ui/live_table.py's load_hint).
    table = new_local_game(players=3, bots=0, seed=1).table
    mover = table.game.to_move
    for seat in (None, 0, 1, 2):
        client = GoTownClient(table, seat)
        assert client.nothing_to_hint() == (seat != mover)
        if seat != mover:
            assert client._position() is None and not client.my_turn()


def test_a_view_is_made_once_per_move() -> None:
    # A screen reads it several times a redraw; a move makes it anew.
    table = new_local_game(players=3, bots=0, seed=1).table
    client = GoTownClient(table, table.game.to_move)
    view = client.view()
    assert client.view() is view
    table.game.apply(view.legal[0])
    assert client.view() is not view
    assert client.view() == view_of(table.game, client.seat)
