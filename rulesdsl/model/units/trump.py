"""trump: how the trump suit is fixed."""

from __future__ import annotations

from enum import StrEnum
from functools import partial
from typing import Any

from rulesdsl.model.cards import Suit
from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.units.acting import Acts, Effect
from rulesdsl.model.units.base import RulesView, Section, Step, Unit


def fixed_suit(deck: list[int], dealt: int, suit: int) -> tuple[int, list[int]]:
    """A fixed trump suit; the stock is the rest of the deck, top first."""
    return suit, deck[dealt:]


class Trump(StrEnum):
    DEALER_LAST_CARD = "dealer_last_card"
    STOCK_TURNUP = "stock_turnup"
    STOCK_BOTTOM = "stock_bottom"
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


TURNED_UP = frozenset({Trump.STOCK_TURNUP, Trump.STOCK_BOTTOM})


def turned_up(rules: RulesView) -> int:
    """Cards the trump rule turns up from the stock at the deal (they must be there)."""
    return int(rules.trump in TURNED_UP)


def out_of_play(rules: RulesView) -> int:
    """Cards the trump rule takes out of play at the deal."""
    return int(rules.trump is Trump.STOCK_TURNUP)


def dealer_last_card(deck: list[int], dealt: int) -> tuple[int, list[int]]:
    """The last card dealt, the dealer's, names trump; the stock is the rest."""
    return deck[dealt - 1] & 3, deck[dealt:]


def stock_turnup(deck: list[int], dealt: int) -> tuple[int, list[int]]:
    """The first card after the deal names trump and is set aside."""
    return deck[dealt] & 3, deck[dealt + 1 :]


def stock_bottom(deck: list[int], dealt: int) -> tuple[int, list[int]]:
    """The first card after the deal names trump and goes to the bottom of the stock."""
    return deck[dealt] & 3, deck[dealt + 1 :] + deck[dealt : dealt + 1]


def no_trump(deck: list[int], dealt: int) -> tuple[int, list[int]]:
    return -1, deck[dealt:]


def no_trump_suit(proofs: Any) -> str | None:
    """A proof that a rule asking about trumps never acts: there are none."""
    return "there is no trump suit" if proofs.rules.trump is Trump.NONE else None


def off_suit(m: Any) -> bool:
    """A follower holds no card of the led suit (so the trump suit decides what they may win
    with: with no trump, nothing)."""
    hand = m.hand
    led = hand.led_suit
    return led is not None and not any(c.suit == led for c in hand.hands[m.seat])


def _plays(value: Trump) -> dict[Step, Any]:
    suit = value.suit
    if suit is not None:
        return {Step.TRUMP: partial(fixed_suit, suit=int(suit))}
    chosen = {
        Trump.DEALER_LAST_CARD: dealer_last_card,
        Trump.STOCK_TURNUP: stock_turnup,
        Trump.STOCK_BOTTOM: stock_bottom,
    }
    return {Step.TRUMP: chosen.get(value, no_trump)}


UNIT = Unit(
    "trump",
    enum_choice(Trump),
    "dealer_last_card",
    "how the trump suit is fixed",
    Section.SETUP,
    frozenset({Step.TRUMP}),
    fires="a trick is won by a trump when another suit was led",
    plays=_plays,
    acts=Acts(
        "a player void in the led suit plays to a trick",
        (Effect.PLAY, Effect.HAND_WINNER),
        move=off_suit,
    ),
    place=40,
)
