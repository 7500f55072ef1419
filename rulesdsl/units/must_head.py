"""must_head: the obligation to beat the best card so far (a yes/no flag)."""

from rulesdsl.options import Choice
from rulesdsl.units.base import Section, Step, Unit

UNIT = Unit(
    "must_head",
    Choice({"no": False, "yes": True}),
    "no",
    "obligation to beat the best card so far",
    Section.PLAY,
    frozenset({Step.FOLLOW_FILTER}),
    fires="it refuses a card",
)
