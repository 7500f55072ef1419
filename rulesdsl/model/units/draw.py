"""draw: how many cards the trick winner draws."""

from enum import StrEnum
from functools import partial
from typing import Any

from rulesdsl.model.kinds import CountOrWord
from rulesdsl.model.state import State
from rulesdsl.model.units.acting import Acts, Effect, Fact
from rulesdsl.model.units.base import Section, Step, Unit
from rulesdsl.model.units.counting import DrawCount


def fixed_count(s: State, seat: int, count: int) -> int:
    """Step 4: a fixed number of cards."""
    return count


class DrawWord(StrEnum):
    PER_CARD_IN_TRICK = "per_card_in_trick"


def per_card_in_trick(s: State, seat: int) -> int:
    return len(s.trick_seats)


def winner_draws(t: Any) -> bool:
    """The trick's winner was still in at the draw and a card was there; or a player drew."""
    out_first = t.last_card and t.hand.plan.eliminate.act
    return t.drew or (not out_first and t.card_available())


def _never(proofs: Any) -> str | None:
    return None if proofs.has(Fact.WINNER_DRAWS) else "the trick winner never has a card to draw"


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
    acts=Acts(
        "a player is to draw (the trick winner, if still in) and a card is there",
        (Effect.PLAY, Effect.HAND_END),
        never=_never,
        trick=winner_draws,
    ),
    place=90,
)
