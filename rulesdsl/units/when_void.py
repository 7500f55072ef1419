"""when_void: the obligation when void in the led suit."""

from enum import StrEnum

from rulesdsl.options import enum_choice
from rulesdsl.units.base import Section, Step, Unit
from rulesdsl.units.opening_lead import never_applies


class WhenVoid(StrEnum):
    ANY = "any"
    TRUMP_IF_ABLE = "trump_if_able"


UNIT = Unit(
    "when_void",
    enum_choice(WhenVoid),
    "any",
    "obligation when void in the led suit",
    Section.PLAY,
    frozenset({Step.FOLLOW_FILTER}),
    fires="it refuses a card",
    warnings=lambda rules: never_applies("when_void", rules),
)
