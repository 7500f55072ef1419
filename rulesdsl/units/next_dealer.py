"""next_dealer: who deals the next hand."""

from enum import StrEnum

from rulesdsl.options import enum_choice
from rulesdsl.units.base import Section, Step, Unit


class NextDealer(StrEnum):
    LEFT = "left"
    HAND_WINNER = "hand_winner"


UNIT = Unit(
    "next_dealer",
    enum_choice(NextDealer),
    "left",
    "who deals the next hand",
    Section.SCORING,
    frozenset({Step.NEXT_DEALER}),
    place=170,
)
