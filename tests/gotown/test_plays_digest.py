"""The playouts' policy plays exactly as before it was made faster: every
seeded game's plays, the generator's draws, and the strong bot's deals and
playouts match the digests written from the code before
(``tests/gotown/plays_digest.py``)."""

from __future__ import annotations

import json
import random

import pytest

from fivetowers.games.gotown.plus import GREEDY, GREEDY_PLUS, Knobs
from fivetowers.games.gotown.rules import Action, End, Game
from tests.gotown import plays_digest
from tests.gotown.plays_digest import FIXTURE, dealer_digest, game_digest, table


def _golden() -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = json.loads(FIXTURE.read_text())
    return found


def test_the_seeds_cover_every_table_size_and_both_lengths() -> None:
    kinds = {(table(int(s)).player_count, table(int(s)).floors_to_win)
             for s in _golden()["greedy+"]}
    assert kinds == {(p, f) for p in (2, 3, 4) for f in (4, 5)}


def test_greedy_plus_plays_as_the_reference_over_seeded_games() -> None:
    for seed, digest in _golden()["greedy+"].items():
        assert game_digest(int(seed), GREEDY_PLUS) == digest, seed


def test_the_greedy_rules_play_as_the_reference_over_seeded_games() -> None:
    for seed, digest in _golden()["greedy"].items():
        assert game_digest(int(seed), GREEDY) == digest, seed


def test_the_knobs_defaults_play_as_greedy_plus_before_its_worths_were_fitted() -> None:
    """Knobs() keeps the greedy bot's worths: these digests are greedy+'s
    from before the worths became knobs (GREEDY_PLUS now has fitted ones)."""
    for seed, digest in _golden()["knob defaults"].items():
        assert game_digest(int(seed), Knobs()) == digest, seed
    assert GREEDY_PLUS != Knobs()


def test_the_strong_bots_deals_and_playouts_are_as_the_reference() -> None:
    for seed, digest in _golden()["dealer"].items():
        assert dealer_digest(int(seed)) == digest, seed


def test_a_changed_play_changes_the_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest sees one play made differently (so the checks above can fail)."""
    real = plays_digest.plus_play

    def contrary(game: Game, rng: random.Random, knobs: Knobs = GREEDY_PLUS) -> Action:
        play = real(game, rng, knobs)
        if len(game.actions) != 7:
            return play
        return game.legal_actions()[0] if isinstance(play, End) else End(play.seat)

    monkeypatch.setattr(plays_digest, "plus_play", contrary)
    assert game_digest(0, GREEDY_PLUS) != _golden()["greedy+"]["0"]
