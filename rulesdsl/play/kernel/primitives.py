"""What the kernel's code calls besides itself, for CPython: sets of cards as masks, and the
project's random stream (`rulesdsl.model.stream`). `native_primitives.py` has the same
functions for numba; each pair gives the same results.

A bot's stream is a `Stream` here and a uint64 array [seed, drawn] there: the kernel only
passes it on to `uniform`.
"""

from __future__ import annotations

from rulesdsl.model.seeds import shuffle
from rulesdsl.model.stream import Stream, number

SUIT_CARDS = sum(1 << (4 * strength) for strength in range(13))
"""The set of every card of suit 0 (a card is strength * 4 + suit)."""
ALL_CARDS = (1 << 52) - 1


def popcount(mask: int) -> int:
    """How many cards the set holds."""
    return mask.bit_count()


def lowest(mask: int) -> int:
    """The lowest card of a set that holds one."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """The highest card of a set that holds one."""
    return mask.bit_length() - 1


def nth(mask: int, index: int) -> int:
    """The card at `index` of the set's sorted list."""
    for _ in range(index):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def suit_cards(suit: int) -> int:
    """Every card of `suit`; none for no suit (-1)."""
    return SUIT_CARDS << suit if suit >= 0 else 0


def cards_above(card: int) -> int:
    """Every card higher than `card` (every card for -1)."""
    return ALL_CARDS & ~((2 << card) - 1)


def uniform(stream: Stream) -> float:
    """The stream's next float, in [0, 1)."""
    return stream.random()


def stream_number(seed: int, k: int) -> int:
    """The k-th number of the stream `seed` (k counts from 1)."""
    return number(seed, k)


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


def shuffle_deck(cards: list[int], stream: Stream) -> None:
    shuffle(cards, stream)


def new_deck(size: int) -> list[int]:
    return [0] * size
