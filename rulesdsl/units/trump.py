"""trump: how the trump suit is fixed."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from rulesdsl.cards import Suit
from rulesdsl.options import enum_choice
from rulesdsl.units.base import Section, Step, Unit

if TYPE_CHECKING:
    from rulesdsl.rules import Rules


class Trump(StrEnum):
    DEALER_LAST_CARD = "dealer_last_card"
    STOCK_TURNUP = "stock_turnup"
    NONE = "none"
    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"

    @property
    def suit(self) -> Suit | None:
        """The fixed trump suit this value names, if it names one."""
        return Suit.from_word(self.value) if self.value in SUIT_WORDS else None


SUIT_WORDS = tuple(s.word for s in Suit)


def turned_up(rules: Rules) -> int:
    """Cards the trump rule takes out of play at the deal."""
    return int(rules.trump is Trump.STOCK_TURNUP)


UNIT = Unit(
    "trump",
    enum_choice(Trump),
    "dealer_last_card",
    "how the trump suit is fixed",
    Section.SETUP,
    frozenset({Step.SETUP, Step.RESOLVE}),
    fires="a trick is won by a trump when another suit was led",
)
