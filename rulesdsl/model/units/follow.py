"""follow: the obligation when holding the led suit."""

from enum import StrEnum
from typing import Any

from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.state import State
from rulesdsl.model.units.acting import Acts, Effect, no_choice
from rulesdsl.model.units.base import Section, Step, Unit


class Follow(StrEnum):
    SUIT = "suit"
    SUIT_OR_TRUMP = "suit_or_trump"
    ANY = "any"


def follow_suit(s: State, seat: int, allowed: list[int]) -> list[int]:
    """The led suit, if able. (The first play rule of a follower: `allowed` is the hand.)"""
    return s.holding


def suit_or_trump(s: State, seat: int, allowed: list[int]) -> list[int]:
    """Holding the led suit: the led suit or a trump."""
    led, trump = s.led, s.trump
    return [c for c in allowed if c & 3 == led or c & 3 == trump] if s.holding else []


def follow_choice(m: Any) -> bool:
    """A follower holds the led suit and a card of another suit: `any` lets them play it,
    `suit` does not."""
    hand = m.hand
    led = hand.led_suit
    held = hand.hands[m.seat]
    return led is not None and {c.suit == led for c in held} == {True, False}


def _plays(value: Follow) -> dict[Step, Any]:
    if value is Follow.ANY:
        return {}
    return {Step.FOLLOW_FILTER: suit_or_trump if value is Follow.SUIT_OR_TRUMP else follow_suit}


UNIT = Unit(
    "follow",
    enum_choice(Follow),
    "suit",
    "obligation when holding the led suit",
    Section.PLAY,
    frozenset({Step.FOLLOW_FILTER}),
    fires="it refuses a card",
    plays=_plays,
    acts=Acts(
        "a follower holds the led suit and a card of another suit",
        (Effect.PLAY,),
        never=no_choice,
        move=follow_choice,
    ),
    place=60,
)
