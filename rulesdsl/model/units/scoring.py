"""scoring: the match points for winning a hand."""

from enum import StrEnum
from typing import Any

from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.state import State
from rulesdsl.model.units.acting import Acts, Effect
from rulesdsl.model.units.base import Section, Step, Unit
from rulesdsl.model.units.counting import Points


class Scoring(StrEnum):
    ONE_PER_HAND = "one_per_hand"
    CARDS_IN_HAND = "cards_in_hand"


def one_point(s: State, winner: int) -> int:
    return 1


def cards_in_hand(s: State, winner: int) -> int:
    """One point per card left in the winner's hand."""
    return len(s.hands[winner])


def winner_cards_not_one(hand: Any) -> bool:
    outcome = hand.outcome
    return outcome.winner is not None and outcome.winner_cards != 1


def _never(proofs: Any) -> str | None:
    if proofs.model.winner_cards <= {1}:
        return "every hand winner holds exactly one card at the end"
    return None


def _counts(value: Scoring) -> dict[Step, Any]:
    per_card = value is Scoring.CARDS_IN_HAND
    return {Step.SCORE: Points(0, True) if per_card else Points(1)}


def _plays(value: Scoring) -> dict[Step, Any]:
    return {Step.SCORE: cards_in_hand if value is Scoring.CARDS_IN_HAND else one_point}


UNIT = Unit(
    "scoring",
    enum_choice(Scoring),
    "one_per_hand",
    "match points for winning a hand",
    Section.SCORING,
    frozenset({Step.SCORE}),
    plays=_plays,
    counts=_counts,
    acts=Acts(
        "a hand winner holds other than one card at the end",
        (Effect.MATCH,),
        never=_never,
        outcome=winner_cards_not_one,
    ),
    place=140,
)
