"""Sets of cards as masks, in CPython: a card is strength * 4 + suit, a set of cards the
int with those bits. The kernel (`rulesdsl.play.kernel`) holds its cards so, and its
compiled build has the same functions for numba (`kernel/native_primitives.py`).
"""

from __future__ import annotations

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
