"""The functions of `primitives.py` for numba: the native build compiles this text with the
kernel's (nothing here runs in CPython). A stream is a uint64 array [seed, drawn]."""

from __future__ import annotations

import numpy as np

from rulesdsl.model.stream import GAMMA, MIX1, MIX2, UNIT
from rulesdsl.play.engine.masks import ALL_CARDS, SUIT_CARDS


def popcount(mask):
    mask = mask - ((mask >> 1) & 0x5555555555555555)
    mask = (mask & 0x3333333333333333) + ((mask >> 2) & 0x3333333333333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((mask * 0x0101010101010101) & 0x7FFFFFFFFFFFFFFF) >> 56


def lowest(mask):
    return popcount((mask & -mask) - 1)


def highest(mask):
    card = 0
    for shift in (32, 16, 8, 4, 2, 1):
        if mask >> shift:
            mask >>= shift
            card += shift
    return card


def nth(mask, index):
    for _ in range(index):
        mask &= mask - 1
    return lowest(mask)


def suit_cards(suit):
    return SUIT_CARDS << suit if suit >= 0 else 0


def cards_above(card):
    return ALL_CARDS & ~((2 << card) - 1)


def stream_number(seed, k):
    z = np.uint64(seed) + np.uint64(k) * np.uint64(GAMMA)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX2)
    return z ^ (z >> np.uint64(31))


def uniform(stream):
    return float(next_seed(stream) >> np.uint64(11)) * UNIT


def new_stream(seed):
    return restart(np.zeros(2, np.uint64), seed)


def restart(stream, seed):
    stream[0] = np.uint64(seed)
    stream[1] = np.uint64(0)
    return stream


def next_seed(stream):
    k = stream[1] + np.uint64(1)
    stream[1] = k
    return stream_number(stream[0], k)


def shuffle_deck(cards, stream):
    for i in range(len(cards) - 1, 0, -1):
        j = int(uniform(stream) * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def shuffle_cards(s, cards, count):
    stream = new_stream(s.shuffle_seed)
    stream[1] = np.uint64(s.shuffle_drawn)
    shuffle_deck(cards[:count], stream)
    s.shuffle_drawn = stream[1]


def new_deck(size):
    return np.zeros(size, np.int64)
