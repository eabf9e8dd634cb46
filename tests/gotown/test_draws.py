"""The search's draws are random.Random's own: the same numbers, and the
generator left in the same state."""

from __future__ import annotations

import random

import pytest

from fivetowers.games.gotown.draws import below, choice, reseed, shuffle


def test_shuffle_orders_as_random_shuffle_does() -> None:
    for seed in range(200):
        for size in (0, 1, 2, 3, 7, 31, 54, 64, 65, 100):
            ours, theirs = random.Random(seed), random.Random(seed)
            cards, expected = list(range(size)), list(range(size))
            shuffle(ours, cards)
            theirs.shuffle(expected)
            assert cards == expected, (seed, size)
            assert ours.getstate() == theirs.getstate()


def test_choice_and_below_draw_as_random_does() -> None:
    for seed in range(200):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in (1, 2, 3, 4, 5, 8, 9, 17, 63, 64, 65, 200):
            seq = list(range(size))
            assert choice(ours, seq) == theirs.choice(seq), (seed, size)
            assert below(ours, size) == theirs.randrange(size), (seed, size)
        assert below(ours, 1 << 30) == theirs.randrange(1 << 30)
        assert ours.getstate() == theirs.getstate()


def test_a_draw_below_nothing_raises_as_random_does() -> None:
    rng = random.Random(0)
    draws, drawn = rng.getrandbits, 0

    def bounded(k: int) -> int:
        # a draw below nothing loops on getrandbits(0) == 0: fail, not hang
        nonlocal drawn
        drawn += 1
        assert drawn < 1000, "drew forever"
        return draws(k)

    rng.getrandbits = bounded  # type: ignore[method-assign]
    with pytest.raises(IndexError):
        choice(rng, [])
    for n in (0, -1):
        with pytest.raises(ValueError):
            below(rng, n)
    with pytest.raises(IndexError):
        random.Random(0).choice([])
    with pytest.raises(ValueError):
        random.Random(0).randrange(0)
    assert drawn == 0


def test_another_generator_draws_by_its_own_methods() -> None:
    class Fixed(random.Random):
        def randrange(self, *args: object, **kwargs: object) -> int:
            return 0

        def choice(self, seq):  # type: ignore[no-untyped-def]
            return seq[-1]

        def shuffle(self, x, *args):  # type: ignore[no-untyped-def]
            x.reverse()

    cards = [1, 2, 3]
    shuffle(Fixed(), cards)
    assert cards == [3, 2, 1]
    assert choice(Fixed(), cards) == 1 and below(Fixed(), 10) == 0


def test_reseed_leaves_the_generator_as_a_new_one() -> None:
    rng = random.Random(5)
    rng.gauss(0.0, 1.0)  # a Gaussian kept for the next call
    for seed in (0, 1, 2**30 - 1, 123456789):
        reseed(rng, seed)
        assert rng.getstate() == random.Random(seed).getstate()
        rng.random()
