"""draw: how many cards the trick winner draws."""

from enum import StrEnum

from rulesdsl.options import CountOrWord
from rulesdsl.units.base import Section, Step, Unit


class DrawWord(StrEnum):
    PER_CARD_IN_TRICK = "per_card_in_trick"


UNIT = Unit(
    "draw",
    CountOrWord(tuple(DrawWord)),
    "1",
    "cards the trick winner draws",
    Section.DRAWING,
    frozenset({Step.DRAW_COUNT}),
    fires="a draw takes cards",
)
