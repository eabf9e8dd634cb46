"""The strong bot decides exactly as before it was made faster: at seeded
positions its action, its worlds and every world's value per candidate, and
the rollouts dealt from them, match the digests written from the code before
(``tests/bots/strong_digest.py``)."""

from __future__ import annotations

import json
import random
from typing import Any, Callable

import pytest

from fivetowers.games.five_towers.bots import sim, strong
from fivetowers.games.five_towers.bots.determinize import dealer
from fivetowers.games.five_towers.rules import Game, PlayerView
from tests.bots import strong_digest
from tests.bots.strong_digest import FIXTURE, decisions_digest, rollouts_digest, table


def _golden() -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = json.loads(FIXTURE.read_text())
    return found


def test_the_seeds_cover_every_table_size_and_both_variants() -> None:
    kinds = {(table(int(s)).player_count, table(int(s)).variant) for s in _golden()["decisions"]}
    assert len(kinds) == 8


def test_the_strong_bot_decides_as_the_reference_over_seeded_positions() -> None:
    for seed, digest in _golden()["decisions"].items():
        assert decisions_digest(int(seed)) == digest, seed


def test_the_rollouts_play_as_the_reference_over_seeded_positions() -> None:
    for seed, digest in _golden()["rollouts"].items():
        assert rollouts_digest(int(seed)) == digest, seed


def test_a_changed_rollout_changes_the_digests(monkeypatch: pytest.MonkeyPatch) -> None:
    """The digests see one rollout bid made differently (so the checks above can fail)."""
    real = sim.bid_round

    def shy(state: sim.Sim) -> None:
        real(state)
        if state.high == 1:
            state.high, state.building = 0, False

    monkeypatch.setattr(sim, "bid_round", shy)
    assert rollouts_digest(1) != _golden()["rollouts"]["1"]
    assert decisions_digest(1) != _golden()["decisions"]["1"]
    assert strong_digest.WORLDS > strong.CHECK_EVERY


def test_the_digest_sees_the_worlds_after_the_last_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """A value changed only in the worlds played after clear_winner's last check
    (the same for every candidate, so the action stays) changes the digest."""
    last_check = strong_digest.WORLDS // strong.CHECK_EVERY * strong.CHECK_EVERY
    assert last_check < strong_digest.WORLDS
    before = decisions_digest(1)
    dealt = [0]  # worlds dealt in the current decision
    real_dealer, real_value = dealer, strong.StrongBot._value

    def counting_dealer(view: PlayerView) -> Callable[[random.Random], Game]:
        deal = real_dealer(view)
        dealt[0] = 0

        def counted(rng: random.Random) -> Game:
            dealt[0] += 1
            return deal(rng)
        return counted

    def late_shifted(*args: Any) -> float:
        return real_value(*args) + (0.5 if dealt[0] > last_check else 0.0)

    monkeypatch.setattr(strong, "dealer", counting_dealer)
    monkeypatch.setattr(strong.StrongBot, "_value", staticmethod(late_shifted))
    assert decisions_digest(1) != before
