"""The project's random stream: SplitMix64, the same numbers in every engine.

A stream is a 64-bit seed; its k-th number (k = 1, 2, ...) is `mix(seed + k * GAMMA)`
modulo 2**64, so any engine that can multiply 64-bit integers draws the same numbers:
the reference engine and the pure-Python fast path through `Stream`, the native path
through its own copy of `mix` (`rulesdsl.play.native`). A uniform float is the top 53 bits
over 2**53, and a choice among n things is `int(uniform * n)`.

Python computes numbers a block at a time with numpy, which keeps a draw as cheap as one
of `random.Random`; a few one at a time until numpy is loaded.
"""

from __future__ import annotations

import sys

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
UNIT = 2.0**-53
"""A number's top 53 bits times UNIT is a float in [0, 1)."""

FIRST_BLOCK = 32
BLOCK = 1024
FEW = 64
"""At most this many numbers are computed one at a time while numpy is not loaded."""


def mix(z: int) -> int:
    """SplitMix64's output function, on one 64-bit number."""
    z = ((z ^ (z >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return z ^ (z >> 31)


def number(seed: int, k: int) -> int:
    """The k-th number of the stream `seed` (k counts from 1)."""
    return mix((seed + k * GAMMA) & MASK)


def uniforms(seed: int, start: int, count: int) -> list[float]:
    """The uniform floats of numbers start, start + 1, ... of the stream, in order: a few
    one at a time while numpy is not loaded (a short run need not load it, which takes as
    long as thousands of numbers), else with numpy."""
    if count <= FEW and "numpy" not in sys.modules:
        return [(number(seed, k) >> 11) * UNIT for k in range(start, start + count)]
    import numpy as np

    k = np.arange(start, start + count, dtype=np.uint64)
    z = np.uint64(seed) + k * np.uint64(GAMMA)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX2)
    z ^= z >> np.uint64(31)
    return ((z >> np.uint64(11)).astype(np.float64) * UNIT).tolist()


class Stream:
    """A seeded stream of uniform floats, drawn in order; `random()` as `random.Random`
    has it, so a stream serves wherever a generator is asked for a float."""

    __slots__ = ("_ahead", "_next", "seed")

    def __init__(self, seed: int, drawn: int = 0) -> None:
        self.seed = seed & MASK
        self._next = drawn + 1  # the number the next block starts at
        self._ahead: list[float] = []  # computed, not yet drawn; the next one last

    @property
    def drawn(self) -> int:
        """How many numbers have been drawn."""
        return self._next - 1 - len(self._ahead)

    def random(self) -> float:
        ahead = self._ahead
        if not ahead:
            self._fill()
        return ahead.pop()

    def take(self, count: int) -> list[float]:
        """The next `count` floats, in order, as `random()` would draw them."""
        ahead = self._ahead
        if len(ahead) < count:
            missing = count - len(ahead)
            taken = [*reversed(ahead), *uniforms(self.seed, self._next, missing)]
            self._next += missing
            ahead.clear()
            return taken
        cut = len(ahead) - count
        taken = ahead[cut:]
        taken.reverse()
        del ahead[cut:]
        return taken

    def split(self) -> int:
        """Draw one number and give it whole: the seed of a stream of its own."""
        k = self.drawn + 1
        self.random()
        return number(self.seed, k)

    def below(self, n: int) -> int:
        """One of 0 .. n - 1."""
        return int(self.random() * n)

    def skip(self, count: int) -> None:
        """Pass over the next `count` numbers, as drawing them would."""
        ahead = self._ahead
        if count <= len(ahead):
            del ahead[len(ahead) - count :]
        else:
            self._next += count - len(ahead)
            ahead.clear()

    def copy(self) -> Stream:
        """A stream that goes on from here by itself."""
        return Stream(self.seed, self.drawn)

    def _fill(self) -> None:
        size = FIRST_BLOCK if self._next <= FEW else BLOCK
        block = uniforms(self.seed, self._next, size)
        block.reverse()
        self._ahead.extend(block)
        self._next += size

    def __eq__(self, other: object) -> bool:
        """Streams are equal when they draw the same numbers from here on."""
        if not isinstance(other, Stream):
            return NotImplemented
        return (self.seed, self.drawn) == (other.seed, other.drawn)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Stream(seed={self.seed}, drawn={self.drawn})"
