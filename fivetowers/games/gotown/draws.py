"""``random.Random``'s shuffle, choice, ``randrange(n)`` and seed, drawing exactly
the numbers they draw, in fewer calls: the strong bot's dealer shuffles the
unseen cards at every deal and greedy+ picks among its best plays at every
play of a playout, and each of Random's draws there costs three calls
(the method, ``_randbelow``, ``bit_length``) around the one
``getrandbits`` that matters.

They follow CPython's ``Random._randbelow_with_getrandbits`` (``k`` bits of
``n``'s length, drawn again while the number is ``n`` or more) and
``Random.shuffle`` (from the last place down, each swapped with a place
drawn below it); ``tests/gotown/test_draws.py`` checks them against
Random's own. Any generator but a plain ``random.Random`` (a subclass may
draw otherwise) is left to its own methods, and so is a draw below nothing
(an empty sequence, ``n`` of 0 or less): Random raises there, where the
loop would wait forever for ``getrandbits(0)`` to reach 0.
"""

from __future__ import annotations

import random
from typing import MutableSequence, Sequence, TypeVar

_T = TypeVar("_T")

_BITS = tuple(n.bit_length() for n in range(65))
"""How many bits a number below ``n`` is drawn with, for n up to 64 (a deck
has 54 cards)."""


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``."""
    if type(rng) is not random.Random or n <= 0:
        return rng.randrange(n)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def choice(rng: random.Random, seq: Sequence[_T]) -> _T:
    """``rng.choice(seq)``."""
    n = len(seq)
    if type(rng) is not random.Random or n > 64 or not n:  # not n: Random raises
        return rng.choice(seq)
    getrandbits = rng.getrandbits
    k = _BITS[n]
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return seq[r]


def shuffle(rng: random.Random, cards: MutableSequence[_T]) -> None:
    """``rng.shuffle(cards)``."""
    if type(rng) is not random.Random or len(cards) > 64:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    bits = _BITS
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = bits[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def reseed(rng: random.Random, seed: int) -> None:
    """``rng.seed(seed)`` for an int ``seed`` and a plain ``random.Random``:
    Random.seed's own steps (the C generator's seed, no Gaussian kept)
    without its Python layer (a call and two isinstance checks)."""
    super(random.Random, rng).seed(seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # Random's, not in its stub


__all__ = ["below", "choice", "reseed", "shuffle"]
