"""Threats against your top floor: public information only."""

from __future__ import annotations

from collections import Counter

from fivetowers.games.gotown.rules import COUNTS, Card, Floor, Game, Piece
from fivetowers.games.gotown.tui.threats import threats, unseen


def table() -> Game:
    game = Game(["Ann", "Bo"], seed=3)
    game.players[0].floors = [Floor(Piece(2), Piece(7))]
    return game


def test_unseen_cards_are_what_no_one_shows_the_viewer() -> None:
    game = Game(["Ann", "Bo"], seed=3)
    view = game.view(0)
    hidden = unseen(view)
    # the other hand and the draw pile, nothing else
    assert sum(hidden.values()) == view.seats[1].hand_size + view.draw_count
    assert hidden == Counter(COUNTS) - game.players[0].hand


def test_an_open_top_floor_names_the_steals_and_hammers() -> None:
    game = table()
    text = threats(game.view(0))
    assert text.startswith("Threats to your top [2 7]: ")
    assert "a 2 steals" in text and "a 7 steals" in text
    assert "jackhammer" in text and "Bo (" in text


def test_a_dog_leaves_only_the_wrecking_ball_and_the_bone() -> None:
    game = table()
    game.players[0].dogs.add(0)
    text = threats(game.view(0))
    assert "(dog)" in text and "steals" not in text and "jackhammer" not in text
    assert "wrecking ball" in text or game.view(0).hand.count(Card.WRECKING_BALL)


def test_no_floor_no_threat_and_a_watcher_gets_none() -> None:
    game = Game(["Ann", "Bo"], seed=3)
    assert threats(game.view(0)).startswith("Threats: none yet")
    assert threats(game.view(None)) == ""
