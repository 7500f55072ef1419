"""must_head: the obligation to beat the best card so far (a yes/no flag)."""

from typing import Any

from rulesdsl.model.kinds import Choice
from rulesdsl.model.state import State, beats
from rulesdsl.model.units.acting import Acts, Effect, no_choice
from rulesdsl.model.units.base import Section, Step, Unit


def head_the_trick(s: State, seat: int, allowed: list[int]) -> list[int]:
    """A card that beats the best so far, if able."""
    best, led, trump = s.best, s.led, s.trump
    return [c for c in allowed if beats(c, best, led, trump)]


def head_choice(m: Any) -> bool:
    """Among the cards the rules before this one allow, a follower holds one that beats the
    best card so far and one that does not."""
    if not m.hand.trick:
        return False
    return {m.beats_best(c) for c in m.allowed_before("must_head")} == {True, False}


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
    acts=Acts(
        "a follower may play a card that beats the best so far and one that does not",
        (Effect.PLAY,),
        never=no_choice,
        move=head_choice,
    ),
    place=80,
)
