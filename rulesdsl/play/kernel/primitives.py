"""What the kernel's code calls besides itself, for CPython: the project's random stream
(`rulesdsl.model.stream`); sets of cards as masks are `rulesdsl.play.engine.masks`'.
`native_primitives.py` has the same functions, both kinds, for numba; each pair gives the
same results.

A bot's stream is a `Stream` here and a uint64 array [seed, drawn] there: the kernel only
passes it on to `uniform`.
"""

from __future__ import annotations

from rulesdsl.model.seeds import shuffle
from rulesdsl.model.stream import Stream, number


def uniform(stream: Stream) -> float:
    """The stream's next float, in [0, 1)."""
    return stream.random()


stream_number = number
"""The k-th number of the stream `seed` (k counts from 1): `stream_number(seed, k)`."""


def shuffle_cards(s: object, cards: list[int], count: int) -> None:
    """Shuffle the first `count` of `cards` with the state's stream of reshuffles."""
    stream = Stream(s.shuffle_seed, s.shuffle_drawn)  # type: ignore[attr-defined]
    part = cards[:count]
    shuffle(part, stream)
    cards[:count] = part
    s.shuffle_drawn = stream.drawn  # type: ignore[attr-defined]


def new_stream(seed: int) -> Stream:
    return Stream(seed)


def restart(stream: object, seed: int) -> Stream:
    """A stream from `seed`, in the place of `stream` where it is an array."""
    return Stream(seed)


def next_seed(stream: Stream) -> int:
    """The stream's next number, whole: a hand's seed."""
    return stream.split()


shuffle_deck = shuffle


def new_deck(size: int) -> list[int]:
    return [0] * size


def call_native(address: int, s: object, pc: int, seat: int, allowed: int, winner: int) -> int:
    """Native code runs in the compiled kernel alone: a plan for CPython has none."""
    raise NotImplementedError("native code is called by the compiled kernel alone")
