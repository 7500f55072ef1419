"""all_out: who wins when every remaining hand empties in the same trick."""

from enum import StrEnum
from typing import Any

from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.state import State
from rulesdsl.model.units.acting import Acts, Effect, Fact
from rulesdsl.model.units.base import Section, Step, Unit
from rulesdsl.model.units.counting import AllOutWinner


class AllOut(StrEnum):
    LAST_TRICK_WINNER = "last_trick_winner"
    NO_WINNER = "no_winner"


def no_winner(s: State) -> int:
    return -1


def all_out(t: Any) -> bool:
    outcome = t.hand.outcome
    return outcome is not None and outcome.reason == "all_out"


def _never(proofs: Any) -> str | None:
    if proofs.has(Fact.ALL_OUT):
        return None
    if not proofs.has(Fact.STOCK_EMPTY) and proofs.always_draws():
        return f"the trick winner always draws a card: {proofs.stock_kept()}"
    return (
        f"none of the {proofs.model.states} count states a hand can reach ends a trick "
        "with every hand empty"
    )


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
    acts=Acts(
        "every remaining hand empties in the same trick",
        (Effect.HAND_WINNER,),
        never=_never,
        trick=all_out,
    ),
    place=130,
)
