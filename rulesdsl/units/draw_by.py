"""draw_by: who draws after a trick."""

from enum import StrEnum
from typing import Any

from rulesdsl.engine.state import State
from rulesdsl.engine.steps import ROTATIONS
from rulesdsl.options import enum_choice
from rulesdsl.units.base import Section, Step, Unit
from rulesdsl.units.counting import Drawers


class DrawBy(StrEnum):
    WINNER = "winner"
    EVERYONE = "everyone"


def everyone_draws(s: State) -> list[int]:
    """Step 4: every active player, clockwise from the trick winner (who may be out)."""
    active = s.active
    return [seat for seat in ROTATIONS[s.players][s.winner] if active[seat]]


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
    place=100,
)
