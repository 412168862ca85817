"""A seeded generator of our own (splitmix64): the same seed gives the same numbers anywhere.

The results of every draw are recorded in events (``LibraryShuffled.order``), so a replay never
depends on this generator staying the same.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class SeededRandom:
    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next_u64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        limit = _MASK - (_MASK % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffled(self, items: list[T]) -> list[T]:
        """Fisher-Yates on a copy."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def derive_seed(seed: int, *labels: str) -> int:
    """A sub-seed for one purpose (one player's shuffle, the policy, ...), stable across runs."""
    rng = SeededRandom(seed)
    acc = rng.next_u64()
    for label in labels:
        for ch in label.encode("utf-8"):
            acc = SeededRandom(acc ^ ch).next_u64()
    return acc
