"""must_head: the obligation to beat the best card so far (a yes/no flag)."""

from typing import Any

from rulesdsl.engine.state import State
from rulesdsl.engine.steps import beats
from rulesdsl.options import Choice
from rulesdsl.units.base import Section, Step, Unit


def head_the_trick(s: State, seat: int, allowed: list[int]) -> list[int]:
    """A card that beats the best so far, if able."""
    best, led, trump = s.best, s.led, s.trump
    return [c for c in allowed if beats(c, best, led, trump)]


def _plays(value: bool) -> dict[Step, Any]:
    return {Step.FOLLOW_FILTER: head_the_trick} if value else {}


UNIT = Unit(
    "must_head",
    Choice({"no": False, "yes": True}),
    "no",
    "obligation to beat the best card so far",
    Section.PLAY,
    frozenset({Step.FOLLOW_FILTER}),
    fires="it refuses a card",
    plays=_plays,
    place=80,
)
