"""follow: the obligation when holding the led suit."""

from enum import StrEnum

from rulesdsl.options import enum_choice
from rulesdsl.units.base import Section, Step, Unit


class Follow(StrEnum):
    SUIT = "suit"
    SUIT_OR_TRUMP = "suit_or_trump"


UNIT = Unit(
    "follow",
    enum_choice(Follow),
    "suit",
    "obligation when holding the led suit",
    Section.PLAY,
    frozenset({Step.FOLLOW_FILTER}),
    fires="it refuses a card",
)
