"""draw_by: who draws after a trick."""

from enum import StrEnum
from typing import Any

from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.state import ROTATIONS, State
from rulesdsl.model.units.acting import Acts, Effect, Fact
from rulesdsl.model.units.base import Section, Step, Unit
from rulesdsl.model.units.counting import Drawers


class DrawBy(StrEnum):
    WINNER = "winner"
    EVERYONE = "everyone"


def everyone_draws(s: State) -> list[int]:
    """Step 4: every active player, clockwise from the trick winner (who may be out)."""
    active = s.active
    return [seat for seat in ROTATIONS[s.players][s.winner] if active[seat]]


def other_draws(t: Any) -> bool:
    """A player other than the winner drew; or, after the winner's draw at step 4, one who
    was still in had a card there to draw, by their own count."""
    if t.other_drew:
        return True
    if t.stock_after_winner() == 0 and not t.hand.plan.refill.act.reshuffles:
        return False
    others = (seat for seat in range(t.hand.players) if seat != t.winner)
    return any(t.in_at_draw(seat) and t.count_at_draw(seat) > 0 for seat in others)


def _never(proofs: Any) -> str | None:
    if proofs.has(Fact.OTHER_CAN_DRAW):
        return None
    return "after the trick winner's draw, no card is ever there for another player"


def _counts(value: DrawBy) -> dict[Step, Any]:
    return {Step.DRAWERS: Drawers(value.value)}


def _plays(value: DrawBy) -> dict[Step, Any]:
    return {Step.DRAWERS: everyone_draws} if value is DrawBy.EVERYONE else {}


UNIT = Unit(
    "draw_by",
    enum_choice(DrawBy),
    "winner",
    "who draws after a trick",
    Section.DRAWING,
    frozenset({Step.DRAWERS}),
    fires="a player other than the trick winner draws",
    plays=_plays,
    counts=_counts,
    acts=Acts(
        "after the trick winner's draw, another player still in has a card to draw",
        (Effect.PLAY, Effect.HAND_END, Effect.HAND_WINNER),
        never=_never,
        trick=other_draws,
    ),
    place=100,
)
