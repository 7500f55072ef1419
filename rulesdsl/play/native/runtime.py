"""What compiled code calls: the project's random stream (`rulesdsl.model.stream`) and `insort`.

A stream is a uint64 array [seed, drawn]: `next_uniform` draws the next float, as
`Stream.random()` does, and `shuffle` shuffles as `rulesdsl.model.seeds.shuffle` does.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import overload

from rulesdsl.model.stream import GAMMA, MIX1, MIX2, UNIT
from rulesdsl.play.engine import fast

_GAMMA = np.uint64(GAMMA)
_MIX1 = np.uint64(MIX1)
_MIX2 = np.uint64(MIX2)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)


@numba.njit(cache=True)
def number(seed: np.uint64, k: np.uint64) -> np.uint64:
    """The k-th number of the stream `seed` (k counts from 1)."""
    z = np.uint64(seed) + np.uint64(k) * _GAMMA
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@numba.njit(cache=True)
def new_stream(seed: int) -> np.ndarray:
    stream = np.zeros(2, np.uint64)
    stream[0] = np.uint64(seed)
    return stream


@numba.njit(cache=True)
def next_uniform(stream: np.ndarray) -> float:
    """The next float of the stream, in [0, 1)."""
    k = stream[1] + np.uint64(1)
    stream[1] = k
    return float(number(stream[0], k) >> _S11) * UNIT


@numba.njit(cache=True)
def shuffle(cards: np.ndarray, stream: np.ndarray) -> None:
    """Fisher-Yates on the stream's floats, as `rulesdsl.model.seeds.shuffle`: an int array (as
    the chunk loops deal), or a list made in compiled code."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(next_uniform(stream) * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


@numba.njit(cache=True)
def insort(cards: list[int], card: int) -> None:
    """Insert `card` into the sorted `cards`, after any equal ones (bisect.insort)."""
    low, high = 0, len(cards)
    while low < high:
        middle = (low + high) // 2
        if card < cards[middle]:
            high = middle
        else:
            low = middle + 1
    cards.insert(low, card)


@numba.njit(cache=True)
def next_seed(stream: np.ndarray) -> np.uint64:
    """The next number of the stream, whole: a hand's seed."""
    k = stream[1] + np.uint64(1)
    stream[1] = k
    return number(stream[0], k)


heuristic = numba.njit(cache=True)(fast.heuristic)
"""The heuristic bot of the fast path, compiled from its own source."""


def truth(value):  # no annotations: numba matches the overload's parameters to these
    """Python's truth of a value: an int, a bool or a list (numba tests no list)."""
    return bool(value)


@overload(truth)
def _truth(value):
    if isinstance(value, (types.List, types.Array)):
        return lambda value: len(value) > 0
    return lambda value: bool(value)


# -- card sets as 64-bit masks (`card_masks.py`): bit `card` is set for each card held ----------


@numba.njit(cache=True)
def popcount(mask: int) -> int:
    """How many cards the set holds."""
    mask = mask - ((mask >> 1) & 0x5555555555555555)
    mask = (mask & 0x3333333333333333) + ((mask >> 2) & 0x3333333333333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((mask * 0x0101010101010101) & 0x7FFFFFFFFFFFFFFF) >> 56


@numba.njit(cache=True)
def lowest(mask: int) -> int:
    """The lowest card of a set that holds one."""
    return popcount((mask & -mask) - 1)


@numba.njit(cache=True)
def nth(mask: int, index: int) -> int:
    """The card at `index` of the set's sorted list (from the end when negative)."""
    if index < 0:
        index += popcount(mask)
    for _ in range(index):
        mask &= mask - 1
    return lowest(mask)


SUIT_CARDS = sum(1 << (4 * strength) for strength in range(16))
"""The set of every card of suit 0 (a card is strength * 4 + suit)."""
ALL_CARDS = (1 << 63) - 1


@numba.njit(cache=True)
def suit_cards(suit: int) -> int:
    """The set of every card of `suit`: none for a suit outside 0..3 (no trump is -1)."""
    if suit < 0 or suit > 3:
        return 0
    return (SUIT_CARDS << suit) & ALL_CARDS


@numba.njit(cache=True)
def all_cards() -> int:
    """The set of every card a mask can hold."""
    return ALL_CARDS


@numba.njit(cache=True)
def cards_above(value: int) -> int:
    """The set of every card above `value`."""
    if value < 0:
        return ALL_CARDS
    if value >= 62:
        return 0
    return ALL_CARDS & ~((1 << (value + 1)) - 1)


@numba.njit(cache=True)
def mask_of(cards: list[int]) -> int:
    """The set of the cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


@numba.njit(cache=True)
def mask_of_kept(cards: list[int]) -> int:
    """The set of the cards of `cards` but those below 0 (a row padded with -1), with no
    list made."""
    mask = 0
    for card in cards:
        if card >= 0:
            mask |= 1 << card
    return mask


@numba.njit(cache=True)
def mask_of_slice(cards: list[int], start: int, stop: int, step: int) -> int:
    """The set of the cards of `cards[start:stop:step]` (step above 0), with no list made."""
    count = len(cards)
    start = max(start + count, 0) if start < 0 else min(start, count)
    stop = max(stop + count, 0) if stop < 0 else min(stop, count)
    mask = 0
    for k in range(start, stop, step):
        mask |= 1 << cards[k]
    return mask


@numba.njit(cache=True)
def cards_of(mask: int) -> list[int]:
    """The sorted list of the set's cards."""
    cards = [0][:0]
    while mask != 0:
        cards.append(lowest(mask))
        mask &= mask - 1
    return cards


# -- lists of cards as arrays (`card_arrays.py`): the items, then the length in the last item -----


@numba.njit(cache=True)
def stack_new(capacity: int) -> np.ndarray:
    """An empty list of up to `capacity` cards."""
    stack = np.empty(capacity + 1, np.int64)
    stack[capacity] = 0
    return stack


@numba.njit(cache=True)
def stack_len(stack: np.ndarray) -> int:
    return stack[stack.shape[0] - 1]


@numba.njit(cache=True)
def stack_view(stack: np.ndarray) -> np.ndarray:
    """The cards of the list, in order, as a view of its array."""
    return stack[: stack[stack.shape[0] - 1]]


@numba.njit(cache=True)
def stack_clear(stack: np.ndarray) -> None:
    stack[stack.shape[0] - 1] = 0


@numba.njit(cache=True)
def stack_append(stack: np.ndarray, card: int) -> None:
    last = stack.shape[0] - 1
    count = stack[last]
    if count == last:
        raise IndexError("a list of cards holds more cards than the deck")
    stack[count] = card
    stack[last] = count + 1


@numba.njit(cache=True)
def stack_grown_append(stack: np.ndarray, card: int) -> np.ndarray:
    """`stack` with `card` appended: the same array, or a copy twice its size when full."""
    last = stack.shape[0] - 1
    count = stack[last]
    if count == last:
        grown = np.zeros(2 * last + 2, np.int64)
        grown[:count] = stack[:count]
        grown[grown.shape[0] - 1] = count
        stack = grown
    stack_append(stack, card)
    return stack


@numba.njit(cache=True)
def stack_grown_extend(stack: np.ndarray, cards: np.ndarray) -> np.ndarray:
    for card in cards:
        stack = stack_grown_append(stack, card)
    return stack


@numba.njit(cache=True)
def stack_pop(stack: np.ndarray) -> int:
    """Take the last card (the list holds one)."""
    last = stack.shape[0] - 1
    count = stack[last] - 1
    stack[last] = count
    return stack[count]


@numba.njit(cache=True)
def stack_extend(stack: np.ndarray, cards: np.ndarray) -> None:
    for card in cards:
        stack_append(stack, card)


@numba.njit(cache=True)
def stack_reverse(stack: np.ndarray) -> None:
    low, high = 0, stack[stack.shape[0] - 1] - 1
    while low < high:
        stack[low], stack[high] = stack[high], stack[low]
        low += 1
        high -= 1


@numba.njit(cache=True)
def stack_item(stack: np.ndarray, index: int) -> int:
    """`cards[index]`, from the end when negative (the list holds that card)."""
    return stack[index + stack[stack.shape[0] - 1] if index < 0 else index]


@numba.njit(cache=True)
def stack_has(stack: np.ndarray, card: int) -> bool:
    k, count = 0, stack[stack.shape[0] - 1]
    while k < count and stack[k] != card:
        k += 1
    return k < count


@numba.njit(cache=True)
def stack_from(cards: list[int], start: int, stop: int, capacity: int) -> np.ndarray:
    """A list of up to `capacity` cards holding `cards[start:stop]`."""
    count = len(cards)
    start = max(start + count, 0) if start < 0 else min(start, count)
    stop = max(stop + count, 0) if stop < 0 else min(stop, count)
    count = max(stop - start, 0)
    if count > capacity:
        raise IndexError("a list of cards holds more cards than the deck")
    stack = np.empty(capacity + 1, np.int64)
    for k in range(count):
        stack[k] = cards[start + k]
    stack[capacity] = count
    return stack


@numba.njit(cache=True)
def stack_kept(cards: np.ndarray, capacity: int) -> np.ndarray:
    """A list of up to `capacity` cards holding those of `cards` that are not -1, in order:
    `[c for c in cards if c >= 0]`."""
    stack = np.empty(capacity + 1, np.int64)
    stack_keep(stack, cards)
    return stack


@numba.njit(cache=True)
def stack_keep(stack: np.ndarray, cards: np.ndarray) -> None:
    """Make the list `stack` hold the cards of `cards` that are not -1, in order."""
    capacity = stack.shape[0] - 1
    count = 0
    for card in cards:
        if card >= 0:
            if count == capacity:
                raise IndexError("a list of cards holds more cards than the deck")
            stack[count] = card
            count += 1
    stack[capacity] = count


@numba.njit(cache=True)
def stack_join(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """`first + second`, in `first`'s array."""
    stack_extend(first, stack_view(second))
    return first


# -- lists of one item per seat as arrays (`card_arrays.seat_arrays`) ---------------------------


@numba.njit(cache=True)
def seat_count(items: np.ndarray, value: int) -> int:
    """`items.count(value)`."""
    count = 0
    for item in items:
        count += item == value
    return count


@numba.njit(cache=True)
def seat_index(items: np.ndarray, value: int) -> int:
    """`items.index(value)` (the array holds it)."""
    k = 0
    while items[k] != value:
        k += 1
    return k
