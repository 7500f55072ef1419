"""elimination: when an empty hand drops out."""

from enum import StrEnum
from typing import Any

from rulesdsl.options import enum_choice
from rulesdsl.units.base import Section, Step, Unit


class Elimination(StrEnum):
    AFTER_DRAW = "after_draw"
    IMMEDIATE = "immediate"


def _plays(value: Elimination) -> dict[Step, Any]:
    """Whether an empty hand is out at step 3, before the draw, rather than at step 6."""
    return {Step.ELIMINATE: value is Elimination.IMMEDIATE}


UNIT = Unit(
    "elimination",
    enum_choice(Elimination),
    "after_draw",
    "when an empty hand drops out",
    Section.DRAWING,
    frozenset({Step.ELIMINATE}),
    fires="it decides the fate of a player who won a trick with their last card",
    plays=_plays,
    counts=_plays,  # the flag is what the count model reads too
    place=110,
)
