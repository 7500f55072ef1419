"""scoring: the match points for winning a hand."""

from enum import StrEnum

from rulesdsl.options import enum_choice
from rulesdsl.units.base import Section, Step, Unit


class Scoring(StrEnum):
    ONE_PER_HAND = "one_per_hand"
    CARDS_IN_HAND = "cards_in_hand"


UNIT = Unit(
    "scoring",
    enum_choice(Scoring),
    "one_per_hand",
    "match points for winning a hand",
    Section.SCORING,
    frozenset({Step.SCORE}),
    place=140,
)
