"""all_out: who wins when every remaining hand empties in the same trick."""

from enum import StrEnum
from typing import Any

from rulesdsl.engine.state import State
from rulesdsl.options import enum_choice
from rulesdsl.units.base import Section, Step, Unit
from rulesdsl.units.counting import AllOutWinner


class AllOut(StrEnum):
    LAST_TRICK_WINNER = "last_trick_winner"
    NO_WINNER = "no_winner"


def no_winner(s: State) -> int:
    return -1


def _counts(value: AllOut) -> dict[Step, Any]:
    nobody = value is AllOut.NO_WINNER
    return {Step.ALL_OUT: AllOutWinner.NOBODY if nobody else AllOutWinner.TRICK_WINNER}


def _plays(value: AllOut) -> dict[Step, Any]:
    return {Step.ALL_OUT: no_winner} if value is AllOut.NO_WINNER else {}


UNIT = Unit(
    "all_out",
    enum_choice(AllOut),
    "last_trick_winner",
    "who wins when every remaining hand empties in the same trick",
    Section.ENDING,
    frozenset({Step.ALL_OUT}),
    fires="it ends a hand where every remaining hand emptied",
    plays=_plays,
    counts=_counts,
    place=130,
)
