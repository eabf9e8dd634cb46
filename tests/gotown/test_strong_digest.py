"""GoTown's strong bot decides exactly as before its search was made
cheaper: at seeded positions its play, its deals and playouts, every
candidate's paired sums and every playout's plays, state and score match
the digests written from the code before (``tests/gotown/strong_digest.py``)."""

from __future__ import annotations

import json
import random

import pytest

from fivetowers.games.gotown import strong
from fivetowers.games.gotown.plus import Knobs, plus_play
from fivetowers.games.gotown.rules import Action, Game, action_json
from fivetowers.games.gotown.strong import StrongBot
from tests.gotown import strong_digest
from tests.gotown.strong_digest import (FIXTURE, VARIANTS, decisions, decisions_digest,
                                        positions, table)


def _golden() -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = json.loads(FIXTURE.read_text())
    return found


def test_the_seeds_cover_every_table_size_and_both_lengths() -> None:
    kinds = {(table(int(s)).player_count, table(int(s)).floors_to_win)
             for s in _golden()["decisions"]}
    assert kinds == {(p, f) for p in (2, 3, 4) for f in (4, 5)}


def test_the_strong_bot_decides_as_the_reference_over_seeded_positions() -> None:
    for seed, digest in _golden()["decisions"].items():
        assert decisions_digest(int(seed)) == digest, seed


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_designs_off_by_default_decide_as_the_reference(name: str) -> None:
    for seed, digest in _golden()[name].items():
        assert decisions_digest(int(seed), VARIANTS[name]) == digest, seed


def test_the_positions_are_searched_and_some_leave_greedy_plus() -> None:
    """The digest weighs real searches: at each of the three table sizes
    decisions make their deals, and some searched decisions choose a play
    other than greedy+'s (the bot's own play without search, from the same
    generator)."""
    searched = {2: 0, 3: 0, 4: 0}
    departures = 0
    for seed in (0, 1, 2, 3, 5):
        made = decisions(seed)
        for i, (view, (action, deals, playouts, seen, _)) in enumerate(zip(positions(seed), made)):
            if deals > 1:
                searched[table(seed).player_count] += 1
                assert deals == strong_digest.DEALS and playouts >= 2 * deals
                greedy = StrongBot(search=False).choose(view, random.Random(seed * 1000 + i))
                departures += action != action_json(greedy)
    assert all(searched.values()), searched
    assert departures, "every searched decision played greedy+'s play"


def test_a_changed_playout_changes_the_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    """One playout play made differently changes the digest (so the checks
    above can fail), and so does a score changed by a hair."""
    real_plus = plus_play

    def contrary(game: Game, rng: random.Random, *knobs: Knobs) -> Action:
        play = real_plus(game, rng, *knobs)
        if len(game.actions) == 5 and game.legal_actions()[0] != play:
            return game.legal_actions()[0]
        return play

    monkeypatch.setattr(strong, "plus_play", contrary)
    assert decisions_digest(0) != _golden()["decisions"]["0"]
    monkeypatch.undo()
    real_score = strong.score
    monkeypatch.setattr(strong, "score", lambda *a: real_score(*a) + 1e-6)
    assert decisions_digest(0) != _golden()["decisions"]["0"]
