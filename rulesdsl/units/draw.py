"""draw: how many cards the trick winner draws."""

from enum import StrEnum
from functools import partial
from typing import Any

from rulesdsl.engine.state import State
from rulesdsl.engine.steps import fixed_count
from rulesdsl.options import CountOrWord
from rulesdsl.units.base import Section, Step, Unit
from rulesdsl.units.counting import DrawCount


class DrawWord(StrEnum):
    PER_CARD_IN_TRICK = "per_card_in_trick"


def per_card_in_trick(s: State, seat: int) -> int:
    return len(s.trick_seats)


def _counts(value: int | DrawWord) -> dict[Step, Any]:
    per_card = value is DrawWord.PER_CARD_IN_TRICK
    return {Step.DRAW_COUNT: DrawCount(0 if per_card else int(value), per_card)}


def _plays(value: int | DrawWord) -> dict[Step, Any]:
    if value is DrawWord.PER_CARD_IN_TRICK:
        return {Step.DRAW_COUNT: per_card_in_trick}
    return {Step.DRAW_COUNT: partial(fixed_count, count=value)}


UNIT = Unit(
    "draw",
    CountOrWord(tuple(DrawWord)),
    "1",
    "cards the trick winner draws",
    Section.DRAWING,
    frozenset({Step.DRAW_COUNT}),
    fires="a draw takes cards",
    plays=_plays,
    counts=_counts,
    place=90,
)
