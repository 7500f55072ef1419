"""when_void: the obligation when void in the led suit."""

from enum import StrEnum
from typing import Any

from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.state import State
from rulesdsl.model.units.acting import Acts, Effect, no_choice
from rulesdsl.model.units.base import Section, Step, Unit
from rulesdsl.model.units.opening_lead import never_applies
from rulesdsl.model.units.trump import no_trump_suit


class WhenVoid(StrEnum):
    ANY = "any"
    TRUMP_IF_ABLE = "trump_if_able"


def trump_when_void(s: State, seat: int, allowed: list[int]) -> list[int]:
    """Void in the led suit: a trump, if able."""
    trump = s.trump
    return allowed if s.holding else [c for c in allowed if c & 3 == trump]


def void_choice(m: Any) -> bool:
    """A follower void in the led suit holds a trump and a card that is not."""
    hand = m.hand
    led, trump = hand.led_suit, hand.trump
    if led is None or trump is None:
        return False
    held = hand.hands[m.seat]
    if any(c.suit == led for c in held):
        return False
    return {c.suit == trump for c in held} == {True, False}


def _plays(value: WhenVoid) -> dict[Step, Any]:
    return {Step.FOLLOW_FILTER: trump_when_void} if value is WhenVoid.TRUMP_IF_ABLE else {}


UNIT = Unit(
    "when_void",
    enum_choice(WhenVoid),
    "any",
    "obligation when void in the led suit",
    Section.PLAY,
    frozenset({Step.FOLLOW_FILTER}),
    fires="it refuses a card",
    warnings=lambda rules: never_applies("when_void", rules),
    plays=_plays,
    acts=Acts(
        "a follower void in the led suit holds a trump and a card that is not",
        (Effect.PLAY,),
        never=lambda proofs: no_trump_suit(proofs) or no_choice(proofs),
        move=void_choice,
    ),
    place=70,
)
