"""The strong bot decides exactly as before it was made faster: at seeded
positions its action, its worlds and every world's value per candidate, and
the rollouts dealt from them, match the digests written from the code before
(``tests/bots/strong_digest.py``)."""

from __future__ import annotations

import json

import pytest

from fivetowers.games.five_towers.bots import sim
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
    assert strong_digest.WORLDS > strong_digest.strong.CHECK_EVERY
